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

enum class Measure { MemoryAndTime, Memory, Time };

struct RunPlan {
    RunConfig config;
    Measure measure = Measure::MemoryAndTime;
    // MemoryAndTime: a prefix (PREFIX.memory.sqlite, PREFIX.time.sqlite); otherwise the file.
    std::string output;
    Overwrite overwrite = Overwrite::Refuse;
};

// The files `plan` writes, memory report first.
std::vector<std::string> reportPaths(const RunPlan& plan);

struct RunResult {
    std::optional<MemoryReport> memory;
    std::optional<TimeReport> time;
    std::vector<std::string> paths;  // the files written, memory report first
};

// Checks the outputs before the long part (trainscope::Error when one cannot be written),
// profiles, and writes the reports as one set: a failed or cancelled run (trainscope::Cancelled)
// writes nothing and leaves an existing set as it was.
RunResult runAndWrite(const RunPlan& plan, const ProgressCallback& progress = {},
                      const std::atomic<bool>* cancel = nullptr);

}  // namespace trainscope
