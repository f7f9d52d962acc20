// SPDX-License-Identifier: Apache-2.0
// What a session records of its observed steps, as plain data: the memory step's operations
// (with their frames, modules and collectives), each timed step's times, torch.compile's
// compilations and kernels. The session fills it as the steps run; analysis makes the reports
// from it (analysis/memory_report.h, analysis/time_report.h).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "records/operation_records.h"
#include "records/stack_traces.h"
#include "trainscope/reports.h"

namespace trainscope {

// An operation's times in one step: all a timed step keeps of its records.
struct OperationTiming {
    double forward_ms = 0.0;
    double backward_ms = 0.0;
    bool has_backward = false;
    bool ran = false;  // false: the step did not run the operation
    double cpu_forward_ms = 0.0, cpu_backward_ms = 0.0;  // as OperationRecord's
};

// What the timed steps' kernels took: `ms[k][s]` and `calls[k][s]` for site s in timed step k
// (a site that a step did not run may be missing from its row).
struct KernelSteps {
    std::vector<std::vector<double>> ms;
    std::vector<std::vector<int64_t>> calls;
};

// Timed steps that ran other operations than the memory step (analysis/step_matching.h).
struct StepDifferences {
    int steps = 0;
    int unmatched_calls = 0;     // their calls that matched none of the memory step's operations
    int missing_operations = 0;  // the memory step's operations that they did not run
    std::vector<std::string> unmatched_names, missing_names;  // each once, as met
};

struct RecordedSteps {
    // The memory step: its top-level operations, their frames, modules and collectives.
    std::vector<OperationRecord> operations;
    // The operations' times are the device's (an imported GPU trace), the CPU's beside them.
    bool device_times = false;
    StackTraces traces;
    std::vector<std::string> operation_modules;  // operation_modules[i]: operations[i]'s
    std::vector<CollectiveRecord> collectives;
    double memory_step_ms = 0.0;
    // Its blocks by allocation event that a compiled kernel wrote last (the kernel's site).
    std::unordered_map<int64_t, int> kernel_of_block;

    // Every observed step, the memory step first, and torch.compile's compilations.
    std::vector<TimelineStep> steps;
    std::vector<Compilation> compilations;

    // Compiled regions' kernels, and per site the memory step's operation it ran in (its
    // forward, or the backward node of it), or -1: where its row goes.
    std::vector<CompiledKernelSite> kernel_sites;
    std::vector<int> kernel_operations;

    // The timed steps: timed[k][i] is the memory step's operation i as timed step k ran it.
    std::vector<std::vector<OperationTiming>> timed;
    std::vector<std::vector<CollectiveRecord>> timed_collectives;
    std::vector<double> timed_ms;
    KernelSteps timed_kernels;
    StepDifferences differences;
};

}  // namespace trainscope
