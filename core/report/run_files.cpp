// SPDX-License-Identifier: Apache-2.0
#include "trainscope/run_files.h"

#include <filesystem>
#include <system_error>
#include <utility>

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

// PREFIX + suffix where that file exists, else "".
std::string existingFile(const std::string& prefix, const std::string& suffix) {
    return isFile(prefix + suffix) ? prefix + suffix : std::string();
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
        if (std::string file = existingFile(prefix, suffix); !file.empty()) {
            files.push_back(std::move(file));
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
    reports.memory = existingFile(prefix_or_file, rf::kMemorySuffix);
    reports.time = existingFile(prefix_or_file, rf::kTimeSuffix);
    reports.timeline = existingFile(prefix_or_file, rf::kTimelineSuffix);
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
