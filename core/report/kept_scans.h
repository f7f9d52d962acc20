// SPDX-License-Identifier: Apache-2.0
// What a timeline's summary reads of its large tables (its framework calls, its memory records,
// its blocks: a million rows each in a large step), read once by TrainScope's writer and kept in
// the file (trainscope_summary), so that `show` of a job's timelines reads a few rows instead.
//
// Kept figures are trusted only while the file is as it was written: SQLite raises the change
// counter in a database's header with every transaction that changes the file (rollback
// journal; a file in WAL mode is never trusted), and the counter kept with them must equal it;
// the kept text's CRC-32 must match. Otherwise, and in every file another tool wrote, the tables
// are read as they are: a kept figure is never one that the tables no longer give.
#pragma once

#include <string>

#include "trainscope/report_reading.h"

namespace trainscope {

class ReadOnlyDb;

// The largest allocations kept: `show --top N` above it reads the tables.
inline constexpr int kKeptLargestAllocations = 100;

// Reads the tables that the kept figures cover into `summary` (report_summary.cpp): the
// `top_operations` operations by total time, the `top_allocations` largest allocations.
void scanTimelineTables(const ReadOnlyDb& db, ReportFileSummary& summary, int top_operations,
                        int top_allocations);

// Reads the timeline at `path` (complete, closed) and keeps its figures in it. Throws
// trainscope::Error where the file cannot be read or written.
void keepTimelineScans(const std::string& path);

// The kept figures into `summary` (`top` of the operations and allocations), where the file
// has them and they can be trusted; false otherwise, `summary` untouched.
bool readKeptScans(const ReadOnlyDb& db, ReportFileSummary& summary, int top);

}  // namespace trainscope
