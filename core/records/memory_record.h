// SPDX-License-Identifier: Apache-2.0
// What the memory meter records of the memory step, as plain data: the blocks alive when it
// began, every allocation and free since, where the peak was first reached, and where each part
// of the step began. Analysis replays it (core/analysis/), never the meter or c10.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "trainscope/chunked_log.h"

namespace trainscope {

// When a block was allocated.
enum class AllocationPhase : uint8_t { BeforeIteration, Forward, Backward, Step };

// A block alive in the allocator, with when it was allocated. (Not the timeline's LiveBlock:
// one name for two classes in one namespace is one class to the linker.)
struct TrackedBlock {
    int64_t bytes = 0;
    AllocationPhase phase = AllocationPhase::BeforeIteration;
    int operation = -1;  // Forward: the top-level operation index (-1: none)
    int64_t event = -1;  // index of its allocation in the record's events; -1: before the step
};

// One allocation (bytes > 0) or free (bytes < 0) of the memory step.
struct MemoryEvent {
    int64_t time = 0;  // timelineTicks(); 0 when no timeline is recorded
    void* ptr = nullptr;
    int64_t bytes = 0;
    int64_t total_allocated = 0;  // after it
    int64_t total_reserved = 0;   // what the allocator holds (CUDA); allocated on the CPU
    // The outermost timeline event open on the allocating thread when it happened, as
    // (thread index << 32 | event index), or -1 (records/timeline_record.h).
    int64_t outer_event = -1;
    AllocationPhase phase = AllocationPhase::Forward;  // an allocation's tags (TrackedBlock)
    // An allocation freed within the record, or that free: the meter's own table of live
    // blocks skips both; a replay of the record applies them.
    bool paired = false;
    int operation = -1;
};

// Applies event `index` of a record to a table of live blocks (an allocation adds the block with
// its tags, a free removes it): how a record is replayed, wherever it is.
template <typename LiveTable>
void applyEvent(LiveTable& live, const MemoryEvent& event, size_t index) {
    if (event.bytes > 0) {
        live[event.ptr] =
            TrackedBlock{event.bytes, event.phase, event.operation, static_cast<int64_t>(index)};
    } else {
        live.erase(event.ptr);
    }
}

struct MemoryRecord {
    std::vector<std::pair<void*, TrackedBlock>> live_at_start;
    ChunkedLog<MemoryEvent> events;
    // The number of events applied when the peak was first reached (0: the step never rose
    // above its start), and the peak's bytes.
    size_t events_at_peak = 0;
    int64_t peak_bytes = 0;
    // Per micro-batch: the number of events when its forward began and when its backward began
    // (a forward without backward keeps no activations).
    struct MicroBatch {
        size_t forward = 0;
        size_t backward = 0;
        bool backward_began = false;
    };
    std::vector<MicroBatch> micro_batches;
    // The allocations of the gradients each backward pass began from (the loss's): no
    // activations.
    std::unordered_set<int64_t> backward_roots;
    // When the step began and ended, in timelineTicks(), and where each part of it began
    // ("forward", "backward", "optimizer"; a step with accumulation repeats the first two).
    struct PhaseMark {
        const char* name;
        int64_t ticks;
    };
    std::vector<PhaseMark> phase_marks;
    int64_t start_ticks = 0;
    int64_t end_ticks = 0;
    // Another reporter (torch's own profiler) took c10's allocation reports while the meter
    // ran: the allocations it took are missing.
    bool displaced = false;
    // The totals are the allocator's own (an imported trace's): a block allocated where another
    // is alive means that one's free is missing from the events, and the totals never counted
    // it after it; the meter's totals do count such a block.
    bool allocator_totals = false;
};

// A gradient block of the step: its address and the event that allocated it (-1: before the
// step), with the module of its parameter.
using GradientBlocks = std::map<std::pair<const void*, int64_t>, std::string>;

}  // namespace trainscope
