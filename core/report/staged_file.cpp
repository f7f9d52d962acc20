// SPDX-License-Identifier: Apache-2.0
#include "report/staged_file.h"

#include "report/sqlite_db.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <set>

#include "trainscope/error.h"

namespace fs = std::filesystem;

namespace trainscope {
namespace {

constexpr const char* kTempPrefix = ".trainscope-";

std::string describeErrno(int error) {
    return std::strerror(error);
}

fs::path folderOf(const std::string& path) {
    fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? fs::path(".") : parent;
}

// A short, stable tag of a final file name (FNV-1a): temporary and journal names stay short
// whatever the length of the report's name, and name which report they belong to.
std::string tagOf(const std::string& final_path) {
    uint64_t hash = 14695981039346656037ull;
    for (unsigned char c : fs::path(final_path).filename().string()) {
        hash = (hash ^ c) * 1099511628211ull;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016" PRIx64, hash);
    return text;
}

// This machine, in temporary names (8 hex digits of its host name): the ranks of one job on
// several machines may share a folder, and a pid says whether a process lives only on the
// machine that started it.
const std::string& hostTag() {
    static const std::string tag = [] {
        char name[256] = {};
        ::gethostname(name, sizeof name - 1);
        uint32_t hash = 2166136261u;
        for (const char* c = name; *c; ++c)
            hash = (hash ^ static_cast<unsigned char>(*c)) * 16777619u;
        char text[9];
        std::snprintf(text, sizeof text, "%08" PRIx32, hash);
        return std::string(text);
    }();
    return tag;
}

void syncPath(const std::string& path, int flags) {
    const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        const int error = errno;
        if (fd >= 0) {
            ::close(fd);
        }
        throw Error("cannot sync '" + path + "': " + describeErrno(error));
    }
    ::close(fd);
}

void syncFolder(const fs::path& folder) {
    syncPath(folder.string(), O_RDONLY | O_DIRECTORY);
}

// --- Temporary files removed on SIGINT and SIGTERM. The handler may only call async-signal-
// safe functions, so live temporary paths sit in fixed slots that it reads without locks.
constexpr int kSlots = 32;
char g_slot_paths[kSlots][PATH_MAX];
std::atomic<bool> g_slot_used[kSlots];
// The process that staged each file: a child forked from it (os.fork in a user's step) shares
// the slots but not the files, which it must leave to that process.
std::atomic<pid_t> g_slot_owner[kSlots];
std::mutex g_slot_mutex;  // between threads that take and free slots, never in the handler

int takeSlot(const std::string& path) {
    std::lock_guard<std::mutex> lock(g_slot_mutex);
    if (path.size() >= PATH_MAX) {
        return -1;
    }
    for (int i = 0; i < kSlots; ++i) {
        if (!g_slot_used[i].load()) {
            std::memcpy(g_slot_paths[i], path.c_str(), path.size() + 1);
            g_slot_owner[i].store(::getpid());
            g_slot_used[i].store(true);
            return i;
        }
    }
    return -1;  // more files at once than slots: that file is only removed by the destructor
}

void freeSlot(int slot) {
    if (slot >= 0) {
        std::lock_guard<std::mutex> lock(g_slot_mutex);
        g_slot_used[slot].store(false);
    }
}

extern "C" void removeTempsAndDie(int signal_number) {
    for (int i = 0; i < kSlots; ++i) {
        if (g_slot_used[i].load() && g_slot_owner[i].load() == ::getpid()) {
            ::unlink(g_slot_paths[i]);
        }
    }
    ::signal(signal_number, SIG_DFL);
    ::raise(signal_number);
}

std::string journalPathOf(const std::string& final_path) {
    return (folderOf(final_path) / (kTempPrefix + tagOf(final_path) + ".commit")).string();
}

// --- Recovery of what a killed run left behind.

bool processAlive(long pid) {
    return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

bool isOurTempFor(const std::string& temp, const std::string& target);

// Finishes a commit that a crash interrupted: every temporary file the journal names still
// exists only if it was not yet renamed, and all of them were complete before the journal. A
// journal is a file anyone who can write the folder may have put there, so only what a commit
// of ours could have named is renamed: a staged file of ours (a regular file, not a link,
// named for its target) onto its report, both in the journal's folder. Anything else is left.
void rollForward(const std::string& final_path) {
    const std::string journal = journalPathOf(final_path);
    struct stat info {};
    if (::lstat(journal.c_str(), &info) != 0) {
        return;
    }
    if (S_ISREG(info.st_mode)) {
        std::ifstream in(journal);
        std::string temp, target;
        while (std::getline(in, temp) && std::getline(in, target)) {
            struct stat staged {};
            if (isOurTempFor(temp, target) && folderOf(temp) == folderOf(final_path) &&
                folderOf(target) == folderOf(final_path) && ::lstat(temp.c_str(), &staged) == 0 &&
                S_ISREG(staged.st_mode)) {
                std::rename(temp.c_str(), target.c_str());
            }
        }
    }
    std::remove(journal.c_str());  // also a link put there: the link goes, not what it names
    syncFolder(folderOf(final_path));
}

// A temporary file's name, `.trainscope-TAG-PID-HOST-N.tmp` (TAG: 16 hex digits, HOST: 8; names
// of earlier versions lack HOST): its pid and host, or pid 0 for any other name.
struct TempName {
    long pid = 0;
    std::string host;  // empty: an earlier version's name, taken as this machine's
};

TempName parseTempName(const std::string& name) {
    const size_t tag_end = std::strlen(kTempPrefix) + 16;
    if (name.rfind(kTempPrefix, 0) != 0 || name.size() <= tag_end + 4 || name[tag_end] != '-' ||
        name.compare(name.size() - 4, 4, ".tmp") != 0) {
        return {};
    }
    for (size_t i = std::strlen(kTempPrefix); i < tag_end; ++i) {
        if (!std::isxdigit(static_cast<unsigned char>(name[i]))) {
            return {};
        }
    }
    char* end = nullptr;
    const long pid = std::strtol(name.c_str() + tag_end + 1, &end, 10);
    if (!end || *end != '-') {
        return {};
    }
    TempName parsed{pid, {}};
    const std::string rest(end + 1);  // "HOST-N.tmp" or "N.tmp"
    const size_t dash = rest.find('-');
    if (dash == 8) {
        parsed.host = rest.substr(0, 8);
    }
    return parsed;
}

// Whether `temp` is named as our staged file for the report `target`.
bool isOurTempFor(const std::string& temp, const std::string& target) {
    const std::string name = fs::path(temp).filename().string();
    return parseTempName(name).pid > 0 && name.rfind(kTempPrefix + tagOf(target) + "-", 0) == 0;
}

// The temporary files that the folder's commit journals name: an interrupted commit of another
// report still needs them, until a write of that report rolls it forward.
std::set<fs::path> journalledTemps(const fs::path& folder) {
    std::set<fs::path> named;
    std::error_code ec;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(kTempPrefix, 0) != 0 || entry.path().extension() != ".commit") {
            continue;
        }
        std::ifstream in(entry.path());
        std::string temp, target;
        while (std::getline(in, temp) && std::getline(in, target)) {
            named.insert(fs::path(temp).filename());
        }
    }
    return named;
}

// Removes the temporary files of this machine's processes that no longer run (killed by a
// signal that cannot be caught), of any report in the folder: a later run of any report there
// sweeps them. Those that a commit journal names are kept for its roll-forward; those of other
// machines (a shared folder) are theirs to sweep.
void removeStaleTemps(const std::string& final_path) {
    const fs::path folder = folderOf(final_path);
    const std::set<fs::path> journalled = journalledTemps(folder);
    std::error_code ec;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
        const TempName temp = parseTempName(entry.path().filename().string());
        if (temp.pid > 0 && (temp.host.empty() || temp.host == hostTag()) &&
            !processAlive(temp.pid) && !journalled.count(entry.path().filename())) {
            fs::remove(entry.path(), ec);
        }
    }
}

