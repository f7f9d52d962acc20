// SPDX-License-Identifier: Apache-2.0
#include "trainscope/run_files.h"

#include <filesystem>
#include <system_error>

#include "trainscope/error.h"
#include "trainscope/report_format.h"
#include "trainscope/report_reading.h"

namespace trainscope {
namespace {

namespace rf = report_format;

bool isFile(const std::string& path) {
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec);
}

bool endsWith(const std::string& text, const std::string& end) {
    return text.size() >= end.size() &&
           text.compare(text.size() - end.size(), end.size(), end) == 0;
}

}  // namespace

const std::vector<std::string>& runReportSuffixes() {
    static const std::vector<std::string> suffixes{rf::kMemorySuffix, rf::kTimeSuffix,
                                                   rf::kTimelineSuffix};
    return suffixes;
}

std::string runReportSuffix(const std::string& path) {
    for (const std::string& suffix : runReportSuffixes()) {
        if (endsWith(path, suffix)) {
            return suffix;
        }
    }
    return {};
}

std::vector<std::string> existingRunReports(const std::string& prefix) {
    std::vector<std::string> files;
    for (const std::string& suffix : runReportSuffixes()) {
        if (isFile(prefix + suffix)) {
            files.push_back(prefix + suffix);
        }
    }
    return files;
}

RunReports findRunReports(const std::string& prefix_or_file) {
    RunReports reports;
    reports.label = prefix_or_file;
    if (isFile(prefix_or_file)) {
        switch (reportFileKind(prefix_or_file)) {
            case ReportFileKind::Memory:
                reports.memory = prefix_or_file;
                break;
            case ReportFileKind::Time:
                reports.time = prefix_or_file;
                break;
            case ReportFileKind::Timeline:
                reports.timeline = prefix_or_file;
                break;
        }
        return reports;
    }
    for (const std::string& file : existingRunReports(prefix_or_file)) {
        const std::string suffix = runReportSuffix(file);
        (suffix == rf::kMemorySuffix ? reports.memory
         : suffix == rf::kTimeSuffix ? reports.time
                                     : reports.timeline) = file;
    }
    if (reports.memory.empty() && reports.time.empty() && reports.timeline.empty()) {
        // A path that is there but is no file (a folder named like a report, a FIFO) says so.
        std::error_code ec;
        if (std::filesystem::exists(std::filesystem::symlink_status(prefix_or_file, ec))) {
            throw Error(prefix_or_file + ": " + notAReportFile(prefix_or_file));
        }
        throw Error(prefix_or_file + ": no such report, and no run's reports (" + prefix_or_file +
                    rf::kMemorySuffix + ", " + rf::kTimeSuffix + ")");
    }
    return reports;
}

}  // namespace trainscope
