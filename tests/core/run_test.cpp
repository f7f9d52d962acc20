// The one run flow that the CLI and the app share (trainscope/run.h): which files a plan
// writes, that it refuses outputs before the long part, that a cancelled run writes nothing,
// and that what it writes is what it returns.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>

#include "support/report_reader.h"
#include "trainscope/error.h"
#include "trainscope/report_format.h"
#include "trainscope/run.h"

using namespace trainscope;
namespace fs = std::filesystem;

namespace {

class RunTest : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = test::makeTempDir(); }
    void TearDown() override { fs::remove_all(dir_); }

    RunPlan smallMlp(Measure measure, const std::string& output) const {
        RunPlan plan;
        plan.config.model = "builtin:mlp";
        plan.config.params = {{"d_model", "32"}};
        plan.config.inputs = {parseInputSpec("2x8x32")};
        plan.config.warmup = 1;
        plan.config.iterations = 1;
        plan.measure = measure;
        plan.output = dir_ + "/" + output;
        return plan;
    }

    std::vector<std::string> files() const {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(dir_))
            names.push_back(entry.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }

    std::string dir_;
};

TEST_F(RunTest, APlanNamesItsReportsAfterThePrefixOrTheFileGiven) {
    EXPECT_EQ(reportPaths(smallMlp(Measure::MemoryAndTime, "run")),
              (std::vector<std::string>{dir_ + "/run" + report_format::kMemorySuffix,
                                        dir_ + "/run" + report_format::kTimeSuffix}));
    EXPECT_EQ(reportPaths(smallMlp(Measure::Memory, "m.sqlite")),
              std::vector<std::string>{dir_ + "/m.sqlite"});
    EXPECT_EQ(reportPaths(smallMlp(Measure::Time, "t.sqlite")),
              std::vector<std::string>{dir_ + "/t.sqlite"});
}

TEST_F(RunTest, BothReportsAreWrittenAndReturned) {
    const RunResult result = runAndWrite(smallMlp(Measure::MemoryAndTime, "run"));
    ASSERT_TRUE(result.memory && result.time);
    EXPECT_EQ(result.paths, reportPaths(smallMlp(Measure::MemoryAndTime, "run")));
    EXPECT_EQ(files(), (std::vector<std::string>{"run.memory.sqlite", "run.time.sqlite"}));
    const test::ReportReader memory(result.paths[0]);
    EXPECT_EQ(memory.scalar("SELECT size_bytes FROM misc_sizes WHERE key = 'peak_usage_bytes'"),
              std::to_string(result.memory->peak_usage_bytes));
    const test::ReportReader time(result.paths[1]);
    EXPECT_EQ(time.scalar("SELECT COUNT(*) FROM run_time_entries"),
              std::to_string(result.time->entries.size()));
}

TEST_F(RunTest, AnExistingOutputIsRefusedBeforeTheRunUnlessOverwriteIsAllowed) {
    std::ofstream(dir_ + "/run.time.sqlite") << "the user's file";
    RunPlan plan = smallMlp(Measure::MemoryAndTime, "run");
    // With a model that could not even load, the error shows which check came first.
    plan.config.model = "builtin:no-such-model";
    try {
        runAndWrite(plan);
        ADD_FAILURE() << "the run did not refuse the existing output";
    } catch (const Error& error) {
        EXPECT_NE(std::string(error.what()).find("already exists"), std::string::npos)
            << error.what();
    }
    EXPECT_EQ(files(), std::vector<std::string>{"run.time.sqlite"});
    plan = smallMlp(Measure::MemoryAndTime, "run");
    plan.overwrite = Overwrite::Allow;
    runAndWrite(plan);
    EXPECT_EQ(files(), (std::vector<std::string>{"run.memory.sqlite", "run.time.sqlite"}));
}

TEST_F(RunTest, ACancelledRunWritesNothing) {
    const std::atomic<bool> cancel{true};
    EXPECT_THROW(runAndWrite(smallMlp(Measure::MemoryAndTime, "run"), {}, &cancel), Cancelled);
    EXPECT_TRUE(files().empty());
}

}  // namespace