// A temporary name no other process can guess (its last part is random), so that nothing can
// be planted there before it is created.
std::string uniqueTempPath(const std::string& final_path) {
    static std::mutex mutex;
    static std::mt19937_64 random = [] {
        std::random_device device;
        return std::mt19937_64((uint64_t(device()) << 32) ^ device());
    }();
    uint64_t secret = 0;
    {
        std::lock_guard<std::mutex> lock(mutex);
        secret = random();
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016" PRIx64, secret);
    const std::string name = kTempPrefix + tagOf(final_path) + "-" + std::to_string(::getpid()) +
                             "-" + hostTag() + "-" + text + ".tmp";
    return (folderOf(final_path) / name).string();
}

// Creates a new temporary file for `final_path`: created here and now, never an existing file
// or a link that someone put at its name.
std::string createTempFile(const std::string& final_path) {
    for (int attempt = 0;; ++attempt) {
        const std::string path = uniqueTempPath(final_path);
        const int fd =
            ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0) {
            ::close(fd);
            return path;
        }
        if (errno != EEXIST || attempt == 8) {
            throw Error("cannot write '" + final_path + "': " + describeErrno(errno));
        }
    }
}

// What exists at `path`: nothing, a regular file (or a link to one), or something a report
// must never replace (a device, a FIFO, a socket, a folder, or a link to one of them).
enum class Existing { Nothing, RegularFile, Other };

