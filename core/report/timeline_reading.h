// SPDX-License-Identifier: Apache-2.0
// What readers of report files share: which kind a file is, and the SQL that reads seed 003's
// tables as real files have them (TEXT timestamps, names through STRING_IDS, columns that drift
// between versions).
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "report/readonly_db.h"
#include "trainscope/report_reading.h"

namespace trainscope {

// Throws trainscope::Error when the file is SQLite but none of the known reports.
ReportFileKind reportKindOf(const ReadOnlyDb& db);

// Throws trainscope::Error naming the first of `columns` that `table` lacks.
void requireColumns(const ReadOnlyDb& db, const std::string& table,
                    std::initializer_list<const char*> columns);

// A number written as text (a metadata value): finite and not negative, or nothing.
std::optional<double> nonNegativeNumber(const std::string& text);

// trainscope_metadata's value for `key`; none in a report without it (other tools' reports).
std::optional<std::string> metadataValue(const ReadOnlyDb& db, const std::string& key);

// An SQL expression for the text of a STRING_IDS id held in `column` ('' when it has none).
std::string stringOf(const ReadOnlyDb& db, const std::string& column);

// STEP_TIME's steps, by start (none when the file has no such table); throws trainscope::Error
// when its columns are missing.
std::vector<TimelineStep> timelineSteps(const ReadOnlyDb& db);

// An SQL expression for the name of a TASK row (table alias `task`): its compute kernel's, else
// its task type's, else ''.
std::string deviceTaskName(const ReadOnlyDb& db, const std::string& task);

// An SQL expression for a timestamp in ns: torch_npu stores PYTORCH_API's as TEXT. CAST keeps
// all 19 digits (a REAL would not).
std::string nanosecondsOf(const std::string& column);

}  // namespace trainscope
