// SPDX-License-Identifier: Apache-2.0
// The memory step's analysis from a meter's record made by hand (records/memory_record.h): which
// blocks are activations, what was alive at the peak, and the memory report, with no LibTorch.
#include <gtest/gtest.h>

#include "analysis/memory_report.h"
#include "analysis/peak_breakdown.h"
#include "trainscope/report_format.h"

using namespace trainscope;

namespace {

// Addresses that stand for blocks: only their identity matters.
char g_blocks[16];
void* block(int i) {
    return &g_blocks[i];
}

MemoryEvent allocation(int b, int64_t bytes, AllocationPhase phase, int operation = -1) {
    MemoryEvent event;
    event.ptr = block(b);
    event.bytes = bytes;
    event.phase = phase;
    event.operation = operation;
    return event;
}

MemoryEvent freeOf(int b, int64_t bytes) {
    MemoryEvent event;
    event.ptr = block(b);
    event.bytes = -bytes;
    return event;
}

// A step over a weight (block 0, 1000 B, alive before it): the forward's two operations
// allocate 100 B (block 1, op 0) and 200 B (block 2, op 1) and a 50 B temporary (block 3, op 1,
// freed within the forward); the backward frees block 2 and allocates the weight's gradient
// (block 4, 1000 B), then frees block 1; the peak (2300 B) is reached at the gradient.
MemoryRecord oneStep() {
    MemoryRecord record;
    record.live_at_start.push_back(
        {block(0), TrackedBlock{1000, AllocationPhase::BeforeIteration}});
    record.micro_batches.push_back({0, 0, false});
    record.events.push_back(allocation(1, 100, AllocationPhase::Forward, 0));
    record.events.push_back(allocation(2, 200, AllocationPhase::Forward, 1));
    record.events.push_back(allocation(3, 50, AllocationPhase::Forward, 1));
    record.events.push_back(freeOf(3, 50));
    record.micro_batches.back().backward = record.events.size();
    record.micro_batches.back().backward_began = true;
    record.events.push_back(allocation(4, 1000, AllocationPhase::Backward));
    record.events.push_back(freeOf(2, 200));
    record.events.push_back(freeOf(1, 100));
    record.events_at_peak = 5;  // after the gradient's allocation: 1000 + 300 + 1000
    record.peak_bytes = 2300;
    return record;
}

// The sources of a memory report of `record`, the step's gradients unsampled.
const GradientBlocks kNoGradients;
const std::map<std::string, int64_t> kNoGradientBytes;
MemoryStepSources sourcesOf(const MemoryRecord& record) {
    MemoryStepSources sources;
    sources.memory = &record;
    sources.gradient_blocks = &kNoGradients;
    sources.gradient_bytes = &kNoGradientBytes;
    return sources;
}

}  // namespace

TEST(MemoryAnalysis, ActivationsAreTheForwardsBlocksStillAliveWhenItsBackwardBegins) {
    const MemoryRecord record = oneStep();
    EXPECT_EQ(activationEvents(record), (std::unordered_set<int64_t>{0, 1}));
}

TEST(MemoryAnalysis, TheGradientABackwardBeginsFromIsNoActivation) {
    MemoryRecord record = oneStep();
    record.backward_roots.insert(1);
    EXPECT_EQ(activationEvents(record), (std::unordered_set<int64_t>{0}));
}

TEST(MemoryAnalysis, EachMicroBatchsActivationsAreItsOwnForwardsBlocks) {
    MemoryRecord record;
    record.micro_batches.push_back({0, 0, false});
    record.events.push_back(allocation(1, 100, AllocationPhase::Forward, 0));
    record.micro_batches.back().backward = 1;
    record.micro_batches.back().backward_began = true;
    record.events.push_back(freeOf(1, 100));
    record.micro_batches.push_back({record.events.size(), 0, false});
    record.events.push_back(allocation(2, 300, AllocationPhase::Forward, 1));
    // A forward without backward (evaluation) keeps no activations.
    EXPECT_EQ(activationEvents(record), (std::unordered_set<int64_t>{0}));
    record.micro_batches.back().backward = record.events.size();
    record.micro_batches.back().backward_began = true;
    EXPECT_EQ(activationEvents(record), (std::unordered_set<int64_t>{0, 2}));
}

