// SPDX-License-Identifier: Apache-2.0
// FSDP2's blocks told from a step's records made by hand (analysis/fsdp_blocks.h): the scopes
// FSDP2 names its work with, as torch 2.x names them, decide which blocks are a unit's
// all-gathered parameters or reduce-scatter buffers; the peak counts them as weights and
// gradients of their unit, never as activations.
#include <gtest/gtest.h>

#include "analysis/fsdp_blocks.h"
#include "analysis/peak_breakdown.h"

using namespace trainscope;

namespace {

void* address(int n) {
    return reinterpret_cast<void*>(static_cast<uintptr_t>(0x1000 * n));
}

MemoryEvent event(int64_t time, int block, int64_t bytes, int64_t outer_event,
                  AllocationPhase phase = AllocationPhase::Forward) {
    MemoryEvent e;
    e.time = time;
    e.ptr = address(block);
    e.bytes = bytes;
    e.outer_event = outer_event;
    e.phase = phase;
    return e;
}

// One thread, ticks of 1 µs: blocks.0's forward (its gather [10, 20), copied out [20, 30)),
// a scope whose name only begins alike [40, 50), blocks.0's backward prefetch of the root with
// its gather [60, 70), the root's copy-out [70, 80), blocks.0's reduce [90, 100).
TimelineRecord fsdpThread() {
    TimelineRecord record;
    record.clock = TickConversion{0, 0, 1000.0};
    auto thread = std::make_unique<ThreadTimeline>();
    thread->names = {"FSDP::pre_forward (blocks.0)",
                     "FSDP::all_gather (blocks.0)",
                     "FSDP::all_gather_copy_out (blocks.0)",
                     "FSDP::all_gathered_elsewhere (blocks.1)",
                     "FSDP::backward_prefetch for ",
                     "FSDP::all_gather",
                     "FSDP::all_gather_copy_out",
                     "FSDP::post_backward_reduce (blocks.0) [pg=2]"};
    const std::pair<int64_t, int64_t> spans[] = {{5, 35},  {10, 20}, {20, 30}, {40, 50},
                                                 {55, 75}, {60, 70}, {70, 80}, {90, 100}};
    for (uint32_t i = 0; i < 8; ++i)
        thread->events.push_back({spans[i].first, spans[i].second, -1, 0, i, false, true});
    record.threads.push_back(std::move(thread));
    return record;
}

MemoryRecord fsdpMemory() {
    MemoryRecord record;
    record.events.push_back(event(12, 1, 800, 0));  // blocks.0's flat all-gather buffer
    record.events.push_back(event(22, 2, 600, 0));  // its gathered parameters
    record.events.push_back(event(24, 3, 200, 0));
    record.events.push_back(event(28, 1, -800, 0));  // the flat buffer, freed
    record.events.push_back(event(45, 4, 64, 3));    // in a scope that only begins alike
    record.events.push_back(event(62, 5, 40, 4, AllocationPhase::Backward));  // the root's
    record.events.push_back(event(72, 6, 40, 4, AllocationPhase::Backward));
    record.events.push_back(event(85, 2, -600, -1, AllocationPhase::Backward));
    record.events.push_back(event(95, 7, 300, 7, AllocationPhase::Backward));  // reduce-scatter
    record.events.push_back(event(99, 3, -200, -1, AllocationPhase::Backward));
    record.events_at_peak = 9;  // after the reduce-scatter buffer
    record.micro_batches.push_back({});
    record.micro_batches.back().backward_began = true;
    record.micro_batches.back().forward = 0;
    record.micro_batches.back().backward = 5;
    return record;
}

TEST(FsdpBlocks, ScopesNameEachUnitsGatheredParametersAndReduceScatterBuffers) {
    const MemoryRecord memory = fsdpMemory();
    const TimelineRecord timeline = fsdpThread();
    FsdpStep step = fsdpStep(memory, &timeline);
    using Kind = FsdpBlock::Kind;
    ASSERT_EQ(step.blocks.size(), 6u);
    EXPECT_EQ(step.blocks.at(0).kind, Kind::AllGatherBuffer);
    EXPECT_EQ(step.blocks.at(1).kind, Kind::UnshardedParameters);
    EXPECT_EQ(step.blocks.at(1).unit, "blocks.0");
    EXPECT_EQ(step.blocks.count(4), 0u);  // "FSDP::all_gathered_elsewhere" is not FSDP2's
    EXPECT_EQ(step.blocks.at(5).unit, "");
    EXPECT_EQ(step.blocks.at(6).kind, Kind::UnshardedParameters);
    EXPECT_EQ(step.blocks.at(8).kind, Kind::ReduceScatter);
    EXPECT_EQ(step.blocks.at(8).unit, "blocks.0");

    ASSERT_EQ(step.units.size(), 2u);
    const FsdpUnitEntry& block = step.units[0];
    EXPECT_EQ(block.unit, "blocks.0");
    EXPECT_EQ(block.unsharded_bytes, 800);  // 600 + 200, copied out in one scope
    EXPECT_EQ(block.gathers, 1);
    EXPECT_EQ(block.prefetched, 0);
    EXPECT_DOUBLE_EQ(block.gathered_ms, (99 - 22) * 1e-3);  // its last block freed at 99 µs
    EXPECT_EQ(block.reduce_scatter_bytes, 300);
    const FsdpUnitEntry& root = step.units[1];
    EXPECT_EQ(root.unit, "");
    EXPECT_EQ(root.prefetched, 1);
    EXPECT_EQ(root.unsharded_bytes, 40);

    // At the peak: blocks.0's gathered 200 B (600 freed at 85), the root's 80 B as weights of
    // their units, the reduce-scatter buffer as gradients; the forward's 64 B block, alive when
    // the backward began, is an activation.
    const PeakAnalysis peak = analyzePeak(memory, {}, {}, {}, {}, step.blocks);
    EXPECT_EQ(peak.breakdown.weights, 280);
    EXPECT_EQ(peak.breakdown.unsharded_parameters, 280);
    EXPECT_EQ(peak.breakdown.gradients, 300);
    EXPECT_EQ(peak.breakdown.reduce_scatter, 300);
    EXPECT_EQ(peak.breakdown.activations, 64);
    EXPECT_EQ(peak.breakdown.other, 0);
    EXPECT_EQ(peak.unsharded_by_unit.at("blocks.0"), 200);
    EXPECT_EQ(peak.unsharded_by_unit.at(""), 80);
    // The reduce-scatter buffer and the root's all-gather buffer, alive at the peak, were never
    // seen freed (FSDP2 lets go of them within the step: their frees happened where no meter
    // saw them, as on Gloo's worker when the CPU free watch cannot stand in): the peak may count
    // them, and says so. Gathered parameters may outlive a step (the root's are kept): not said.
    EXPECT_EQ(peak.fsdp_buffers_unseen, 300 + 40);
    MemoryRecord freed = fsdpMemory();
    freed.events.push_back(event(120, 7, -300, -1, AllocationPhase::Backward));
    freed.events.push_back(event(121, 5, -40, -1, AllocationPhase::Backward));
    EXPECT_EQ(analyzePeak(freed, {}, {}, {}, {}, step.blocks).fsdp_buffers_unseen, 0);
    // Without the scopes, blocks.0's gathered parameters alive at the backward would be
    // activations.
    EXPECT_EQ(analyzePeak(memory, {}, {}, {}, {}).breakdown.activations, 264);

    auto weight = [](const char* name, int64_t bytes) {
        WeightEntry entry;
        entry.name = name;
        entry.size_bytes = entry.grad_size_bytes = bytes;
        return entry;
    };
    const WeightEntry up = weight("blocks.0.up.weight", 128), head = weight("head.weight", 16),
                      lookalike = weight("blocks.00.weight", 8);
    addUnitWeights(step.units, {up, head, lookalike}, peak.unsharded_by_unit);
    EXPECT_EQ(step.units[0].parameters, 1);
    EXPECT_EQ(step.units[0].sharded_bytes, 128);
    EXPECT_EQ(step.units[0].unsharded_at_peak_bytes, 200);
    EXPECT_EQ(step.units[1].parameters, 2);  // the root holds what no other unit does
    EXPECT_EQ(step.units[1].sharded_bytes, 24);
}

// The backend runs a collective on a thread of its own (Gloo's worker): it is the unit's whose
// all-gather or reduce scope it began in, on whichever thread; its bytes are the observer's
// record of it, the records and the calls paired in start order when their names agree.
TEST(FsdpBlocks, EachUnitsCollectivesWithTheirBytesAndTimes) {
    const MemoryRecord memory = fsdpMemory();
    TimelineRecord timeline = fsdpThread();
    auto worker = std::make_unique<ThreadTimeline>();
    worker->names = {"gloo:all_gather", "gloo:all_reduce"};
    // blocks.0's gather, the root's (prefetched), blocks.0's reduce, the loop's own all-reduce.
    worker->events.push_back({12, 18, -1, 0, 0, false, true});
    worker->events.push_back({61, 69, -1, 0, 0, false, true});
    worker->events.push_back({91, 97, -1, 0, 1, false, true});
    worker->events.push_back({110, 120, -1, 0, 1, false, true});
    timeline.threads.push_back(std::move(worker));
    // As the observer keeps them: in the order they ended (the same, here), times since the
    // step began.
    const std::vector<CollectiveRecord> records = {
        {"gloo:all_gather", 0.012, 0.006, 256, {}, 0, {}},
        {"gloo:all_gather", 0.061, 0.008, 32, {}, 0, {}},
        {"gloo:all_reduce", 0.091, 0.006, 800, {}, 0, {}},
        {"gloo:all_reduce", 0.110, 0.010, 4, {}, 0, {}}};
    const FsdpStep step = fsdpStep(memory, &timeline, &records);
    ASSERT_EQ(step.units.size(), 2u);
    const FsdpUnitEntry &block = step.units[0], &root = step.units[1];
    EXPECT_EQ(block.gathering.name, "gloo:all_gather");
    EXPECT_EQ(block.gathering.count, 1);
    EXPECT_EQ(block.gathering.bytes, 256);
    EXPECT_DOUBLE_EQ(block.gathering.ms, 6e-3);
    EXPECT_EQ(block.reducing.name, "gloo:all_reduce");
    EXPECT_EQ(block.reducing.count, 1);
    EXPECT_EQ(block.reducing.bytes, 800);
    EXPECT_EQ(root.gathering.count, 1);
    EXPECT_EQ(root.gathering.bytes, 32);
    EXPECT_EQ(root.reducing.count, 0);  // the loss's all-reduce is no unit's

    // Records that are not the timeline's calls (one missing): the counts and times stand, the
    // bytes are not known.
    const std::vector<CollectiveRecord> partial(records.begin(), records.begin() + 3);
    const FsdpStep unknown = fsdpStep(memory, &timeline, &partial);
    EXPECT_EQ(unknown.units[0].gathering.count, 1);
    EXPECT_EQ(unknown.units[0].gathering.bytes, -1);
    EXPECT_EQ(unknown.units[0].reducing.bytes, -1);
}

TEST(FsdpBlocks, NothingWithoutATimelineOrFsdpScopes) {
    const MemoryRecord memory = fsdpMemory();
    EXPECT_TRUE(fsdpStep(memory, nullptr).blocks.empty());
    TimelineRecord plain;
    auto thread = std::make_unique<ThreadTimeline>();
    thread->names = {"aten::linear"};
    thread->events.push_back({0, 200, -1, 0, 0, false, false});
    plain.threads.push_back(std::move(thread));
    const FsdpStep step = fsdpStep(memory, &plain);
    EXPECT_TRUE(step.blocks.empty());
    EXPECT_TRUE(step.units.empty());
}

}  // namespace
