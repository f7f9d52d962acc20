// SPDX-License-Identifier: Apache-2.0
// What was allocated at the instant of the peak, by kind and by module, from the memory
// meter's record of the memory step (replayed up to the event that first reached the peak).
// Blocks that outlive the step are recognised by address: a parameter's weight, its gradient
// and its optimizer state; gradients freed before it ended by the allocation the step made
// them with; the rest by when they were allocated.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/fsdp_blocks.h"
#include "records/memory_record.h"
#include "trainscope/reports.h"

namespace trainscope {

// A block that belongs to a parameter, by the address of its storage at the iteration's end.
struct ParameterBlock {
    enum class Kind { Weight, Gradient, OptimizerState } kind;
    std::string module_path;
};
using ParameterBlocks = std::unordered_map<const void*, ParameterBlock>;

struct PeakAnalysis {
    PeakBreakdown breakdown;
    std::vector<ModulePeakEntry> by_module;  // sorted by module path, then kind
    // FSDP2's all-gathered parameters and buffers alive at the peak, by unit.
    std::unordered_map<std::string, int64_t> unsharded_by_unit;
    // Blocks freed before the peak where the meter did not see it, which its total still
    // counts (their addresses were used again): in "other".
    int64_t freed_unseen = 0;
    // FSDP2's collective buffers (an all-gather's flat buffer, a reduce-scatter's input)
    // alive at the peak whose free the meter never saw (they were alive at the step's end, or
    // their addresses were used again after the peak): FSDP2 lets go of them within the step,
    // and c10 frees them where the meter does not reach (Gloo's thread, which may let go of
    // them last). The peak may count them.
    int64_t fsdp_buffers_unseen = 0;
};

// The record's allocation events that are activations: each micro-batch's forward allocations
// still allocated when its backward began (the gradients a backward began from, and FSDP's
// blocks, excepted).
std::unordered_set<int64_t> activationEvents(const MemoryRecord& record,
                                             const FsdpBlocks& fsdp = {});

// `operation_modules[i]`: the module path of top-level operation i of the memory step;
// `kernel_modules`: by allocation event, the module of the compiled kernel that wrote a block
// (in place of its region's); `gradients`: the gradient blocks seen while it ran; `fsdp`: the
// blocks FSDP2 allocated for its units' parameters (weights and gradients of their unit).
PeakAnalysis analyzePeak(const MemoryRecord& memory, const ParameterBlocks& parameters,
                         const GradientBlocks& gradients,
                         const std::vector<std::string>& operation_modules,
                         const std::unordered_map<int64_t, std::string>& kernel_modules,
                         const FsdpBlocks& fsdp = {});

}  // namespace trainscope
