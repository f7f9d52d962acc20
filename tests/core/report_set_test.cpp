// SPDX-License-Identifier: Apache-2.0
// How reports reach the disk: a run's set of files is replaced whole or not at all (also when
// the process dies half-way), special files are never replaced, and temporary files of
// interrupted or killed runs do not stay behind.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "report/sqlite_db.h"
#include "report/staged_file.h"
#include "support/report_reader.h"
#include "trainscope/error.h"
#include "trainscope/report_writer.h"

namespace fs = std::filesystem;
using namespace trainscope;
using test::ReportReader;

namespace {

TimeReport timeReport(double forward_ms) {
    TimeReport report;
    report.entries = {{"aten::linear", forward_ms, 1.0, {{"model.py", 3}}, "lin"}};
    report.metadata = {{"run", std::to_string(forward_ms)}};
    return report;
}

MemoryReport memoryReport(int64_t peak) {
    MemoryReport report;
    report.peak_usage_bytes = peak;
    report.weights = {{"w", 8, 8, {}, ""}};
    return report;
}

class ReportSetFiles : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = test::makeTempDir(); }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const std::string& name) const { return (fs::path(dir_) / name).string(); }
    std::vector<std::string> names() const { return test::fileNames(dir_); }
    int64_t peakOf(const std::string& name) const {
        return std::stoll(
            ReportReader(path(name))
                .scalar("SELECT size_bytes FROM misc_sizes WHERE key = 'peak_usage_bytes'"));
    }
    std::string dir_;
};

}  // namespace

TEST_F(ReportSetFiles, AFailedCommitWithForceKeepsTheWholeOldSet) {
    writeReports(memoryReport(1), path("run.memory.sqlite"), timeReport(1), path("run.time.sqlite"),
                 Overwrite::Refuse);
    StagedFile memory(path("run.memory.sqlite"));
    StagedFile time(path("run.time.sqlite"));
    std::ofstream(memory.tempPath()) << "new memory";
    std::ofstream(time.tempPath()) << "new time";
    // The second destination turns into something a report must not replace.
    fs::remove(path("run.time.sqlite"));
    fs::create_directory(path("run.time.sqlite"));
    EXPECT_THROW(commitTogether({&memory, &time}, Overwrite::Allow), Error);
    EXPECT_EQ(peakOf("run.memory.sqlite"), 1) << "the old memory report was replaced or lost";
}

TEST_F(ReportSetFiles, AFailedWriteWithForceKeepsTheOldSet) {
    writeReports(memoryReport(1), path("run.memory.sqlite"), timeReport(1), path("run.time.sqlite"),
                 Overwrite::Refuse);
    // NaN cannot be stored in forward_ms (NOT NULL): the time report fails while being written.
    EXPECT_THROW(writeReports(memoryReport(2), path("run.memory.sqlite"), timeReport(std::nan("")),
                              path("run.time.sqlite"), Overwrite::Allow),
                 Error);
    EXPECT_EQ(peakOf("run.memory.sqlite"), 1);
    EXPECT_EQ(names(), (std::vector<std::string>{"run.memory.sqlite", "run.time.sqlite"}));
}

TEST_F(ReportSetFiles, ACommitInterruptedByACrashIsCompletedByTheNextWrite) {
    writeReports(memoryReport(1), path("run.memory.sqlite"), timeReport(1), path("run.time.sqlite"),
                 Overwrite::Refuse);
    fs::create_directory(path("set2"));
    writeReports(memoryReport(2), path("set2/m.sqlite"), timeReport(2), path("set2/t.sqlite"),
                 Overwrite::Refuse);
    // A child reaches the state of a commit that died after its journal and its first rename,
    // then ends without any cleanup, as a killed process would.
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        alarm(60);  // a child that hangs is ended (SIGALRM), and its test fails
        auto* memory = new StagedFile(path("run.memory.sqlite"));  // never destroyed
        auto* time = new StagedFile(path("run.time.sqlite"));
        // Written into the staged files, which exist from the start.
        fs::copy_file(path("set2/m.sqlite"), memory->tempPath(),
                      fs::copy_options::overwrite_existing);
        fs::copy_file(path("set2/t.sqlite"), time->tempPath(),
                      fs::copy_options::overwrite_existing);
        std::ofstream(commitJournalPath(memory->finalPath())) << memory->tempPath() << "\n"
                                                              << memory->finalPath() << "\n"
                                                              << time->tempPath() << "\n"
                                                              << time->finalPath() << "\n";
        std::rename(memory->tempPath().c_str(), memory->finalPath().c_str());
        _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_EQ(peakOf("run.memory.sqlite"), 2);
    ASSERT_EQ(
        ReportReader(path("run.time.sqlite")).scalar("SELECT forward_ms FROM run_time_entries"),
        "1.0")
        << "the crash left a mixed pair";

    // A write of another report in the folder sweeps dead processes' temporary files, but not
    // those the journal still needs.
    writeReports(memoryReport(4), path("other.memory.sqlite"), timeReport(4),
                 path("other.time.sqlite"), Overwrite::Refuse);
    fs::remove(path("other.memory.sqlite"));
    fs::remove(path("other.time.sqlite"));

    // The next write to that name finishes the interrupted commit before anything else, even
    // though it fails itself.
    EXPECT_THROW(writeReports(memoryReport(3), path("run.memory.sqlite"), timeReport(std::nan("")),
                              path("run.time.sqlite"), Overwrite::Allow),
                 Error);
    EXPECT_EQ(peakOf("run.memory.sqlite"), 2);
    EXPECT_EQ(
        ReportReader(path("run.time.sqlite")).scalar("SELECT forward_ms FROM run_time_entries"),
        "2.0");
    EXPECT_EQ(names(), (std::vector<std::string>{"run.memory.sqlite", "run.time.sqlite", "set2"}));
}

