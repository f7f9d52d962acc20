// SPDX-License-Identifier: Apache-2.0
// A session's reports as the files of a run under PREFIX: PREFIX.memory.sqlite,
// PREFIX.time.sqlite and PREFIX.timeline.sqlite, named by runReportSuffixes() (run_files.h).
// What every host of the session writes, staged and committed as one set (report_writer.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "trainscope/overwrite.h"
#include "trainscope/report_writer.h"
#include "trainscope/session.h"

namespace trainscope {

// The run's files under `prefix`, in runReportSuffixes() order.
std::vector<std::string> sessionFiles(const std::string& prefix);

// Throws trainscope::Error, as writing would, when one of the run's files may not be written
// (it exists and `overwrite` refuses, a folder is in the way, ...): before the steps run.
void checkSessionFiles(const std::string& prefix, Overwrite overwrite);

// The set written to temporary files beside their destinations, to be committed or discarded.
std::unique_ptr<StagedReports> stageSessionFiles(const SessionReports& reports,
                                                 const std::string& prefix, Overwrite overwrite);

}  // namespace trainscope
