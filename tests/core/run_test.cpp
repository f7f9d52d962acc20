// SPDX-License-Identifier: Apache-2.0
// The one run flow that the CLI and the app share (trainscope/run.h): which files a plan
// writes, that it refuses outputs before the long part, that a cancelled run writes nothing,
// and that what it writes is what it returns.
#include <gtest/gtest.h>
#include <torch/csrc/jit/runtime/graph_executor.h>

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

    std::vector<std::string> files() const { return test::fileNames(dir_); }

    std::string dir_;
};

TEST_F(RunTest, APlanNamesItsReportsAfterThePrefixOrTheFileGiven) {
    EXPECT_EQ(reportPaths(smallMlp(Measure::All, "run")),
              (std::vector<std::string>{dir_ + "/run" + report_format::kMemorySuffix,
                                        dir_ + "/run" + report_format::kTimeSuffix,
                                        dir_ + "/run" + report_format::kTimelineSuffix}));
    EXPECT_EQ(reportPaths(smallMlp(Measure::Timeline, "tl.sqlite")),
              std::vector<std::string>{dir_ + "/tl.sqlite"});
    EXPECT_EQ(reportPaths(smallMlp(Measure::Memory, "m.sqlite")),
              std::vector<std::string>{dir_ + "/m.sqlite"});
    EXPECT_EQ(reportPaths(smallMlp(Measure::Time, "t.sqlite")),
              std::vector<std::string>{dir_ + "/t.sqlite"});
}

const std::vector<std::string> kAllThree{"run.memory.sqlite", "run.time.sqlite",
                                         "run.timeline.sqlite"};

TEST_F(RunTest, AllThreeReportsAreWrittenAndReturned) {
    const RunResult result = runAndWrite(smallMlp(Measure::All, "run"));
    ASSERT_TRUE(result.memory && result.time && result.timeline);
    EXPECT_EQ(result.paths, reportPaths(smallMlp(Measure::All, "run")));
    EXPECT_EQ(files(), kAllThree);
    const test::ReportReader memory(result.paths[0]);
    EXPECT_EQ(memory.scalar("SELECT size_bytes FROM misc_sizes WHERE key = 'peak_usage_bytes'"),
              std::to_string(result.memory->peak_usage_bytes));
    const test::ReportReader time(result.paths[1]);
    EXPECT_EQ(time.scalar("SELECT COUNT(*) FROM run_time_entries"),
              std::to_string(result.time->entries.size()));
    const test::ReportReader timeline(result.paths[2]);
    EXPECT_EQ(timeline.scalar("SELECT COUNT(*) FROM PYTORCH_API"),
              std::to_string(result.timeline->calls.size()));
}

// An archive run is a session over the engine's own step: its memory step follows the warm-ups
// (the timeline numbers it so), and every measured iteration is a timed step.
TEST_F(RunTest, TheMemoryStepFollowsTheWarmUpsAndEachIterationIsATimedStep) {
    RunPlan plan = smallMlp(Measure::All, "run");
    plan.config.warmup = 2;
    plan.config.iterations = 3;
    const RunResult result = runAndWrite(plan);
    ASSERT_TRUE(result.timeline && result.time);
    ASSERT_EQ(result.timeline->steps.size(), 1u);
    EXPECT_EQ(result.timeline->steps[0].id, 3);
    EXPECT_EQ(result.time->metadata.at("timed_steps"), "3");
}

// The graph-executor setting that archive runs need (no fusion into differentiable graphs) is
// the run's only: a process that goes on after it finds the setting as it was.
TEST_F(RunTest, TheGraphExecutorSettingIsRestoredWhenTheRunEnds) {
    for (const bool before : {true, false}) {
        torch::jit::setGraphExecutorOptimize(before);
        runAndWrite(smallMlp(Measure::Time, before ? "on.sqlite" : "off.sqlite"));
        EXPECT_EQ(torch::jit::getGraphExecutorOptimize(), before);
    }
    torch::jit::setGraphExecutorOptimize(true);  // LibTorch's default
}

TEST_F(RunTest, TheTimelineAloneIsWrittenToTheFileGiven) {
    const RunResult result = runAndWrite(smallMlp(Measure::Timeline, "tl.sqlite"));
    EXPECT_TRUE(result.timeline && !result.memory && !result.time);
    EXPECT_EQ(files(), std::vector<std::string>{"tl.sqlite"});
}

TEST_F(RunTest, AnExistingOutputIsRefusedBeforeTheRunUnlessOverwriteIsAllowed) {
    std::ofstream(dir_ + "/run.time.sqlite") << "the user's file";
    RunPlan plan = smallMlp(Measure::All, "run");
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
    // Allowed to overwrite, a run replaces reports, never the user's other files.
    plan = smallMlp(Measure::All, "run");
    plan.overwrite = Overwrite::Allow;
    EXPECT_THROW(runAndWrite(plan), Error);
    EXPECT_EQ(files(), std::vector<std::string>{"run.time.sqlite"});
    std::filesystem::remove(dir_ + "/run.time.sqlite");
    runAndWrite(smallMlp(Measure::All, "run"));
    runAndWrite(plan);
    EXPECT_EQ(files(), kAllThree);
}

TEST_F(RunTest, ACancelledRunWritesNothing) {
    const std::atomic<bool> cancel{true};
    EXPECT_THROW(runAndWrite(smallMlp(Measure::All, "run"), {}, &cancel), Cancelled);
    EXPECT_TRUE(files().empty());
}

// Cancelled once the memory pass (and so the timeline) is done: still none of the three.
TEST_F(RunTest, ARunCancelledAfterItsMemoryPassWritesNoneOfTheThree) {
    std::atomic<bool> cancel{false};
    const auto progress = [&](const Progress& p) {
        if (p.pass == Pass::Time && p.phase == Phase::Measuring)
            cancel = true;
    };
    EXPECT_THROW(runAndWrite(smallMlp(Measure::All, "run"), progress, &cancel), Cancelled);
    EXPECT_TRUE(files().empty());
}

// A run that fails in its second pass (the output appears meanwhile and is not to be
// replaced) writes none of the three and leaves what appeared.
TEST_F(RunTest, ARunThatFailsAtTheEndWritesNoneOfTheThree) {
    bool created = false;
    const auto progress = [&](const Progress& p) {
        if (p.pass == Pass::Time && !created) {
            std::ofstream(dir_ + "/run.timeline.sqlite") << "the user's file";
            created = true;
        }
    };
    EXPECT_THROW(runAndWrite(smallMlp(Measure::All, "run"), progress), Error);
    EXPECT_EQ(files(), std::vector<std::string>{"run.timeline.sqlite"});
    std::ifstream kept(dir_ + "/run.timeline.sqlite");
    std::string content;
    std::getline(kept, content);
    EXPECT_EQ(content, "the user's file");
}

}  // namespace
