// SPDX-License-Identifier: Apache-2.0
#include "trainscope/session_files.h"

#include "trainscope/run_files.h"

namespace trainscope {

std::vector<std::string> sessionFiles(const std::string& prefix) {
    std::vector<std::string> files;
    for (const std::string& suffix : runReportSuffixes())
        files.push_back(prefix + suffix);
    return files;
}

void checkSessionFiles(const std::string& prefix, Overwrite overwrite) {
    for (const std::string& file : sessionFiles(prefix))
        checkOutputPath(file, overwrite);
}

std::unique_ptr<StagedReports> stageSessionFiles(const SessionReports& reports,
                                                 const std::string& prefix, Overwrite overwrite) {
    const std::vector<std::string> files = sessionFiles(prefix);
    const ReportSet set{&reports.memory, files.at(0),       &reports.time,
                        files.at(1),     &reports.timeline, files.at(2)};
    return stageReports(set, overwrite);
}

}  // namespace trainscope
