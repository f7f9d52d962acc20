#include "trainscope/run.h"

#include "trainscope/error.h"
#include "trainscope/report_format.h"

namespace trainscope {

std::vector<std::string> reportPaths(const RunPlan& plan) {
    switch (plan.measure) {
        case Measure::Memory:
        case Measure::Time:
            return {plan.output};
        case Measure::MemoryAndTime:
            break;
    }
    return {plan.output + report_format::kMemorySuffix, plan.output + report_format::kTimeSuffix};
}

RunResult runAndWrite(const RunPlan& plan, const ProgressCallback& progress,
                      const std::atomic<bool>* cancel) {
    RunResult result;
    result.paths = reportPaths(plan);
    // Fail before a long run, not after it.
    for (const std::string& path : result.paths)
        checkOutputPath(path, plan.overwrite);

    Profiler profiler(plan.config, progress, cancel);
    if (plan.measure != Measure::Time)
        result.memory = profiler.measureMemory();
    if (plan.measure != Measure::Memory)
        result.time = profiler.measureTime();
    // A cancel that came after the last check inside the passes still writes nothing.
    if (cancel && cancel->load())
        throw Cancelled();

    if (result.memory && result.time) {
        writeReports(*result.memory, result.paths[0], *result.time, result.paths[1],
                     plan.overwrite);
    } else if (result.memory) {
        writeMemoryReport(*result.memory, result.paths[0], plan.overwrite);
    } else {
        writeTimeReport(*result.time, result.paths[0], plan.overwrite);
    }
    return result;
}

}  // namespace trainscope
