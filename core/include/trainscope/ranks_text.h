// SPDX-License-Identifier: Apache-2.0
// The summary of a distributed job's ranks (trainscope/cluster.h) as text: what `show` prints
// after several ranks' timelines, and rank 0 of a run after its own summary.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "trainscope/cluster.h"

namespace trainscope {

void printRanks(std::ostream& out, const ClusterSummary& summary);

// Loads the timelines and prints their summary. Throws trainscope::Error as summarizeRanks()
// and loadTimelineData() do.
void printRanksOfFiles(std::ostream& out, const std::vector<std::string>& timeline_paths);

}  // namespace trainscope
