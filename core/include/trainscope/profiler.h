// SPDX-License-Identifier: Apache-2.0
// The archive and built-in runs, a host of the recorder (trainscope/session.h): loads the model
// once per pass, runs warm-up and measured training steps under the session, and returns the
// reports. LibTorch stays behind this header.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "trainscope/engine.h"
#include "trainscope/reports.h"
#include "trainscope/run_config.h"

namespace trainscope {

// Where a run is: which pass (each loads the model afresh) and which phase of it. Kept as
// enums so that the desktop app can translate them; stageName() gives the CLI's English.
enum class Pass { Memory, Time };
enum class Phase { LoadingModel, WarmUp, Measuring };

struct Progress {
    Pass pass = Pass::Memory;
    Phase phase = Phase::LoadingModel;
    int iteration = 0;  // 1-based within the stage; 0 when the stage has no iterations
    int total = 0;
    double last_iteration_ms = 0.0;  // wall time of the iteration that just ended, if any
};

// "memory: warm-up", "time: measuring", ...
std::string stageName(const Progress& progress);

using ProgressCallback = std::function<void(const Progress&)>;

// The memory pass's results: the memory report and the timeline of the same iteration.
struct MemoryMeasurement {
    MemoryReport memory;
    TimelineReport timeline;
};

class Profiler {
  public:
    // Validates the configuration (model file, built-in name and parameters, input specs);
    // throws trainscope::Error with a one-line message when something is wrong.
    explicit Profiler(RunConfig config, ProgressCallback progress = {},
                      const std::atomic<bool>* cancel = nullptr);
    ~Profiler();
    Profiler(const Profiler&) = delete;
    Profiler& operator=(const Profiler&) = delete;

    // Each pass runs on a fresh instance of the model, so the two never disturb each other.
    MemoryMeasurement measureMemoryAndTimeline();
    MemoryReport measureMemory() { return measureMemoryAndTimeline().memory; }
    TimeReport measureTime();

    const RunConfig& config() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace trainscope
