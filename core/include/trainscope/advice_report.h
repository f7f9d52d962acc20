// SPDX-License-Identifier: Apache-2.0
// What-ifs for a step as data, and the advice report file that holds them (PREFIX.advice.sqlite:
// written by `python3 -m trainscope advise`, read by the CLI and the app). Each what-if has the
// peak, activations and step time it predicts and, where it was run (--verify), those measured.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trainscope/overwrite.h"
#include "trainscope/reports.h"

namespace trainscope {

struct StepFigures {
    int64_t peak_bytes = 0;
    int64_t activation_bytes = 0;
    double step_ms = 0.0;
};

// A what-if's step timed in turns with the step as it is, in the same process: the ratio of
// each pair's times (what-if / as it is), their median and range. Where the range holds 1, the
// machine's noise is larger than the difference.
struct StepRatio {
    double median = 1.0;
    double low = 1.0;
    double high = 1.0;
    int pairs = 0;
    bool readable() const { return low > 1.0 || high < 1.0; }
};

struct WhatIf {
    std::string change;  // "GELU -> ReLU", "checkpoint each block"
    std::string target;  // the module path it changes
    StepFigures predicted;
    std::optional<StepFigures> measured;  // none: not run
    std::string why_not;                  // why it was not run
    // The line of the user's code to change for it: the line that builds the module it swaps,
    // the loop that calls the blocks it checkpoints, the line that builds the optimizer it
    // swaps; empty and 0 where none was found.
    std::string source_file;
    int source_line = 0;
    std::optional<StepRatio> step_ratio;  // none: not timed in turns (not run)
    // Whether predicted.step_ms is a prediction: not for the job at another rank count (its
    // communication changes with the ranks) nor for the optimizer's state sharded over ranks.
    bool step_predicted = true;
    // What its prediction leaves out, where it knows (code that a checkpoint runs again in
    // backward): empty where nothing.
    std::string not_predicted = {};
};

struct AdviceReport {
    StepFigures baseline;  // the step as it is
    std::vector<WhatIf> what_ifs;
    std::optional<int64_t> budget_bytes;  // --memory-budget, where one was given
    RunMetadata metadata;
};

// What a what-if does to the step's memory against the step as it is, by its measured figures
// where it was run, else by its predicted ones. A what-if is offered to lower the memory: one
// that raises the peak, or at the same peak the activations, makes the step worse (checkpointing
// blocks whose inputs are larger than what they save, say). The largest batch size within a
// budget (target "the inputs") is meant to use the memory and is never worse.
struct MemoryEffect {
    bool worse = false;
    bool measured = false;    // judged by the measured figures
    int64_t peak_change = 0;  // figures - the step's as it is
    int64_t activation_change = 0;
};
MemoryEffect memoryEffect(const WhatIf& what_if, const StepFigures& baseline);

// Metadata keys of the step as it is.
inline constexpr char kBaselinePeakKey[] = "baseline_peak_bytes";
inline constexpr char kBaselineActivationsKey[] = "baseline_activation_bytes";
inline constexpr char kBaselineStepKey[] = "baseline_step_ms";
inline constexpr char kMemoryBudgetKey[] = "memory_budget_bytes";

void writeAdviceReport(const AdviceReport& report, const std::string& path, Overwrite overwrite);

// Reads an advice report back (untrusted input); throws trainscope::Error.
AdviceReport readAdviceReport(const std::string& path);

// Whether `path` is a regular file with the what-ifs' table.
bool isAdviceReport(const std::string& path);

}  // namespace trainscope