TEST(MemoryAnalysis, ThePeakIsBrokenDownByKindAndModule) {
    const MemoryRecord record = oneStep();
    ParameterBlocks parameters{{block(0), {ParameterBlock::Kind::Weight, "fc"}},
                               {block(4), {ParameterBlock::Kind::Gradient, "fc"}}};
    const PeakAnalysis peak = analyzePeak(record, parameters, GradientBlocks{}, {"fc", "act"}, {});
    EXPECT_EQ(peak.breakdown.weights, 1000);
    EXPECT_EQ(peak.breakdown.gradients, 1000);
    EXPECT_EQ(peak.breakdown.activations, 300);
    EXPECT_EQ(peak.breakdown.optimizer_state, 0);
    EXPECT_EQ(peak.breakdown.other, 0);
    EXPECT_EQ(peak.breakdown.total(), record.peak_bytes);
    std::map<std::pair<std::string, std::string>, int64_t> by_module;
    for (const ModulePeakEntry& entry : peak.by_module)
        by_module[{entry.module_path, entry.kind}] = entry.size_bytes;
    EXPECT_EQ(by_module.at({"fc", "activations"}), 100);
    EXPECT_EQ(by_module.at({"act", "activations"}), 200);
    EXPECT_EQ(by_module.at({"fc", "weights"}), 1000);
}

TEST(MemoryAnalysis, ABlockAtAParametersAddressThatDidNotOutliveTheStepIsNotTheParameters) {
    // The gradient's address held another block at the peak, freed before the step ended.
    MemoryRecord record = oneStep();
    ParameterBlocks parameters{{block(2), {ParameterBlock::Kind::Gradient, "fc"}}};
    const PeakAnalysis peak = analyzePeak(record, parameters, GradientBlocks{}, {"fc", "act"}, {});
    EXPECT_EQ(peak.breakdown.gradients, 0);
    EXPECT_EQ(peak.breakdown.activations, 300);
}

TEST(MemoryAnalysis, TheMemoryReportNamesEachWeightAndActivationByItsOperation) {
    const MemoryRecord record = oneStep();
    RecordedSteps steps;
    const StackFrame line{"train.py", 12};
    const int trace = steps.traces.add({line});
    OperationRecord linear;
    linear.name = "aten::linear";
    linear.module_path = "fc";
    linear.trace = trace;
    linear.weights_read = {0};
    OperationRecord gelu;
    gelu.name = "aten::gelu";
    gelu.module_path = "act";
    steps.operations = {linear, gelu};
    MemoryStepSources sources = sourcesOf(record);
    ObservedParameter weight;
    weight.name = "fc.weight";
    weight.module_path = "fc";
    weight.weight = {block(0), 1000};
    weight.gradient = {block(4), 1000};
    sources.parameters = {weight};
    sources.metadata = {{"model", "hand-made"}};

    const MemoryStepReport result = assembleMemoryReport(steps, sources);
    const MemoryReport& report = result.report;
    ASSERT_EQ(report.weights.size(), 1u);
    EXPECT_EQ(report.weights[0].name, "fc.weight");
    EXPECT_EQ(report.weights[0].grad_size_bytes, 1000);
    ASSERT_EQ(report.weights[0].frames.size(), 1u);  // the first operation that read it
    EXPECT_EQ(report.weights[0].frames[0].line_number, 12);
    ASSERT_EQ(report.activations.size(), 2u);
    EXPECT_EQ(report.activations[0].operation_name, "aten::linear");
    EXPECT_EQ(report.activations[0].size_bytes, 100);
    EXPECT_EQ(report.activations[0].operation_number, 1);
    EXPECT_EQ(report.activations[1].operation_name, "aten::gelu");
    EXPECT_EQ(report.activations[1].size_bytes, 200);
    EXPECT_EQ(result.activation_kernels, (std::vector<int>{-1, -1}));
    EXPECT_EQ(report.peak_usage_bytes, 2300);
    EXPECT_EQ(report.peak_breakdown->total(), 2300);
    EXPECT_EQ(report.metadata.at("model"), "hand-made");
    EXPECT_EQ(steps.operation_modules, (std::vector<std::string>{"fc", "act"}));
    EXPECT_TRUE(steps.operations[0].weights_read.empty());  // read once
}

