// SPDX-License-Identifier: Apache-2.0
// The run time report from timed steps with known times: each operation's median and spread
// over the steps, and steps that ran other operations than the memory step matched by what
// each call is (analysis/step_matching.h), never by its position.
#include <gtest/gtest.h>

#include "analysis/median_times.h"
#include "analysis/step_matching.h"
#include "records/operation_records.h"
#include "records/stack_traces.h"

using namespace trainscope;

namespace {

using Part = OperationRecord::Part;

OperationRecord call(const char* name, double forward_ms, Part part = Part::Forward,
                     double backward_ms = 0.0) {
    OperationRecord record;
    record.name = name;
    record.forward_ms = forward_ms;
    record.backward_ms = backward_ms;
    record.has_backward = backward_ms > 0;
    record.part = part;
    return record;
}

}  // namespace

TEST(StepTiming, EachOperationsMedianAndSpreadAreOverTheSteps) {
    const std::vector<OperationRecord> memory_step{call("aten::linear", 9, Part::Forward, 9),
                                                   call("aten::relu", 9)};
    const std::vector<std::vector<OperationTiming>> steps{
        timingsOf({call("aten::linear", 1.0, Part::Forward, 4.0), call("aten::relu", 0.5)}),
        timingsOf({call("aten::linear", 3.0, Part::Forward, 2.0), call("aten::relu", 0.1)}),
        timingsOf({call("aten::linear", 2.0, Part::Forward, 6.0), call("aten::relu", 0.3)})};
    const TimeReport report = medianTimes(memory_step, StackTraces{}, {"fc", ""}, steps,
                                          std::vector<double>{10.0, 30.0, 20.0});
    ASSERT_EQ(report.entries.size(), 2u);
    EXPECT_EQ(report.entries[0].forward_ms, 2.0);
    EXPECT_EQ(report.entries[0].backward_ms, 4.0);
    EXPECT_EQ(report.entries[0].forward_spread.min_ms, 1.0);
    EXPECT_EQ(report.entries[0].forward_spread.max_ms, 3.0);
    EXPECT_EQ(report.entries[0].module_path, "fc");
    EXPECT_EQ(report.entries[1].forward_ms, 0.3);
    EXPECT_FALSE(report.entries[1].backward_ms.has_value());
    EXPECT_EQ(report.iteration_ms, 20.0);
    EXPECT_EQ(report.iteration_spread.min_ms, 10.0);
    EXPECT_EQ(report.iteration_spread.max_ms, 30.0);
}

TEST(StepTiming, AStepThatRanOtherOperationsIsMatchedByWhatEachCallIs) {
    // The memory step: two linears and the optimizer's add. The timed step ran an extra call
    // first (a batch arriving through other calls), the linears in the same order, and no add.
    const std::vector<OperationRecord> memory_step{call("aten::linear", 9), call("aten::linear", 9),
                                                   call("aten::add_", 9, Part::Optimizer)};
    const StepMatch match =
        matchStep(memory_step,
                  {call("aten::set_", 0.7), call("aten::linear", 1.0), call("aten::linear", 2.0)});
    EXPECT_FALSE(match.same());
    EXPECT_EQ(match.unmatched, 1);
    EXPECT_EQ(match.missing, 1);
    EXPECT_EQ(match.unmatched_names, std::vector<std::string>{"aten::set_"});
    EXPECT_EQ(match.missing_names, std::vector<std::string>{"aten::add_"});
    ASSERT_EQ(match.aligned.size(), 3u);
    EXPECT_EQ(match.aligned[0].forward_ms, 1.0);  // the first linear is the first linear
    EXPECT_EQ(match.aligned[1].forward_ms, 2.0);
    EXPECT_FALSE(match.aligned[2].ran);
    // The add is timed over the steps that ran it, and not timed when none did: the memory
    // step's own time holds the meter's cost and what compiled in it.
    const StepMatch same =
        matchStep(memory_step, {call("aten::linear", 3.0), call("aten::linear", 4.0),
                                call("aten::add_", 0.2, Part::Optimizer)});
    EXPECT_TRUE(same.same());
    const TimeReport report =
        medianTimes(memory_step, StackTraces{}, {}, {match.aligned, same.aligned},
                    std::vector<double>{5.0, 6.0});
    EXPECT_EQ(report.entries[0].forward_ms, 2.0);  // the median of 1 and 3
    EXPECT_EQ(report.entries[2].forward_ms, 0.2);
    std::vector<std::string> not_timed;
    const TimeReport alone = medianTimes(memory_step, StackTraces{}, {}, {match.aligned},
                                         std::vector<double>{5.0}, &not_timed);
    EXPECT_EQ(alone.entries[2].forward_ms, 0.0);
    EXPECT_EQ(not_timed, std::vector<std::string>{"aten::add_"});
    not_timed.clear();
    medianTimes(memory_step, StackTraces{}, {}, {match.aligned, same.aligned},
                std::vector<double>{5.0, 6.0}, &not_timed);
    EXPECT_TRUE(not_timed.empty());
}

TEST(StepTiming, ATimedStepsPartsAreNotCompared) {
    // Gradient accumulation: without the module hooks of the memory step, a timed step tags its
    // second micro-batch's forward as after the backward pass. It is the same step.
    const std::vector<OperationRecord> memory_step{call("aten::linear", 9), call("aten::linear", 9),
                                                   call("aten::add_", 9, Part::Optimizer)};
    const StepMatch match = matchStep(
        memory_step, {call("aten::linear", 1.0), call("aten::linear", 2.0, Part::AfterBackward),
                      call("aten::add_", 3.0, Part::Optimizer)});
    EXPECT_TRUE(match.same());
    EXPECT_EQ(match.aligned[1].forward_ms, 2.0);
}
