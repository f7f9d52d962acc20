// SPDX-License-Identifier: Apache-2.0
#include "report/timeline_reading.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "cut_text.h"
#include "decimal_text.h"
#include "trainscope/error.h"
#include "trainscope/import_notes.h"
#include "trainscope/report_format.h"

namespace trainscope {

ReportFileKind reportKindOf(const ReadOnlyDb& db) {
    if (db.hasTable(report_format::kWeightEntriesTable)) {
        return ReportFileKind::Memory;
    }
    if (db.hasTable(report_format::kRunTimeEntriesTable)) {
        return ReportFileKind::Time;
    }
    for (const char* table : {"PYTORCH_API", "MEMORY_RECORD", "OP_MEMORY", "TASK", "CANN_API"}) {
        if (db.hasTable(table)) {
            return ReportFileKind::Timeline;
        }
    }
    if (db.hasTable(report_format::kSweepPointsTable)) {
        throw Error(db.path() +
                    ": a batch-size sweep, not a run's report (`trainscope-cli show` and the "
                    "app show it; to compare, profile the batch sizes and compare those runs)");
    }
    std::error_code ec;
    if (std::filesystem::file_size(db.path(), ec) == 0 && !ec) {
        throw Error(db.path() + " is empty (0 bytes), not a report");
    }
    throw Error(db.path() +
                ": an SQLite database, but not a known report (no weight_entries, "
                "run_time_entries, PYTORCH_API, MEMORY_RECORD or TASK table)");
}

void requireColumns(const ReadOnlyDb& db, const std::string& table,
                    std::initializer_list<const char*> columns) {
    const std::set<std::string> present = db.columns(table);
    for (const char* column : columns) {
        if (!present.count(column)) {
            throw Error(db.path() + ": table " + table + " has no column " + column +
                        " (a damaged or unknown version of the report)");
        }
    }
}

std::optional<double> nonNegativeNumber(const std::string& text) {
    const std::optional<double> value = parseDecimal(text);
    if (!value || !std::isfinite(*value) || *value < 0) {
        return std::nullopt;
    }
    return value;
}

std::optional<std::string> metadataValue(const ReadOnlyDb& db, const std::string& key) {
    if (!db.hasTable(report_format::kMetadataTable)) {
        return std::nullopt;
    }
    ReadQuery query(
        db, std::string("SELECT value FROM ") + report_format::kMetadataTable + " WHERE key = ?");
    query.bind(1, key);
    if (!query.step()) {
        return std::nullopt;
    }
    return query.text(0);
}

namespace {

// A META_DATA value; none where the table, or its columns, are not there (the loader reads
// timelines that lack them, as timelineSteps() does).
std::optional<std::string> timelineMetadata(const ReadOnlyDb& db, const std::string& name) {
    if (!db.hasTable("META_DATA")) {
        return std::nullopt;
    }
    const std::set<std::string> columns = db.columns("META_DATA");
    if (!columns.count("name") || !columns.count("value")) {
        return std::nullopt;
    }
    ReadQuery value(db, "SELECT value FROM META_DATA WHERE name = ?");
    value.bind(1, name);
    return value.step() ? std::optional(value.text(0)) : std::nullopt;
}

}  // namespace

bool holdsNoTimes(const ReadOnlyDb& db) {
    return timelineMetadata(db, kUntimedEventsKey).has_value();
}

bool namesBlocksByCategory(const ReadOnlyDb& db) {
    return listsBlocksAtPeak(
        timelineMetadata(db, report_format::kImportedFormatKey).value_or(std::string()));
}

std::string shownText(std::string text) {
    const size_t cut = cutAfterCharacters(text, kShownTextChars);
    if (cut < text.size()) {
        text.resize(cut);
        text += "\u2026";
    }
    return text;
}

std::string stringOf(const ReadOnlyDb& db, const std::string& column) {
    const std::string cut = ", 1, " + std::to_string(kShownTextChars + 1) + "), '')";
    if (!db.hasTable("STRING_IDS")) {
        return "IFNULL(substr(CAST(" + column + " AS TEXT)" + cut;
    }
    return "IFNULL(substr((SELECT value FROM STRING_IDS WHERE id = " + column + ")" + cut;
}

FileStrings::FileStrings(const ReadOnlyDb& db) : by_id_(db.hasTable("STRING_IDS")) {
    if (!by_id_) {
        return;
    }
    requireColumns(db, "STRING_IDS", {"id", "value"});
    ReadQuery rows(db, "SELECT id, IFNULL(substr(CAST(value AS TEXT), 1, " +
                           std::to_string(kShownTextChars + 1) + "), '') FROM STRING_IDS");
    while (rows.step()) {
        texts_.try_emplace(rows.integer(0), shownText(rows.text(1)));
    }
}

std::string FileStrings::text(const ReadQuery& row, int column) const {
    if (row.isNull(column)) {
        return {};
    }
    if (!by_id_) {
        return shownText(row.text(column));
    }
    return textOfId(row.integer(column));
}

std::string FileStrings::textOfId(int64_t id) const {
    auto it = texts_.find(id);
    return it == texts_.end() ? std::string() : it->second;
}

std::vector<TimelineStep> timelineSteps(const ReadOnlyDb& db) {
    std::vector<TimelineStep> steps;
    if (!db.hasTable("STEP_TIME")) {
        return steps;
    }
    requireColumns(db, "STEP_TIME", {"id", "startNs", "endNs"});
    ReadQuery rows(db, "SELECT id, " + nanosecondsOf("startNs") + ", " + nanosecondsOf("endNs") +
                           " FROM STEP_TIME ORDER BY 2");
    while (rows.step()) {
        // A step that ends before it starts (a damaged file) lasts nothing.
        const int64_t start = rows.integer(1);
        steps.push_back({rows.integer(0), start, std::max(start, rows.integer(2))});
    }
    // Our timelines are recorded in the memory pass (META_DATA's pass), on its first step.
    const std::set<std::string> meta =
        db.hasTable("META_DATA") ? db.columns("META_DATA") : std::set<std::string>{};
    if (!steps.empty() && meta.count("name") && meta.count("value")) {
        ReadQuery pass(db, "SELECT 1 FROM META_DATA WHERE name = 'pass' AND value = 'memory'");
        steps.front().memory_step = pass.step();
    }
    return steps;
}

int64_t stepDuration(const TimelineStep& step) {
    int64_t duration = 0;
    return __builtin_sub_overflow(step.end_ns, step.start_ns, &duration) ? INT64_MAX : duration;
}

std::string deviceTaskName(const ReadOnlyDb& db, const std::string& task) {
    const std::set<std::string> columns = db.columns("TASK");
    std::string name = "''";
    if (columns.count("globalTaskId") && db.hasTable("COMPUTE_TASK_INFO")) {
        name = "(SELECT " + stringOf(db, "c.name") + " FROM COMPUTE_TASK_INFO c WHERE " +
               "c.globalTaskId = " + task + ".globalTaskId)";
    }
    if (columns.count("taskType")) {
        name = "IFNULL(" + name + ", " + stringOf(db, task + ".taskType") + ")";
    }
    return name;
}

std::string nanosecondsOf(const std::string& column) {
    return "CAST(" + column + " AS INTEGER)";
}

}  // namespace trainscope
