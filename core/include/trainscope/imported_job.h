// SPDX-License-Identifier: Apache-2.0
// A distributed job's ranks imported together: each rank's torch.profiler trace (given, or found
// in the folder that tensorboard_trace_handler wrote them to) imported and written as
// PREFIX.rankR.* (R its rank, from the trace's distributedInfo), as TrainScope's own ranks are
// named, so that `show` and the app open them as one job. One rank at a time: the import holds
// one rank's trace in memory, however many ranks the job has.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "trainscope/imported_file.h"
#include "trainscope/overwrite.h"

namespace trainscope {

// The torch.profiler traces in `folder` (its files that are traces by their first bytes), by
// name. Throws trainscope::Error when it cannot be read or holds none.
std::vector<std::string> tracesInFolder(const std::string& folder);

struct ImportedRank {
    std::string source;  // the trace
    int rank = -1;
    std::string prefix;                // PREFIX.rankR
    std::vector<std::string> written;  // its reports
};

// Reports how far the import is: the trace being read (its index) and its bytes read, of its size.
using JobImportProgress = std::function<void(size_t trace, uint64_t done, uint64_t total)>;
// Imports each trace and writes its rank's reports as PREFIX.rankR.*: each set first beside
// PREFIX under a name of its own, then all moved into place once every rank is written (an
// existing report replaced only with Overwrite::Allow, never another file; a rank's reports that
// its new set lacks removed). Throws trainscope::Error for fewer than two traces, a file that is
// not a trace (a memory snapshot has no rank), a trace without a rank, two traces of one rank, or
// a trace that cannot be imported; Cancelled when `cancel` becomes true. Whatever the failure,
// nothing at PREFIX changes: a job is imported whole or not at all.
std::vector<ImportedRank> importRanks(const std::vector<std::string>& traces,
                                      const std::string& prefix, Overwrite overwrite,
                                      const JobImportProgress& progress = {},
                                      const std::atomic<bool>* cancel = nullptr);

// PREFIX.rankR: where rank R of a job's reports are.
std::string rankReportsPrefix(const std::string& prefix, int rank);

}  // namespace trainscope