Existing existingAt(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        struct stat link {};
        // A dangling symbolic link: replacing it writes no other file.
        return ::lstat(path.c_str(), &link) == 0 ? Existing::RegularFile : Existing::Nothing;
    }
    return S_ISREG(info.st_mode) ? Existing::RegularFile : Existing::Other;
}

Error notARegularFile(const std::string& path) {
    return Error("cannot write '" + path +
                 "': it exists and is not a regular file (a device, FIFO, folder or a link to "
                 "one); reports are never written there, with or without --force");
}

Error exists(const std::string& path) {
    return Error("'" + path + "' already exists; not overwriting it (use --force to replace it)");
}

// Refuses a destination that a report must not replace: one that is not a regular file
// (always), or any existing one when `overwrite` is Refuse.
void checkDestination(const std::string& path, Overwrite overwrite) {
    const Existing existing = existingAt(path);
    if (existing == Existing::Other) {
        throw notARegularFile(path);
    }
    if (overwrite == Overwrite::Refuse && existing != Existing::Nothing) {
        throw exists(path);
    }
}

}  // namespace

Error cannotWrite(const std::string& path, const std::exception& error) {
    const std::string said = error.what();
    const std::string prefix = "cannot write '" + path + "'";
    return Error(said.rfind(prefix, 0) == 0 ? said : prefix + ": " + said);
}

std::string commitJournalPath(const std::string& final_path) {
    return journalPathOf(final_path);
}

void installTempFileCleanup() {
    struct sigaction action {};
    action.sa_handler = removeTempsAndDie;
    sigemptyset(&action.sa_mask);
    for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
        ::sigaction(signal_number, &action, nullptr);
    }
}

TempFileCleanupWhileDefault::TempFileCleanupWhileDefault() {
    for (int signal_number : {SIGTERM, SIGHUP}) {
        struct sigaction current {};
        if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL ||
            (current.sa_flags & SA_SIGINFO)) {
            continue;
        }
        struct sigaction action {};
        action.sa_handler = removeTempsAndDie;  // which restores the default and re-raises
        sigemptyset(&action.sa_mask);
        if (::sigaction(signal_number, &action, nullptr) == 0) {
            taken_.push_back(signal_number);
        }
    }
}

TempFileCleanupWhileDefault::~TempFileCleanupWhileDefault() {
    for (int signal_number : taken_) {
        struct sigaction current {};
        if (::sigaction(signal_number, nullptr, &current) == 0 &&
            !(current.sa_flags & SA_SIGINFO) && current.sa_handler == removeTempsAndDie) {
            ::signal(signal_number, SIG_DFL);
        }
    }
}

void checkOutputPath(const std::string& path, Overwrite overwrite) {
    if (path.empty()) {
        throw Error("no output file given");
    }
    std::error_code ec;
    const fs::path folder = folderOf(path);
    if (!fs::is_directory(folder, ec)) {
        throw Error("cannot write '" + path + "': " +
                    (fs::exists(folder, ec) ? "'" + folder.string() + "' is not a folder"
                                            : "folder '" + folder.string() + "' does not exist"));
    }
    if (::access(folder.c_str(), W_OK | X_OK) != 0) {
        throw Error("cannot write '" + path + "': folder '" + folder.string() +
                    "' is not writable");
    }
    const long name_max = ::pathconf(folder.c_str(), _PC_NAME_MAX);
    if (name_max > 0 && fs::path(path).filename().string().size() > static_cast<size_t>(name_max)) {
        throw Error("cannot write '" + path + "': the name is longer than the file system's " +
                    std::to_string(name_max) + " bytes");
    }
    removeStaleTemps(path);  // also when the run is refused below: a killed run's leftovers go
    checkDestination(path, overwrite);
}

