// SPDX-License-Identifier: Apache-2.0
#include "trainscope/run.h"

#include "trainscope/error.h"
#include "trainscope/report_format.h"
#include "trainscope/session_files.h"

namespace trainscope {

std::string outputFor(const std::string& prefix, Measure measure) {
    switch (measure) {
        case Measure::Memory:
            return prefix + report_format::kMemorySuffix;
        case Measure::Time:
            return prefix + report_format::kTimeSuffix;
        case Measure::Timeline:
            return prefix + report_format::kTimelineSuffix;
        case Measure::All:
            break;
    }
    return prefix;
}

std::vector<std::string> reportPaths(const RunPlan& plan) {
    if (plan.measure != Measure::All) {
        return {plan.output};
    }
    return sessionFiles(plan.output);
}

RunResult runAndWrite(const RunPlan& plan, const ProgressCallback& progress,
                      const std::atomic<bool>* cancel) {
    RunResult result;
    result.paths = reportPaths(plan);
    // Fail before a long run, not after it.
    for (const std::string& path : result.paths)
        checkOutputPath(path, plan.overwrite);

    const bool all = plan.measure == Measure::All;
    Profiler profiler(plan.config, progress, cancel);
    if (all || plan.measure == Measure::Memory || plan.measure == Measure::Timeline) {
        MemoryMeasurement measured = profiler.measureMemoryAndTimeline();
        if (plan.measure != Measure::Timeline)
            result.memory = std::move(measured.memory);
        if (plan.measure != Measure::Memory)
            result.timeline = std::move(measured.timeline);
    }
    if (all || plan.measure == Measure::Time)
        result.time = profiler.measureTime();
    // A cancel that came after the last check inside the passes still writes nothing.
    if (cancel && cancel->load())
        throw Cancelled();

    ReportSet set;
    auto path = result.paths.begin();
    if (result.memory) {
        set.memory = &*result.memory;
        set.memory_path = *path++;
    }
    if (result.time) {
        set.time = &*result.time;
        set.time_path = *path++;
    }
    if (result.timeline) {
        set.timeline = &*result.timeline;
        set.timeline_path = *path++;
    }
    writeReports(set, plan.overwrite);
    return result;
}

}  // namespace trainscope