TEST_F(ReportSetFiles, AnOutputAtADeviceNodeOrFifoIsRefusedAndLeftAsItWas) {
    ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
    fs::create_symlink(path("fifo"), path("link-to-fifo"));
    for (const char* name : {"fifo", "link-to-fifo"}) {
        for (Overwrite overwrite : {Overwrite::Refuse, Overwrite::Allow}) {
            EXPECT_THROW(writeTimeReport(timeReport(1), path(name), overwrite), Error) << name;
        }
    }
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(path("fifo"))));
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(path("link-to-fifo"))));
    if (geteuid() != 0) {
        GTEST_SKIP() << "making a device node needs root (CI runs as root)";
    }
    // A character device of the test's own, with /dev/null's numbers (never /dev/null itself).
    ASSERT_EQ(mknod(path("null").c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
    try {
        writeTimeReport(timeReport(1), path("null"), Overwrite::Allow);
        FAIL() << "a device node was replaced";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
    struct stat info {};
    ASSERT_EQ(stat(path("null").c_str(), &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode));
    EXPECT_EQ(info.st_rdev, makedev(1, 3));
}

TEST_F(ReportSetFiles, TempFilesAreRemovedOnSigterm) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        alarm(60);  // a child that hangs is ended (SIGALRM), and its test fails
        installTempFileCleanup();
        auto* file = new StagedFile(path("run.time.sqlite"));
        std::ofstream(file->tempPath()) << std::string(600 * 1024, 'x');
        raise(SIGTERM);
        _exit(0);  // not reached
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    EXPECT_TRUE(names().empty()) << names().front() << " was left behind";
}

TEST_F(ReportSetFiles, TempFilesOfAKilledRunAreRemovedByTheNextWrite) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        alarm(60);  // a child that hangs is ended (SIGALRM), and its test fails
        auto* file = new StagedFile(path("run.time.sqlite"));
        std::ofstream(file->tempPath()) << "half a report";
        _exit(0);  // SIGKILL leaves the same: no handler runs
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_EQ(names().size(), 1u);
    ASSERT_EQ(names()[0].rfind(".trainscope-", 0), 0u);
    writeTimeReport(timeReport(1), path("run.time.sqlite"), Overwrite::Refuse);
    EXPECT_EQ(names(), (std::vector<std::string>{"run.time.sqlite"}));
}

// A staged file is created new, under a name that cannot be guessed, and written only there:
// a link planted at a predictable name once made the writer fill a user's database.
TEST_F(ReportSetFiles, AStagedFileIsANewFileUnderANameNoOneCanGuess) {
    const std::string target = path("users.sqlite");
    std::ofstream(target) << "the user's database";
    StagedFile first(path("run.time.sqlite"));
    StagedFile second(path("run.time.sqlite"));
    EXPECT_NE(first.tempPath(), second.tempPath());
    // The names differ in more than a counter: their last parts are random.
    auto last_part = [](const std::string& temp) {
        const std::string name = fs::path(temp).stem().string();
        return name.substr(name.rfind('-') + 1);
    };
    EXPECT_EQ(last_part(first.tempPath()).size(), 16u);
    EXPECT_NE(last_part(first.tempPath()), last_part(second.tempPath()));
    struct stat info {};
    ASSERT_EQ(lstat(first.tempPath().c_str(), &info), 0);
    EXPECT_TRUE(S_ISREG(info.st_mode));
    // Were a link put in its place, the writer refuses to follow it.
    fs::remove(first.tempPath());
    fs::create_symlink(target, first.tempPath());
    EXPECT_THROW(SqliteDb db(first.tempPath()), Error);
    std::ifstream in(target);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "the user's database");
}

// The commit journal's name is known to anyone: a journal planted there moves none of the
// user's files, and a link planted there is replaced, not written through.
TEST_F(ReportSetFiles, APlantedJournalOrALinkAtItsNameTouchesNoUsersFile) {
    fs::create_directory(path("victim"));
    std::ofstream(path("victim/a")) << "precious A";
    std::ofstream(path("victim/b")) << "precious B";
    std::ofstream(commitJournalPath(path("run.time.sqlite"))) << path("victim/a") << "\n"
                                                              << path("victim/b") << "\n";
    writeTimeReport(timeReport(1), path("run.time.sqlite"), Overwrite::Refuse);
    auto text = [&](const std::string& name) {
        std::ifstream in(path(name));
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    EXPECT_EQ(text("victim/a"), "precious A");
    EXPECT_EQ(text("victim/b"), "precious B");
    // A link at the journal's name, to the user's file: the commit writes a journal of its own.
    fs::create_symlink(path("victim/a"), commitJournalPath(path("run.time.sqlite")));
    writeTimeReport(timeReport(2), path("run.time.sqlite"), Overwrite::Allow);
    EXPECT_EQ(text("victim/a"), "precious A");
    EXPECT_EQ(names(), (std::vector<std::string>{"run.time.sqlite", "victim"}));
}

TEST_F(ReportSetFiles, NamesUpToTheFileSystemsLimitWork) {
    const long limit = pathconf(dir_.c_str(), _PC_NAME_MAX);
    ASSERT_GT(limit, 20);
    const std::string longest = std::string(static_cast<size_t>(limit) - 7, 'r') + ".sqlite";
    writeTimeReport(timeReport(1), path(longest), Overwrite::Refuse);
    EXPECT_EQ(names(), (std::vector<std::string>{longest}));
    try {
        writeTimeReport(timeReport(1), path("r" + longest), Overwrite::Refuse);
        FAIL() << "a name over the limit was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("longer than"), std::string::npos) << e.what();
    }
}
