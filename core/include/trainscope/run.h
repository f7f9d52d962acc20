// SPDX-License-Identifier: Apache-2.0
// One profiling run from start to files: check the outputs, profile, measure what was chosen,
// write the reports as one set. The CLI and the app's worker both run through here.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "trainscope/profiler.h"
#include "trainscope/report_writer.h"

namespace trainscope {

// All: the memory, run time and timeline reports; otherwise the one named. The memory report
// and the timeline come from the same pass.
enum class Measure { All, Memory, Time, Timeline };

struct RunPlan {
    RunConfig config;
    Measure measure = Measure::All;
    // All: a prefix (PREFIX.memory.sqlite, PREFIX.time.sqlite, PREFIX.timeline.sqlite);
    // otherwise the file.
    std::string output;
    Overwrite overwrite = Overwrite::Refuse;
};

// RunPlan::output for a run of `measure` whose files share PREFIX: PREFIX itself for all
// reports, else the one report's file (PREFIX.memory.sqlite, ...).
std::string outputFor(const std::string& prefix, Measure measure);

// The files `plan` writes: memory, time, timeline, of those it writes.
std::vector<std::string> reportPaths(const RunPlan& plan);

struct RunResult {
    std::optional<MemoryReport> memory;
    std::optional<TimeReport> time;
    std::optional<TimelineReport> timeline;
    std::vector<std::string> paths;  // the files written, in reportPaths() order
};

// Checks the outputs before the long part (trainscope::Error when one cannot be written),
// profiles, and writes the reports as one set: a failed or cancelled run (trainscope::Cancelled)
// writes nothing and leaves an existing set as it was.
RunResult runAndWrite(const RunPlan& plan, const ProgressCallback& progress = {},
                      const std::atomic<bool>* cancel = nullptr);

}  // namespace trainscope
