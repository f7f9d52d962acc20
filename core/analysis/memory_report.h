// SPDX-License-Identifier: Apache-2.0
// The memory report of the memory step, from its records: each parameter's weight, gradient and
// optimizer state; the activations by the operation, or the compiled kernel, that allocated
// them; the peak and what was alive at it, by kind and by module.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/module_paths.h"
#include "records/memory_record.h"
#include "records/recorded_steps.h"
#include "records/timeline_record.h"
#include "trainscope/reports.h"
#include "trainscope/session.h"

namespace trainscope {

struct MemoryStepSources {
    const MemoryRecord* memory = nullptr;      // the meter's record of the step
    const TimelineRecord* timeline = nullptr;  // its events, where recorded: FSDP2's scopes
    const std::vector<CollectiveRecord>* collectives = nullptr;  // the step's, with their bytes
    std::vector<ObservedParameter> parameters;                   // as they are at the step's end
    // The gradients as the step made them (a gradient set to None before the step ended is
    // the one it made), and the largest of each parameter, by the parameter's name.
    const GradientBlocks* gradient_blocks = nullptr;
    const std::map<std::string, int64_t>* gradient_bytes = nullptr;
    // Archive runs: resolves each operation's TorchScript module hierarchy to a module path.
    const ModulePaths* module_tree = nullptr;
    // CUDA: the caching allocator's own peak, which counts blocks the meter did not see (older
    // than it, or allocated on threads its hook does not reach): the excess is "other".
    std::optional<int64_t> allocator_peak;
    RunMetadata metadata;  // the report's; notes on what it lacks are added
};

struct MemoryStepReport {
    MemoryReport report;
    // For each activation entry, the kernel site it names (-1: its operation): the run time
    // report numbers such an entry by its kernel's row (analysis/time_report.h).
    std::vector<int> activation_kernels;
};

// Also sets each of `steps.operations`' module path (from the tree, or as recorded) and
// `steps.operation_modules`, and frees their weights_read once read.
MemoryStepReport assembleMemoryReport(RecordedSteps& steps, const MemoryStepSources& sources);

}  // namespace trainscope
