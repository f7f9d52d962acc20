// SPDX-License-Identifier: Apache-2.0
// readRunFigures(): one query per table, each entry's extras (module, spread, operation number)
// joined in SQL from TrainScope's own tables where the file has them.
#include "report/run_figures.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <utility>

#include "report/readonly_db.h"
#include "report/timeline_reading.h"
#include "trainscope/error.h"
#include "trainscope/report_format.h"

namespace trainscope {
namespace {

namespace rf = report_format;

// A figure from an untrusted file: a NaN or an infinity would poison every sum after it.
double finite(const ReadOnlyDb& db, double value, const char* what) {
    if (!std::isfinite(value)) {
        throw Error(db.path() + ": a " + what + " that is not a finite number (a damaged report)");
    }
    return value;
}

std::optional<Spread> spreadOf(const ReadOnlyDb& db, const ReadQuery& row, int min_column) {
    if (row.isNull(min_column) || row.isNull(min_column + 1)) {
        return std::nullopt;
    }
    return Spread{finite(db, row.real(min_column), "time spread"),
                  finite(db, row.real(min_column + 1), "time spread")};
}

std::string modelOf(const ReadOnlyDb& db) {
    return metadataValue(db, "model").value_or("");
}

// The innermost project line of each operation outside any module: its fallback key. One scan
// of the table in storage order (a probe per entry through the index takes three times as
// long); each entry keeps its frame of the lowest ordering.
void readInnermostLines(const ReadOnlyDb& db, std::vector<OperationFigures>& operations) {
    const bool needed =
        std::any_of(operations.begin(), operations.end(),
                    [](const OperationFigures& op) { return op.module_path.empty(); });
    if (!needed) {
        return;
    }
    std::vector<int64_t> innermost(operations.size(), INT64_MAX);
    size_t position = 0;  // frames come grouped by entry: the last one found is tried first
    ReadQuery frames(db, std::string("SELECT entry_id, ordering, file_path, line_number FROM ") +
                             rf::kStackFramesTable);
    while (frames.step()) {
        const int64_t id = frames.integer(0);
        if (position >= operations.size() || operations[position].entry_id != id) {
            const auto found = std::lower_bound(
                operations.begin(), operations.end(), id,
                [](const OperationFigures& op, int64_t value) { return op.entry_id < value; });
            if (found == operations.end() || found->entry_id != id) {
                continue;  // frames of no entry
            }
            position = static_cast<size_t>(found - operations.begin());
        }
        OperationFigures& op = operations[position];
        const int64_t ordering = frames.integer(1);
        if (op.module_path.empty() && ordering < innermost[position]) {
            innermost[position] = ordering;
            op.location = frames.text(2) + ':' + std::to_string(frames.integer(3));
        }
    }
}

void readTimeReport(const std::string& path, RunFigures& run) {
    const ReadOnlyDb db(path);
    if (reportKindOf(db) != ReportFileKind::Time) {
        throw Error(path + ": not a run time report");
    }
    requireColumns(db, rf::kRunTimeEntriesTable,
                   {"id", "operation_name", "forward_ms", "backward_ms"});
    const bool modules = db.hasTable(rf::kEntryModulesTable);
    const bool spreads = db.hasTable(rf::kTimeSpreadTable);
    const bool frames = db.hasTable(rf::kStackFramesTable);
    const bool parts = db.hasTable(rf::kEntryPartsTable);
    if (modules) {
        requireColumns(db, rf::kEntryModulesTable, {"entry_id", "module_path"});
    }
    if (parts) {
        requireColumns(db, rf::kEntryPartsTable, {"entry_id", "part"});
    }
    if (spreads) {
        requireColumns(
            db, rf::kTimeSpreadTable,
            {"entry_id", "forward_min_ms", "forward_max_ms", "backward_min_ms", "backward_max_ms"});
    }
    if (frames) {
        requireColumns(db, rf::kStackFramesTable,
                       {"entry_id", "ordering", "file_path", "line_number"});
    }
    const std::string module = modules ? "m.module_path" : "NULL";
    ReadQuery entries(
        db,
        "SELECT e.id, e.operation_name, e.forward_ms, e.backward_ms, " + module + ", " +
            (spreads ? "s.forward_min_ms, s.forward_max_ms, s.backward_min_ms, "
                       "s.backward_max_ms"
                     : "NULL, NULL, NULL, NULL") +
            (parts ? ", p.part" : ", NULL") + " FROM " + rf::kRunTimeEntriesTable + " e" +
            (modules
                 ? std::string(" LEFT JOIN ") + rf::kEntryModulesTable + " m ON m.entry_id = e.id"
                 : "") +
            (spreads ? std::string(" LEFT JOIN ") + rf::kTimeSpreadTable + " s ON s.entry_id = e.id"
                     : "") +
            (parts ? std::string(" LEFT JOIN ") + rf::kEntryPartsTable + " p ON p.entry_id = e.id"
                   : "") +
            " ORDER BY e.id");
    run.operations.reserve(static_cast<size_t>(std::max<int64_t>(
        0, integerOf(db, std::string("SELECT COUNT(*) FROM ") + rf::kRunTimeEntriesTable))));
    while (entries.step()) {
        OperationFigures op;
        op.entry_id = entries.integer(0);
        op.name = entries.text(1);
        op.forward_ms = finite(db, entries.real(2), "forward time");
        if (!entries.isNull(3)) {
            op.backward_ms = finite(db, entries.real(3), "backward time");
        }
        op.module_path = entries.text(4);
        op.forward_spread = spreadOf(db, entries, 5);
        if (op.backward_ms) {
            op.backward_spread = spreadOf(db, entries, 7);
        }
        if (!entries.isNull(9)) {
            const std::optional<StepPart> part = stepPartNamed(entries.text(9));
            if (!part) {
                throw Error(path + ": " + rf::kEntryPartsTable +
                            " names a part of the step that is none");
            }
            op.part = *part;
        }
        run.operations.push_back(std::move(op));
    }
    if (frames) {
        readInnermostLines(db, run.operations);
    }
    const auto wall = metadataValue(db, rf::kIterationMsKey);
    const auto fastest = metadataValue(db, rf::kIterationMinMsKey);
    const auto slowest = metadataValue(db, rf::kIterationMaxMsKey);
    if (wall) {
        run.iteration_ms = nonNegativeNumber(*wall);
    }
    if (fastest && slowest) {
        const auto min_ms = nonNegativeNumber(*fastest), max_ms = nonNegativeNumber(*slowest);
        if (min_ms && max_ms) {
            run.iteration_spread = Spread{*min_ms, *max_ms};
        }
    }
    if (run.model.empty()) {
        run.model = modelOf(db);
    }
    run.has_time = true;
}

void readActivations(const ReadOnlyDb& db, RunFigures& run) {
    requireColumns(db, rf::kActivationEntriesTable, {"id", "operation_name", "size_bytes"});
    const bool modules = db.hasTable(rf::kEntryModulesTable);
    const bool numbers = db.hasTable(rf::kActivationOperationsTable);
    const bool frames =
        db.hasTable(rf::kStackCorrelationTable) && db.hasTable(rf::kStackFramesTable);
    if (modules) {
        requireColumns(db, rf::kEntryModulesTable, {"entry_type", "entry_id", "module_path"});
    }
    if (numbers) {
        requireColumns(db, rf::kActivationOperationsTable, {"entry_id", "operation_number"});
    }
    if (frames) {
        requireColumns(db, rf::kStackCorrelationTable,
                       {"correlation_id", "entry_id", "entry_type"});
        requireColumns(db, rf::kStackFramesTable,
                       {"correlation_id", "ordering", "file_path", "line_number"});
    }
    const std::string activation = std::to_string(rf::kEntryTypeActivation);
    const std::string module = modules ? "m.module_path" : "NULL";
    const std::string location =
        frames
            ? std::string("CASE WHEN ") + module +
                  " IS NULL THEN (SELECT f.file_path || ':' || f.line_number FROM " +
                  rf::kStackCorrelationTable + " c JOIN " + rf::kStackFramesTable +
                  " f ON f.correlation_id = c.correlation_id WHERE c.entry_type = " + activation +
                  " AND c.entry_id = a.id ORDER BY f.ordering LIMIT 1) END"
            : "NULL";
    ReadQuery entries(
        db, "SELECT a.id, a.operation_name, a.size_bytes, " + module + ", " +
                (numbers ? "o.operation_number" : "NULL") + ", " + location + " FROM " +
                rf::kActivationEntriesTable + " a" +
                (modules ? std::string(" LEFT JOIN ") + rf::kEntryModulesTable +
                               " m ON m.entry_type = " + activation + " AND m.entry_id = a.id"
                         : "") +
                (numbers ? std::string(" LEFT JOIN ") + rf::kActivationOperationsTable +
                               " o ON o.entry_id = a.id"
                         : "") +
                " ORDER BY a.id");
    while (entries.step()) {
        ActivationFigures a;
        a.entry_id = entries.integer(0);
        a.operation = entries.text(1);
        a.size_bytes = entries.integer(2);
        a.module_path = entries.text(3);
        a.operation_number = entries.integer(4);
        a.location = entries.text(5);
        run.activations.push_back(std::move(a));
    }
    run.activations_numbered = numbers;
}

void readWeights(const ReadOnlyDb& db, RunFigures& run) {
    requireColumns(db, rf::kWeightEntriesTable, {"id", "name", "size_bytes", "grad_size_bytes"});
    const bool modules = db.hasTable(rf::kEntryModulesTable);
    ReadQuery weights(
        db, std::string("SELECT w.id, w.name, w.size_bytes, w.grad_size_bytes, ") +
                (modules ? "m.module_path" : "NULL") + " FROM " + rf::kWeightEntriesTable + " w" +
                (modules ? std::string(" LEFT JOIN ") + rf::kEntryModulesTable +
                               " m ON m.entry_type = " + std::to_string(rf::kEntryTypeWeight) +
                               " AND m.entry_id = w.id"
                         : "") +
                " ORDER BY w.id");
    while (weights.step()) {
        run.weights.push_back({weights.integer(0), weights.text(1), weights.text(4),
                               weights.integer(2), weights.integer(3)});
    }
}

void readPeak(const ReadOnlyDb& db, RunFigures& run) {
    if (!db.hasTable(rf::kMiscSizesTable)) {
        return;
    }
    requireColumns(db, rf::kMiscSizesTable, {"key", "size_bytes"});
    std::map<std::string, int64_t> sizes;
    ReadQuery misc(db, std::string("SELECT key, size_bytes FROM ") + rf::kMiscSizesTable);
    while (misc.step()) {
        sizes[misc.text(0)] = misc.integer(1);
    }
    const auto size = [&](const char* key) -> std::optional<int64_t> {
        const auto found = sizes.find(key);
        return found == sizes.end() ? std::nullopt : std::optional<int64_t>(found->second);
    };
    run.peak_bytes = size(rf::kPeakUsageKey);
    const auto weights = size(rf::kPeakWeightsKey), gradients = size(rf::kPeakGradientsKey),
               state = size(rf::kPeakOptimizerStateKey),
               activations = size(rf::kPeakActivationsKey), other = size(rf::kPeakOtherKey);
    if (weights && gradients && state && activations && other) {
        run.peak_breakdown = PeakBreakdown{*weights, *gradients, *state, *activations, *other};
    }
}

void readMemoryReport(const std::string& path, RunFigures& run) {
    const ReadOnlyDb db(path);
    if (reportKindOf(db) != ReportFileKind::Memory) {
        throw Error(path + ": not a memory report");
    }
    readWeights(db, run);
    if (db.hasTable(rf::kActivationEntriesTable)) {
        readActivations(db, run);
    }
    readPeak(db, run);
    if (run.model.empty()) {
        run.model = modelOf(db);
    }
    run.has_memory = true;
}

std::string projectRootOf(const ReadOnlyDb& db) {
    return metadataValue(db, rf::kProjectRootKey).value_or("");
}

}  // namespace

EntryFrames readEntryFrames(const RunReports& run, EntryKind kind, int64_t entry_id) {
    EntryFrames result;
    const std::string& path = kind == EntryKind::RunTime ? run.time : run.memory;
    if (kind == EntryKind::None || path.empty()) {
        return result;
    }
    const ReadOnlyDb db(path);
    if (!db.hasTable(rf::kStackFramesTable)) {
        return result;
    }
    std::string sql;
    if (kind == EntryKind::RunTime) {
        requireColumns(db, rf::kStackFramesTable,
                       {"entry_id", "ordering", "file_path", "line_number"});
        sql = std::string("SELECT file_path, line_number FROM ") + rf::kStackFramesTable +
              " WHERE entry_id = ? ORDER BY ordering";
    } else {
        if (!db.hasTable(rf::kStackCorrelationTable)) {
            return result;
        }
        requireColumns(db, rf::kStackFramesTable,
                       {"correlation_id", "ordering", "file_path", "line_number"});
        requireColumns(db, rf::kStackCorrelationTable,
                       {"correlation_id", "entry_id", "entry_type"});
        const int type =
            kind == EntryKind::Weight ? rf::kEntryTypeWeight : rf::kEntryTypeActivation;
        sql = std::string("SELECT f.file_path, f.line_number FROM ") + rf::kStackCorrelationTable +
              " c JOIN " + rf::kStackFramesTable +
              " f ON f.correlation_id = c.correlation_id WHERE c.entry_id = ? AND c.entry_type = " +
              std::to_string(type) + " ORDER BY f.ordering";
    }
    ReadQuery frames(db, sql);
    frames.bind(1, entry_id);
    // A hostile file may hold any number of frames for one entry: a real stack is far shorter.
    constexpr size_t kMostFrames = 1000;
    while (frames.step() && result.frames.size() < kMostFrames) {
        const int64_t line = frames.integer(1);
        if (line < 1 || line > INT32_MAX) {
            throw Error(path + ": a line number out of range (a damaged report)");
        }
        result.frames.emplace_back(frames.text(0), static_cast<int>(line));
    }
    result.project_root = projectRootOf(db);
    return result;
}

std::vector<MemorySample> readMemoryCurve(const std::string& timeline_path) {
    const ReadOnlyDb db(timeline_path);
    std::vector<MemorySample> curve;
    if (!db.hasTable("MEMORY_RECORD")) {
        return curve;
    }
    requireColumns(db, "MEMORY_RECORD",
                   {"component", "timestamp", "totalAllocated", "totalReserved", "totalActive"});
    const std::string time = nanosecondsOf("timestamp");
    ReadQuery samples(db, "SELECT " + time +
                              ", totalAllocated, totalReserved, totalActive FROM MEMORY_RECORD "
                              "WHERE component = (SELECT component FROM MEMORY_RECORD GROUP BY "
                              "component ORDER BY COUNT(*) DESC LIMIT 1) ORDER BY 1");
    while (samples.step()) {
        curve.push_back(
            {samples.integer(0), samples.integer(1), samples.integer(2), samples.integer(3)});
    }
    if (!curve.empty()) {
        const int64_t start = curve.front().timestamp_ns;
        for (MemorySample& sample : curve)
            sample.timestamp_ns -= start;
    }
    return curve;
}

RunFigures readRunFigures(const RunReports& reports) {
    RunFigures run;
    if (!reports.time.empty()) {
        readTimeReport(reports.time, run);
    }
    if (!reports.memory.empty()) {
        readMemoryReport(reports.memory, run);
    }
    return run;
}

}  // namespace trainscope
