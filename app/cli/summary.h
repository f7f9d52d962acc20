// SPDX-License-Identifier: Apache-2.0
// The short summary trainscope-cli prints on stdout at the end of a run.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "trainscope/reports.h"

namespace trainscope::cli {

// Either report may be absent (a `memory` or `time` run).
void printSummary(std::ostream& out, const MemoryReport* memory, const TimeReport* time,
                  const TimelineReport* timeline);

std::string formatBytes(int64_t bytes);
// `value` through a printf pattern with one double: format("%.3f ms", 1.5).
std::string format(const char* pattern, double value);

// The two meanings of "iteration time", each named: "iteration (wall) 234.657 ms, sum of
// operations 220.100 ms (forward 94.489 ms, backward 125.611 ms), 93.8% of the iteration".
// The wall time is the measured median iteration; the operations' times usually add up to
// less (the work between them is nobody's). Without a wall time (other tools' reports) the sum
// alone.
std::string iterationText(std::optional<double> wall_ms, double forward_ms, double backward_ms);

}  // namespace trainscope::cli
