// SPDX-License-Identifier: Apache-2.0
// What readers of report files share: which kind a file is, and the SQL that reads the Ascend
// timeline's tables as real files have them (TEXT timestamps, names through STRING_IDS, columns
// that drift between versions).
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <unordered_map>
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

// Whether a timeline's META_DATA says its file held no times (trainscope/import_notes.h's
// kUntimedEventsKey: an imported snapshot's events, 1 µs apart in order).
bool holdsNoTimes(const ReadOnlyDb& db);
// Whether its blocks are named by category rather than by operation (an imported memory
// snapshot's: it holds no operations).
bool namesBlocksByCategory(const ReadOnlyDb& db);

// The longest text that readers take from a file, in characters: no name, shape list or path
// that a person reads is longer (PATH_MAX is 4096 bytes). A hostile file's megabyte names would
// otherwise cost the app's layout gigabytes and an export megabytes per call.
constexpr int kShownTextChars = 4096;

// `text` cut to kShownTextChars characters (UTF-8), a cut one ending in "…".
std::string shownText(std::string text);

// An SQL expression for the text of a STRING_IDS id held in `column` ('' when it has none),
// cut to one character more than kShownTextChars (shownText() then marks the cut).
std::string stringOf(const ReadOnlyDb& db, const std::string& column);

// A file's strings, each read once and cut by shownText(): the timeline's name columns hold
// STRING_IDS ids, or the text itself in a file without STRING_IDS. One read of the table keeps
// a value that many rows name (a shape list of every call) from being read once a row.
class FileStrings {
  public:
    explicit FileStrings(const ReadOnlyDb& db);
    // The text of `column` in the query's current row ('' for NULL or an unknown id).
    std::string text(const ReadQuery& row, int column) const;
    // Whether the file names its texts by STRING_IDS ids, and the text of one ('' if unknown).
    bool byId() const { return by_id_; }
    std::string textOfId(int64_t id) const;

  private:
    bool by_id_ = false;
    std::unordered_map<int64_t, std::string> texts_;
};

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
