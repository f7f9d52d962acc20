// SPDX-License-Identifier: Apache-2.0
// One run's figures as a comparison needs them, read from its memory and run time reports
// (ours or another tool's: a foreign report simply lacks the module paths, spreads and
// operation numbers, and the comparison falls back).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trainscope/comparison.h"
#include "trainscope/reports.h"

namespace trainscope {

struct OperationFigures {  // a run time entry
    int64_t entry_id = 0;
    std::string name, module_path;
    std::string location;  // "file:line" of its innermost project frame, read only without module
    double forward_ms = 0.0;  // the time of its part of the step (an optimizer's operation's...)
    std::optional<double> backward_ms;
    std::optional<Spread> forward_spread, backward_spread;  // none: the report has no spread
    StepPart part = StepPart::Forward;
};

struct ActivationFigures {  // an activation entry
    int64_t entry_id = 0;
    std::string operation, module_path;
    std::string location;  // as above
    int64_t size_bytes = 0;
    int64_t operation_number = 0;  // 0: unknown (other tools' reports) or outside operations
};

struct ParameterFigures {  // a weight entry
    int64_t entry_id = 0;
    std::string name, module_path;
    int64_t size_bytes = 0, grad_size_bytes = 0;
};

struct RunFigures {
    std::string model;  // trainscope_metadata's `model`; empty in other tools' reports
    bool has_time = false, has_memory = false;

    std::vector<OperationFigures> operations;  // by entry id
    std::optional<double> iteration_ms;
    std::optional<Spread> iteration_spread;

    std::vector<ActivationFigures> activations;  // by entry id
    bool activations_numbered = false;           // the report ties each activation to its operation
    std::vector<ParameterFigures> weights;
    std::optional<int64_t> peak_bytes;
    std::optional<PeakBreakdown> peak_breakdown;
};

// Throws trainscope::Error naming the file that cannot be read.
RunFigures readRunFigures(const RunReports& reports);

}  // namespace trainscope
