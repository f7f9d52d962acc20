// SPDX-License-Identifier: Apache-2.0
#include "trainscope/session_files.h"

#include "report/staged_file.h"
#include "trainscope/error.h"
#include "trainscope/report_writer.h"
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
        checkReportOutput(file, overwrite);
}

std::unique_ptr<StagedReports> stageSessionFiles(const SessionReports& reports,
                                                 const std::string& prefix, Overwrite overwrite) {
    const std::vector<std::string> files = sessionFiles(prefix);
    ReportSet set{&reports.memory, files.at(0), &reports.time, files.at(1), &reports.timeline,
                  files.at(2),     {}};
    if (reports.timeline_file) {  // written as the memory step ended
        if (reports.timeline_file->finalPath() != files.at(2)) {
            throw Error("the session's timeline was written for '" +
                        reports.timeline_file->finalPath() + "', not '" + files.at(2) + "'");
        }
        set.timeline = nullptr;
        set.timeline_file = reports.timeline_file;
    }
    return stageReports(set, overwrite);
}

}  // namespace trainscope
