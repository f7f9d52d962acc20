// SPDX-License-Identifier: Apache-2.0
// Writes reports as the standard SQLite files. A report is written to a temporary file in
// the destination folder and moved into place only when complete, so a failed or cancelled
// run never leaves a partial report, and an existing file is replaced only when asked.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "trainscope/overwrite.h"
#include "trainscope/reports.h"

namespace trainscope {

// Makes SIGINT, SIGTERM and SIGHUP remove the temporary files of reports being written before
// the process ends (the programs call it once at start).
void installTempFileCleanup();

// For a host inside another program (the Python package in the user's process), which must
// leave that program's settings as it found them: while it lives, SIGTERM and SIGHUP left at
// their default (ending the process) first remove the temporary files of reports being
// written, then end the process as the default does. Signals the program handles are left
// alone, and each one taken is put back when it ends, unless the program has set its own since.
class TempFileCleanupWhileDefault {
  public:
    TempFileCleanupWhileDefault();
    ~TempFileCleanupWhileDefault();
    TempFileCleanupWhileDefault(const TempFileCleanupWhileDefault&) = delete;
    TempFileCleanupWhileDefault& operator=(const TempFileCleanupWhileDefault&) = delete;

  private:
    std::vector<int> taken_;  // the signals whose default it replaced
};

// Throws trainscope::Error when `path` cannot be written: it exists and `overwrite` is
// Refuse, it exists and is not a regular file (never replaced), its name is too long, or its
// folder is missing or not writable. Call before a long run to fail early.
void checkOutputPath(const std::string& path, Overwrite overwrite);
// Throws trainscope::Error where a regular file exists at `path` that is not a report (a memory,
// run time or timeline report: ours or the other tools') and is not empty: --force replaces a
// set of reports, never the user's other files.
void checkOnlyReportsReplaced(const std::string& path);
// Both checks for a report's output: a file that is not a report is refused with or without
// `overwrite`, an existing report without it.
void checkReportOutput(const std::string& path, Overwrite overwrite);

void writeMemoryReport(const MemoryReport& report, const std::string& path, Overwrite overwrite);
void writeTimeReport(const TimeReport& report, const std::string& path, Overwrite overwrite);

void writeTimelineReport(const TimelineReport& report, const std::string& path,
                         Overwrite overwrite);

// The reports of one run and their files; a null report is not written.
class StagedFile;

struct ReportSet {
    const MemoryReport* memory = nullptr;
    std::string memory_path;
    const TimeReport* time = nullptr;
    std::string time_path;
    const TimelineReport* timeline = nullptr;
    std::string timeline_path;
    // Or the timeline written to its staged file already (SessionOptions::timeline_path),
    // committed with the others.
    std::shared_ptr<StagedFile> timeline_file;
};

// A set written to temporary files beside their destinations and not yet in place: for a host
// that must agree with others before any of them replaces a file (the ranks of a distributed
// job commit only when every rank's set is written). Destroyed uncommitted, it removes them.
class StagedReports {
  public:
    explicit StagedReports(std::vector<std::shared_ptr<StagedFile>> files);
    ~StagedReports();
    StagedReports(const StagedReports&) = delete;
    StagedReports& operator=(const StagedReports&) = delete;

    // Moves the files into place as one set (as writeReports does).
    void commit(Overwrite overwrite);

  private:
    std::vector<std::shared_ptr<StagedFile>> files_;
};

// Writes the set's temporary files, after checking every output as writeReports does.
std::unique_ptr<StagedReports> stageReports(const ReportSet& set, Overwrite overwrite);

// Writes the reports of one run as one set: either all files are replaced or none is, also
// when the process is killed in between (see core/report/staged_file.h).
void writeReports(const ReportSet& set, Overwrite overwrite);

// The memory and run time reports as one set.
inline void writeReports(const MemoryReport& memory, const std::string& memory_path,
                         const TimeReport& time, const std::string& time_path,
                         Overwrite overwrite) {
    writeReports(ReportSet{&memory, memory_path, &time, time_path, nullptr, {}, {}}, overwrite);
}

}  // namespace trainscope
