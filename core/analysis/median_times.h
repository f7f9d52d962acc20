// SPDX-License-Identifier: Apache-2.0
// The run time report's figures from several timed iterations of the same operations: each
// operation's median forward and backward time, and its spread (the fastest and the slowest
// iteration); the same for the iteration's wall time.
#pragma once

#include <string>
#include <vector>

#include "records/recorded_steps.h"
#include "trainscope/reports.h"

namespace trainscope {

// `operations` give each entry its name and frames (numbers into `traces`), `modules` its
// module path; `runs[k][i]` is operation i in timed iteration k (analysis/step_matching.h),
// `iteration_ms[k]` that iteration's wall time. An operation that no timed iteration ran is
// not timed (0 ms; its name added to `not_timed` once): the memory step's own time would hold
// the meter's cost and anything torch.compile compiled in it. With `device_times` the timings'
// times are the device's, and each entry keeps the CPU's beside them. The report's metadata is
// left to the caller.
TimeReport medianTimes(const std::vector<OperationRecord>& operations, const StackTraces& traces,
                       const std::vector<std::string>& modules,
                       const std::vector<std::vector<OperationTiming>>& runs,
                       const std::vector<double>& iteration_ms,
                       std::vector<std::string>* not_timed = nullptr, bool device_times = false);

// The collectives of the memory step (names and bytes) with their median times over the timed
// steps whose collectives are the same ones in the same order; the memory step's own times
// when no timed step has them (a backend may order two concurrent buckets differently).
std::vector<CollectiveEntry> medianCollectives(
    const std::vector<CollectiveRecord>& memory_step,
    const std::vector<std::vector<CollectiveRecord>>& timed);

}  // namespace trainscope
