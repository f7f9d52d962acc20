// SPDX-License-Identifier: Apache-2.0
// The files of a run: PREFIX.memory.sqlite, PREFIX.time.sqlite and PREFIX.timeline.sqlite,
// named by their suffixes (report_format.h). The one home of finding a run's files: the CLI's
// compare, the app's opening of a report with its siblings and the run's outputs all ask here.
#pragma once

#include <string>
#include <vector>

namespace trainscope {

// The report files of one run; an empty path: the run has no such report.
struct RunReports {
    std::string label;  // how the run is named to the user: its prefix or its file
    std::string memory, time, timeline;
};

// A run's report suffixes, in the order its files are read and written: memory, time,
// timeline.
const std::vector<std::string>& runReportSuffixes();

// The suffix of a run's report that `path` ends with, or "" (another tool's file).
std::string runReportSuffix(const std::string& path);

// The files of the run PREFIX that exist, in runReportSuffixes() order.
std::vector<std::string> existingRunReports(const std::string& prefix);

// A run prefix (PREFIX.memory.sqlite, PREFIX.time.sqlite, PREFIX.timeline.sqlite: those that
// exist) or one report file (any tool's). Throws trainscope::Error when there is no report.
RunReports findRunReports(const std::string& prefix_or_file);

}  // namespace trainscope
