// SPDX-License-Identifier: Apache-2.0
// The blocks that FSDP2 (torch.distributed.fsdp.fully_shard) allocates for a unit's parameters
// while it computes with them, told from the step's records: FSDP2 names each unit's work with
// a scope of its own ("FSDP::all_gather_copy_out (blocks.0)"), and a block allocated inside one
// on the same thread is that unit's. All-gathered parameters (and the flat all-gather buffer
// they are copied out of) are weights held whole for a while; reduce-scatter buffers belong to
// the gradients. Neither is an activation, though the forward allocates them and the backward
// finds them alive.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "records/memory_record.h"
#include "records/operation_records.h"
#include "records/timeline_record.h"
#include "trainscope/reports.h"

namespace trainscope {

struct FsdpBlock {
    enum class Kind { AllGatherBuffer, UnshardedParameters, ReduceScatter } kind;
    std::string unit;  // the fully_shard'ed module's path ("" for the root)
    int scope = 0;     // which of the step's scopes of its kind it was allocated in
};

// By allocation event of `memory`; empty without a timeline or FSDP2's scopes.
using FsdpBlocks = std::unordered_map<int64_t, FsdpBlock>;

struct FsdpStep {
    FsdpBlocks blocks;
    std::vector<FsdpUnitEntry> units;  // without the parts that need the weights and the peak
};
// `collectives`: the observer's records of the step's collectives (their bytes), if any.
FsdpStep fsdpStep(const MemoryRecord& memory, const TimelineRecord* timeline,
                  const std::vector<CollectiveRecord>* collectives = nullptr);

// Completes `units` with each unit's weight entries (a parameter belongs to the unit of the
// longest path it begins with) and what of it was alive at the peak (by unit).
void addUnitWeights(std::vector<FsdpUnitEntry>& units, const std::vector<WeightEntry>& weights,
                    const std::unordered_map<std::string, int64_t>& unsharded_at_peak);

}  // namespace trainscope
