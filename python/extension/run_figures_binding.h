// SPDX-License-Identifier: Apache-2.0
// _trainscope.RunFigures: what the host is told of a run's reports (its summary, and the figures
// that advise and the tests read), as attributes. Read by name too (figures["summary"]), as
// trainscope.profile's `figures` documents.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>

#include "trainscope/advice_report.h"
#include "trainscope/session.h"

namespace trainscope::python {

struct RunFigures {
    std::string summary;
    int64_t peak_bytes = 0;
    int64_t weight_bytes = 0;
    int64_t gradient_bytes = 0;
    int64_t activation_bytes = 0;
    // What the peak held of the weights, their gradients and the optimizer's state (none: the
    // report has no breakdown of its peak).
    std::optional<int64_t> weight_bytes_at_peak;
    std::optional<int64_t> gradient_bytes_at_peak;
    std::optional<int64_t> optimizer_state_bytes_at_peak;
    std::string memory_note;  // what the memory report lacks, or ""
    int64_t operations = 0;
    int64_t collectives = 0;
    double step_ms = 0.0;
    // The operations' times by part of the step (PartTimes).
    double forward_ms = 0.0;
    double backward_ms = 0.0;
    double after_backward_ms = 0.0;
    double optimizer_ms = 0.0;
    std::string ranks_summary;  // rank 0 of a job: the summary of every rank (the host's)
};

RunFigures runFiguresOf(const SessionReports& reports, const std::string& summary);
// The figures of the run PREFIX's reports on disk (a job's rank that ran in another process):
// no summary. Throws trainscope::Error where the memory or run time report is missing.
RunFigures runFiguresOfFiles(const std::string& prefix);
StepFigures stepFiguresOf(const RunFigures& figures);

void bindRunFigures(pybind11::module_& m);

}  // namespace trainscope::python
