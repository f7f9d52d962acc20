// SPDX-License-Identifier: Apache-2.0
// The run time report from recorded steps made by hand (records/recorded_steps.h): medians over
// the timed steps, the steps that compiled left out, compiled kernels as rows of their own, and
// the notes that say what the steps did differently, with no LibTorch.
#include <gtest/gtest.h>

#include "analysis/time_report.h"
#include "trainscope/report_format.h"

using namespace trainscope;

namespace {

OperationTiming timing(double forward_ms) {
    return OperationTiming{forward_ms, 0.0, false, true};
}

// A memory step of two operations and three timed steps (ids 1, then 2 to 4), each step a
// second long from second `id`.
RecordedSteps threeTimedSteps() {
    RecordedSteps steps;
    OperationRecord linear;
    linear.name = "aten::linear";
    OperationRecord relu;
    relu.name = "aten::relu";
    steps.operations = {linear, relu};
    steps.operation_modules = {"fc", ""};
    steps.memory_step_ms = 99.0;
    for (int64_t id = 1; id <= 4; ++id)
        steps.steps.push_back({id, id * 1000000000, id * 1000000000 + 999999999, false});
    steps.timed = {
        {timing(1.0), timing(0.5)}, {timing(50.0), timing(0.4)}, {timing(3.0), timing(0.3)}};
    steps.timed_ms = {10.0, 80.0, 30.0};
    steps.timed_collectives.resize(3);
    steps.timed_kernels.ms.resize(3);
    steps.timed_kernels.calls.resize(3);
    return steps;
}

Compilation compilationAt(int64_t ns) {
    Compilation c;
    c.compile_id = "0/0";
    c.kind = "forward";
    c.start_ns = ns;
    c.end_ns = ns + 1000;
    return c;
}

}  // namespace

TEST(TimeReport, EachOperationIsItsMedianOverTheTimedSteps) {
    const RecordedSteps steps = threeTimedSteps();
    std::vector<ActivationEntry> activations;
    const TimeReport time = assembleTimeReport(steps, {{"model", "m"}}, {}, activations);
    ASSERT_EQ(time.entries.size(), 2u);
    EXPECT_DOUBLE_EQ(time.entries[0].forward_ms, 3.0);
    EXPECT_EQ(time.entries[0].module_path, "fc");
    EXPECT_DOUBLE_EQ(time.iteration_ms, 30.0);
    EXPECT_EQ(time.metadata.at("timed_steps"), "3");
    EXPECT_EQ(time.metadata.at("model"), "m");
    EXPECT_EQ(time.metadata.count(report_format::kCompiledStepsKey), 0u);
}

TEST(TimeReport, ATimedStepThatCompiledIsLeftOutOfTheTimes) {
    RecordedSteps steps = threeTimedSteps();
    steps.compilations = {
        compilationAt(int64_t{3} * 1000000000 + 5)};  // in step 3: the second timed
    std::vector<ActivationEntry> activations;
    const TimeReport time = assembleTimeReport(steps, {}, {}, activations);
    EXPECT_EQ(time.metadata.at("timed_steps"), "2");
    EXPECT_DOUBLE_EQ(time.entries[0].forward_ms, 2.0);  // the median of 1 and 3
    EXPECT_DOUBLE_EQ(time.iteration_ms, 20.0);
    ASSERT_EQ(time.compilations.size(), 1u);
    EXPECT_EQ(time.compilations[0].step, 3);
    EXPECT_EQ(time.metadata.at(report_format::kCompiledStepsKey),
              "torch.compile compiled in observed steps (3); the timed steps that compiled are "
              "left out of the times");
}

TEST(TimeReport, WhenEveryTimedStepCompiledTheirTimesAreKeptAndSaidToIncludeIt) {
    RecordedSteps steps = threeTimedSteps();
    for (int64_t id = 1; id <= 4; ++id)
        steps.compilations.push_back(compilationAt(id * 1000000000 + 5));
    std::vector<ActivationEntry> activations;
    const TimeReport time = assembleTimeReport(steps, {}, {}, activations);
    EXPECT_EQ(time.metadata.at("timed_steps"), "3");
    EXPECT_EQ(time.metadata.at(report_format::kCompiledStepsKey),
              "torch.compile compiled in observed steps (1, 2, 3, 4): the memory step's figures "
              "include what compiling allocated; every timed step compiled, so their times "
              "include compiling");
}

TEST(TimeReport, WithoutTimedStepsTheMemoryStepsOwnTimesAreTheReports) {
    RecordedSteps steps = threeTimedSteps();
    steps.timed.clear();
    steps.timed_ms.clear();
    steps.timed_collectives.clear();
    steps.operations[0].forward_ms = 7.0;
    std::vector<ActivationEntry> activations;
    const TimeReport time = assembleTimeReport(steps, {}, {}, activations);
    EXPECT_EQ(time.metadata.at("timed_steps"), "0");
    EXPECT_DOUBLE_EQ(time.entries[0].forward_ms, 7.0);
    EXPECT_DOUBLE_EQ(time.iteration_ms, 99.0);
}

TEST(TimeReport, StepsThatRanOtherOperationsAreNamed) {
    RecordedSteps steps = threeTimedSteps();
    steps.differences = {1, 2, 1, {"aten::set_"}, {"aten::relu"}};
    std::vector<ActivationEntry> activations;
    const TimeReport time = assembleTimeReport(steps, {}, {}, activations);
    EXPECT_EQ(time.metadata.at(report_format::kDifferingStepsKey),
              "1 of 3 timed steps ran other operations than the memory step: 2 of their calls "
              "matched none of its operations (aten::set_), 1 of its operations did not run in "
              "them (aten::relu); each operation is timed over the steps that ran it");
}

