// SPDX-License-Identifier: Apache-2.0
// The memory step at another batch size, from the step recorded at two (advise's largest batch
// within a budget): each sample's total on its line over the batch, so that the peak moves to
// where the step's growing part is once the batch is large enough.
#include <gtest/gtest.h>

#include "trainscope/memory_curve.h"

using namespace trainscope;

namespace {

// A step of weights (100 B) whose forward saves two activations of `per_sample` bytes a sample
// each, freed by its backward, and whose optimizer then makes 50 B of temporaries.
MemoryCurve stepAtBatch(int64_t batch, int64_t per_sample = 10) {
    const int64_t activation = per_sample * batch;
    TimelineData data;
    int64_t time = 0;
    for (int64_t total : {int64_t{100}, 100 + activation, 100 + 2 * activation, int64_t{100},
                          int64_t{150}, int64_t{100}})
        data.memory.push_back(MemorySample{time += 10, total, total, total});
    return MemoryCurve(std::move(data), {});
}

}  // namespace

TEST(MemoryCurveAtBatch, ThePeakMovesToTheActivationsAsTheBatchGrows) {
    const MemoryCurve two = stepAtBatch(2), four = stepAtBatch(4);
    EXPECT_EQ(two.highest(), 150);  // the optimizer's temporaries
    EXPECT_EQ(four.highest(), 180);
    EXPECT_EQ(two.highestAtBatch(four, 2, 4, 2), 150);
    EXPECT_EQ(two.highestAtBatch(four, 2, 4, 1), 150);
    EXPECT_EQ(two.highestAtBatch(four, 2, 4, 8), 100 + 2 * 80);
    EXPECT_EQ(four.highestAtBatch(two, 4, 2, 8), 100 + 2 * 80);  // either way round
}

TEST(MemoryCurveAtBatch, TheLargestBatchWithinABudgetAndTheOneAboveIt) {
    const MemoryCurve two = stepAtBatch(2), four = stepAtBatch(4);
    // 100 + 20 B: batch 5 reaches 200 B exactly, 6 is above it. Scaling what is above the
    // lasting part of the batch-2 peak (the optimizer's 50 B, as if it grew) would say 4.
    EXPECT_EQ(two.largestBatchWithin(four, 2, 4, 200), 5);
    EXPECT_EQ(two.highestAtBatch(four, 2, 4, 6), 220);
    EXPECT_EQ(two.largestBatchWithin(four, 2, 4, 219), 5);
    EXPECT_EQ(two.largestBatchWithin(four, 2, 4, 220), 6);
    // Below the optimizer's 150 B no batch fits: 0.
    EXPECT_EQ(two.largestBatchWithin(four, 2, 4, 140), 0);
}

TEST(MemoryCurveAtBatch, StepsThatDoNotPairOrDoNotGrowPredictNothing) {
    const MemoryCurve two = stepAtBatch(2);
    TimelineData other;
    other.memory = {MemorySample{10, 100, 100, 100}, MemorySample{20, 50, 50, 50}};
    const MemoryCurve fewer(std::move(other), {});
    EXPECT_EQ(two.highestAtBatch(fewer, 2, 4, 8), std::nullopt);
    // The same number of samples, an allocation where the other freed: not the same step.
    TimelineData swapped;
    int64_t time = 0;
    for (int64_t total : {100, 120, 110, 100, 150, 100})
        swapped.memory.push_back(MemorySample{time += 10, total, total, total});
    EXPECT_EQ(two.highestAtBatch(MemoryCurve(std::move(swapped), {}), 2, 4, 8), std::nullopt);
    EXPECT_EQ(two.highestAtBatch(stepAtBatch(2), 2, 2, 8), std::nullopt);  // one batch size
    // Nothing grows with the batch: no largest batch to speak of.
    EXPECT_EQ(stepAtBatch(2, 0).largestBatchWithin(stepAtBatch(4, 0), 2, 4, 1000), std::nullopt);
}

namespace {

// Two top-level calls, a convolution [100, 200] that allocates its output (`per_sample` a
// sample) and then, sample by sample, a 30-byte column buffer freed before the next, and a
// loss [300, 400]: the steps at two batch sizes allocate a different number of times.
MemoryCurve convolutionAtBatch(int64_t batch, int64_t per_sample = 10) {
    TimelineData data;
    data.strings = {"aten::convolution", "aten::mse_loss"};
    data.steps.push_back(TimelineStep{1, 0, 1000});
    TimelineLane lane;
    lane.spans = {TimelineSpan{100, 200, -1, -1, 0}, TimelineSpan{300, 400, -1, -1, 1}};
    lane.depth_begin = {0, 2};
    data.lanes.push_back(lane);
    int64_t total = 100;
    data.memory.push_back(MemorySample{10, total, total, total});
    total += per_sample * batch;
    data.memory.push_back(MemorySample{110, total, total, total});
    for (int64_t sample = 0; sample < batch; ++sample) {
        data.memory.push_back(MemorySample{120 + 2 * sample, total + 30, 0, 0});
        data.memory.push_back(MemorySample{121 + 2 * sample, total, 0, 0});
    }
    data.memory.push_back(MemorySample{350, total + 5, 0, 0});
    data.memory.push_back(MemorySample{360, total, 0, 0});
    return MemoryCurve(std::move(data), {});
}

}  // namespace

TEST(MemoryCurveAtBatch, StepsThatAllocateMoreOftenAtALargerBatchPairCallByCall) {
    const MemoryCurve four = convolutionAtBatch(4), eight = convolutionAtBatch(8);
    // Within the convolution: its output and one column buffer.
    EXPECT_EQ(four.highestAtBatch(eight, 4, 8, 4), 100 + 40 + 30);
    EXPECT_EQ(four.highestAtBatch(eight, 4, 8, 100), 100 + 1000 + 30);
    EXPECT_EQ(four.largestBatchWithin(eight, 4, 8, 1130), 100);
    // Other top-level calls: not the same step.
    TimelineData other;
    other.strings = {"aten::linear"};
    other.steps.push_back(TimelineStep{1, 0, 1000});
    TimelineLane lane;
    lane.spans = {TimelineSpan{100, 200, -1, -1, 0}};
    lane.depth_begin = {0, 1};
    other.lanes.push_back(lane);
    other.memory = {MemorySample{10, 100, 0, 0}, MemorySample{110, 190, 0, 0}};
    EXPECT_EQ(four.highestAtBatch(MemoryCurve(std::move(other), {}), 4, 8, 16), std::nullopt);
}