StagedFile::StagedFile(std::string final_path)
    : final_path_(std::move(final_path)), owner_(::getpid()) {
    rollForward(final_path_);
    removeStaleTemps(final_path_);
    temp_path_ = createTempFile(final_path_);
    signal_slot_ = takeSlot(temp_path_);
    fd_ = ::open(temp_path_.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat info {};
    if (fd_ >= 0 && ::fstat(fd_, &info) == 0) {
        device_ = info.st_dev;
        inode_ = info.st_ino;
    }
}

StagedFile::~StagedFile() {
    if (!committed_ && ::getpid() == owner_) {  // a forked child's copy leaves it to its owner
        if (inPlace() || fd_ < 0) {
            std::remove(temp_path_.c_str());
        } else {
            // Its folder was moved: the file is where the kernel says the open file is now.
            char moved[PATH_MAX] = {};
            const std::string link = "/proc/self/fd/" + std::to_string(fd_);
            const ssize_t length = ::readlink(link.c_str(), moved, sizeof moved - 1);
            struct stat info {};
            if (length > 0 && ::lstat(moved, &info) == 0 && info.st_dev == device_ &&
                info.st_ino == inode_) {
                ::unlink(moved);
            }
        }
    }
    if (fd_ >= 0) {
        ::close(fd_);
    }
    freeSlot(signal_slot_);
}

bool StagedFile::inPlace() const {
    struct stat info {};
    return ::lstat(temp_path_.c_str(), &info) == 0 && info.st_dev == device_ &&
           info.st_ino == inode_;
}

void StagedFile::checkInPlace() const {
    if (fd_ >= 0 && !inPlace()) {
        throw Error("cannot write '" + final_path_ +
                    "': its folder was moved or replaced while the report was being written");
    }
}

void StagedFile::sync() const {
    syncPath(temp_path_, O_RDONLY);
}

void commitTogether(const std::vector<StagedFile*>& files, Overwrite overwrite) {
    if (files.empty()) {
        return;
    }
    for (StagedFile* file : files) {
        file->checkInPlace();
        checkDestination(file->final_path_, overwrite);
        file->sync();
    }
    const std::string journal = journalPathOf(files.front()->final_path_);
    {
        // A new file of our own: whatever is at the journal's name (a link someone put there)
        // is removed, not written through.
        std::string text;
        for (const StagedFile* file : files)
            text += file->temp_path_ + "\n" + file->final_path_ + "\n";
        std::remove(journal.c_str());
        const int fd =
            ::open(journal.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        const bool written =
            fd >= 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
        if (fd >= 0) {
            ::close(fd);
        }
        if (!written) {
            std::remove(journal.c_str());
            throw Error("cannot write '" + journal + "' in the reports' folder");
        }
    }
    syncPath(journal, O_RDONLY);
    const fs::path folder = folderOf(files.front()->final_path_);
    syncFolder(folder);  // from here on, the new set is what a crash leaves (rolled forward)
    for (StagedFile* file : files) {  // so a signal now leaves the files for the roll-forward
        freeSlot(file->signal_slot_);
        file->signal_slot_ = -1;
    }
    if (overwrite == Overwrite::Allow) {
        for (StagedFile* file : files) {
            if (std::rename(file->temp_path_.c_str(), file->final_path_.c_str()) != 0) {
                throw Error("cannot write '" + file->final_path_ + "': " + describeErrno(errno));
            }
            file->committed_ = true;
        }
    } else {
        // link() fails if the destination exists: an atomic "create, never replace". A file
        // that appeared since the check undoes the files this commit created.
        for (size_t i = 0; i < files.size(); ++i) {
            if (::link(files[i]->temp_path_.c_str(), files[i]->final_path_.c_str()) != 0) {
                const int error = errno;
                for (size_t j = 0; j < i; ++j) {
                    std::remove(files[j]->final_path_.c_str());
                }
                std::remove(journal.c_str());
                throw error == EEXIST ? exists(files[i]->final_path_)
                                      : Error("cannot write '" + files[i]->final_path_ +
                                              "': " + describeErrno(error));
            }
        }
        for (StagedFile* file : files) {
            std::remove(file->temp_path_.c_str());
            file->committed_ = true;
        }
    }
    syncFolder(folder);
    std::remove(journal.c_str());
    syncFolder(folder);
}

std::unique_ptr<StagedFile> writeStaged(const std::string& path,
                                        const std::function<void(SqliteDb&)>& fill) {
    auto staged = std::make_unique<StagedFile>(path);
    try {
        SqliteDb db(staged->tempPath());
        db.exec("PRAGMA journal_mode = OFF");  // a staged file needs no rollback journal
        db.exec("BEGIN");
        fill(db);
        db.exec("COMMIT");
        db.close();
    } catch (const Error& e) {
        throw cannotWrite(path, e);
    }
    return staged;
}

}  // namespace trainscope
