// SPDX-License-Identifier: Apache-2.0
#include "report/timeline_reading.h"

#include <cmath>
#include <cstdlib>
#include <set>

#include "trainscope/error.h"
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
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value) || value < 0) {
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

std::string stringOf(const ReadOnlyDb& db, const std::string& column) {
    if (!db.hasTable("STRING_IDS")) {
        return "IFNULL(CAST(" + column + " AS TEXT), '')";
    }
    return "IFNULL((SELECT value FROM STRING_IDS WHERE id = " + column + "), '')";
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
        steps.push_back({rows.integer(0), rows.integer(1), rows.integer(2)});
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
