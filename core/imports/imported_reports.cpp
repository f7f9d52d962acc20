// SPDX-License-Identifier: Apache-2.0
// Writing an imported file's reports: apart from the import itself, which the fuzz target and
// the report readers use without the engine's writers.
#include "trainscope/imported_file.h"

#include <filesystem>

#include "trainscope/error.h"
#include "trainscope/report_writer.h"
#include "trainscope/run_files.h"

namespace trainscope {

namespace fs = std::filesystem;

std::vector<std::string> importedRunReports(const ImportedRun& run, const std::string& prefix) {
    const std::vector<std::string>& suffixes = runReportSuffixes();  // memory, time, timeline
    std::vector<std::string> reports;
    if (run.memory) {
        reports.push_back(prefix + suffixes[0]);
    }
    if (run.time) {
        reports.push_back(prefix + suffixes[1]);
    }
    reports.push_back(prefix + suffixes[2]);
    return reports;
}

std::vector<std::string> writeImportedRun(const ImportedRun& run, const std::string& prefix,
                                          Overwrite overwrite) {
    const std::vector<std::string>& suffixes = runReportSuffixes();  // memory, time, timeline
    ReportSet set;
    if (run.memory) {
        set.memory = &*run.memory;
        set.memory_path = prefix + suffixes[0];
    }
    if (run.time) {
        set.time = &*run.time;
        set.time_path = prefix + suffixes[1];
    }
    set.timeline = &run.timeline;
    set.timeline_path = prefix + suffixes[2];
    if (overwrite == Overwrite::Allow) {  // the members this import removes, before any is written
        if (!run.memory) {
            checkOnlyReportsReplaced(prefix + suffixes[0]);
        }
        if (!run.time) {
            checkOnlyReportsReplaced(prefix + suffixes[1]);
        }
    }
    writeReports(set, overwrite);
    std::vector<std::string> removed;
    if (overwrite == Overwrite::Allow) {
        for (const auto& [written, suffix] : {std::pair{run.memory.has_value(), suffixes[0]},
                                              std::pair{run.time.has_value(), suffixes[1]}}) {
            std::error_code ec;
            if (!written && fs::remove(prefix + suffix, ec)) {
                removed.push_back(prefix + suffix);
            } else if (ec) {
                throw Error("cannot remove '" + prefix + suffix + "', the replaced reports' (" +
                            ec.message() + "): it is not this import's");
            }
        }
    }
    return removed;
}

}  // namespace trainscope