TEST(MemoryAnalysis, TheAllocatorsPeakBeyondTheBlocksSeenIsOther) {
    const MemoryRecord record = oneStep();
    RecordedSteps steps;
    steps.operations.resize(2);
    MemoryStepSources sources = sourcesOf(record);
    sources.allocator_peak = 2300 + 512;
    const MemoryReport report = assembleMemoryReport(steps, sources).report;
    EXPECT_EQ(report.peak_usage_bytes, 2812);
    EXPECT_EQ(report.peak_breakdown->total(), 2812);
    EXPECT_EQ(report.peak_breakdown->other, 1000 + 1000 + 512);  // no parameters were named
}

TEST(MemoryAnalysis, AReportSaysWhatItLacks) {
    MemoryRecord record = oneStep();
    record.displaced = true;
    RecordedSteps steps;  // no operation on the observing thread
    const MemoryReport report = assembleMemoryReport(steps, sourcesOf(record)).report;
    const std::string& note = report.metadata.at(report_format::kMemoryNoteKey);
    EXPECT_EQ(note.rfind("no step ran on the observing thread: the memory step ran no operation "
                         "on the thread that observes the steps",
                         0),
              0u)
        << note;
    EXPECT_NE(note.find("another profiler (torch's own)"), std::string::npos);
}

TEST(MemoryAnalysis, ShardedParametersAndUnreadableOnesAreSaid) {
    const MemoryRecord record = oneStep();
    RecordedSteps steps;
    steps.operations.resize(2);
    MemoryStepSources sources = sourcesOf(record);
    ObservedParameter shard;  // this rank's half of a 2000-byte weight
    shard.name = "fc.weight";
    shard.weight = {block(0), 1000};
    shard.whole_bytes = 2000;
    shard.layout = "Shard(dim=0) over 2 ranks";
    ObservedParameter whole;
    whole.name = "fc.bias";
    whole.weight = {block(5), 8};
    ObservedParameter unread;
    unread.name = "odd.weight";
    unread.unreadable = "a Strange whose storage cannot be read";
    sources.parameters = {shard, whole, unread};
    const MemoryReport report = assembleMemoryReport(steps, sources).report;
    EXPECT_EQ(report.metadata.at(report_format::kShardingKey),
              "1 of the 3 parameters sharded (Shard(dim=0) over 2 ranks): this rank holds 1000 "
              "of their 2000 bytes");
    EXPECT_EQ(report.weights[0].whole_bytes, 2000);
    EXPECT_EQ(report.weights[1].whole_bytes, 0);
    const std::string& note = report.metadata.at(report_format::kMemoryNoteKey);
    EXPECT_NE(note.find("could not be read are not counted"), std::string::npos) << note;
    EXPECT_NE(note.find("odd.weight (a Strange whose storage cannot be read)"), std::string::npos);
}

TEST(MemoryAnalysis, ABlockFreedWhereTheMeterDidNotSeeItIsOtherAtThePeakAndSaid) {
    // A 300-byte block freed on a thread the meter does not reach: its address holds a new
    // 100-byte block, and the meter's total (what the peak is) still counts the old one.
    MemoryRecord record;
    MemoryEvent first;
    first.ptr = block(7);
    first.bytes = 300;
    MemoryEvent again = first;
    again.bytes = 100;
    record.events.push_back(first);
    record.events.push_back(again);
    record.peak_bytes = 400;
    record.events_at_peak = 2;
    RecordedSteps steps;
    steps.operations.resize(1);
    const MemoryReport report = assembleMemoryReport(steps, sourcesOf(record)).report;
    EXPECT_EQ(report.peak_breakdown->total(), 400);
    EXPECT_EQ(report.peak_breakdown->other, 400);
    EXPECT_NE(
        report.metadata.at(report_format::kMemoryNoteKey).find("300 bytes of blocks were freed"),
        std::string::npos);
}