// A file has no memory step: an imported trace's steps are said to differ from the peak's.
TEST(TimeReport, AnImportedTracesStepsThatDifferAreSaidInTheFilesWords) {
    RecordedSteps steps = threeTimedSteps();
    steps.differences = {1, 2, 1, {"aten::set_"}, {"aten::relu"}};
    std::vector<ActivationEntry> activations;
    const TimeReport time = assembleTimeReport(
        steps, {{report_format::kImportedFromKey, "step.json"}}, {}, activations);
    const std::string& note = time.metadata.at(report_format::kDifferingStepsKey);
    EXPECT_EQ(note.rfind("1 of 3 other steps ran other operations than the peak's step: ", 0), 0u)
        << note;
    EXPECT_EQ(note.find("memory step"), std::string::npos) << note;
}

TEST(TimeReport, AKernelsRowMovesTheEntriesAfterItAndItsActivationsAreItsRows) {
    RecordedSteps steps = threeTimedSteps();
    steps.operations[0].name = "Torch-Compiled Region: 0/0";
    CompiledKernelSite site;
    site.compile_id = "0/0";
    site.kernel = "cpp_fused_gelu_0";
    steps.kernel_sites = {site};
    steps.kernel_operations = {0};
    steps.compilations = {compilationAt(5)};  // before the session's steps: with provenance
    for (size_t k = 0; k < 3; ++k) {
        steps.timed_kernels.ms[k] = {0.25};
        steps.timed_kernels.calls[k] = {1};
    }
    std::vector<ActivationEntry> activations{{"cpp_fused_gelu_0", 64, {}, "", 1},
                                             {"aten::relu", 32, {}, "", 2}};
    const TimeReport time = assembleTimeReport(steps, {}, {0, -1}, activations);
    ASSERT_EQ(time.entries.size(), 3u);
    EXPECT_EQ(time.entries[1].operation_name, "cpp_fused_gelu_0");
    EXPECT_EQ(time.entries[2].operation_name, "aten::relu");
    EXPECT_EQ(activations[0].operation_number, 2);  // the kernel's row
    EXPECT_EQ(activations[1].operation_number, 3);  // moved by it
}

TEST(TimeReport, EveryObservedStepsCollectivesAreListedByStep) {
    RecordedSteps steps = threeTimedSteps();
    steps.collectives = {{"gloo:all_reduce", 1.0, 2.0, 4096, {}, 0, {}}};
    steps.timed_collectives[1] = {{"gloo:all_reduce", 1.5, 2.5, 4096, {}, 0, {}}};
    const std::vector<StepCollective> listed = stepCollectives(steps);
    ASSERT_EQ(listed.size(), 2u);
    EXPECT_EQ(listed[0].step, 1);
    EXPECT_EQ(listed[1].step, 3);
    EXPECT_EQ(listed[1].bytes, 4096);
}

// An operation's part of the step is kept with its entry: the optimizer's and the clipping's
// operations are not forward time, a recomputation's time is backward time.
TEST(TimeReport, EachEntryKeepsThePartOfTheStepItRanIn) {
    RecordedSteps steps = threeTimedSteps();
    const auto record = [](const char* name, OperationRecord::Part part) {
        OperationRecord r;
        r.name = name;
        r.part = part;
        return r;
    };
    steps.operations.push_back(record("aten::linalg_vector_norm", StepPart::AfterBackward));
    steps.operations.push_back(record("aten::addcdiv_", StepPart::Optimizer));
    steps.operations.push_back(record("aten::linear", StepPart::Recomputed));
    for (auto& step : steps.timed) {
        step.push_back(timing(0.25));
        step.push_back(timing(2.0));
        step.push_back(OperationTiming{0.0, 0.75, true, true});
    }
    std::vector<ActivationEntry> activations;
    const TimeReport time = assembleTimeReport(steps, {}, {}, activations);
    ASSERT_EQ(time.entries.size(), 5u);
    EXPECT_EQ(time.entries[0].part, StepPart::Forward);
    EXPECT_EQ(time.entries[2].part, StepPart::AfterBackward);
    EXPECT_EQ(time.entries[3].part, StepPart::Optimizer);
    EXPECT_EQ(time.entries[4].part, StepPart::Recomputed);
    const PartTimes times = time.partTimes();
    EXPECT_DOUBLE_EQ(times.forward_ms, 3.0 + 0.4);  // the linear's and the relu's medians
    EXPECT_DOUBLE_EQ(times.after_backward_ms, 0.25);
    EXPECT_DOUBLE_EQ(times.optimizer_ms, 2.0);
    EXPECT_DOUBLE_EQ(times.backward_ms, 0.75);
    EXPECT_EQ(times.optimizer_operations, 1);
    EXPECT_EQ(times.after_backward_operations, 1);
    EXPECT_DOUBLE_EQ(times.sum(), 3.4 + 0.25 + 2.0 + 0.75);
}

// A step that ran no operation misses no frames: no note of an archive without debug information.
TEST(TimeReport, AStepOfNoOperationsHasNoFramesNote) {
    RecordedSteps steps;
    steps.memory_step_ms = 1.0;
    std::vector<ActivationEntry> activations;
    const TimeReport time = assembleTimeReport(steps, {}, {}, activations);
    EXPECT_TRUE(time.entries.empty());
    EXPECT_EQ(time.metadata.count(report_format::kFramesNoteKey), 0u);
}
