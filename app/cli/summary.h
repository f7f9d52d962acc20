// The short summary trainscope-cli prints on stdout at the end of a run.
#pragma once

#include <ostream>

#include "trainscope/reports.h"

namespace trainscope::cli {

// Either report may be absent (a `memory` or `time` run).
void printSummary(std::ostream& out, const MemoryReport* memory, const TimeReport* time,
                  const TimelineReport* timeline);

std::string formatBytes(int64_t bytes);

}  // namespace trainscope::cli
