// SPDX-License-Identifier: Apache-2.0
// The run time report's figures from several timed iterations of the same operations: each
// operation's median forward and backward time, and its spread (the fastest and the slowest
// iteration); the same for the iteration's wall time.
#pragma once

#include <string>
#include <vector>

#include "trainscope/reports.h"

namespace trainscope {

struct OperationRecord;

// `operations` give each entry its name and frames, `modules` its module path; `runs[k][i]` is
// operation i in timed iteration k (matched by position), `iteration_ms[k]` that iteration's
// wall time. The report's metadata is left to the caller.
TimeReport medianTimes(const std::vector<OperationRecord>& operations,
                       const std::vector<std::string>& modules,
                       const std::vector<std::vector<OperationRecord>>& runs,
                       const std::vector<double>& iteration_ms);

}  // namespace trainscope
