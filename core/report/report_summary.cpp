// SPDX-License-Identifier: Apache-2.0
// summarizeReportFile(): the figures `trainscope-cli show` prints, each equal to what an SQL
// aggregate over the file gives (most are one).
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "analysis/saturating.h"
#include "report/kept_scans.h"
#include "report/readonly_db.h"
#include "report/timeline_reading.h"
#include "trainscope/error.h"
#include "trainscope/import_notes.h"
#include "trainscope/report_format.h"
#include "trainscope/report_reading.h"

namespace trainscope {
namespace {

void summarizeMemory(const ReadOnlyDb& db, ReportFileSummary& s) {
    requireColumns(db, report_format::kWeightEntriesTable, {"size_bytes", "grad_size_bytes"});
    ReadQuery weights(db, std::string("SELECT COUNT(*), IFNULL(SUM(size_bytes), 0), "
                                      "IFNULL(SUM(grad_size_bytes), 0) FROM ") +
                              report_format::kWeightEntriesTable);
    if (weights.step()) {
        s.weights = weights.integer(0);
        s.weight_bytes = weights.integer(1);
        s.gradient_bytes = weights.integer(2);
    }
    if (db.hasTable(report_format::kActivationEntriesTable)) {
        ReadQuery activations(db, std::string("SELECT COUNT(*), IFNULL(SUM(size_bytes), 0) FROM ") +
                                      report_format::kActivationEntriesTable);
        if (activations.step()) {
            s.activations = activations.integer(0);
            s.activation_bytes = activations.integer(1);
        }
    }
    if (db.hasTable(report_format::kMiscSizesTable)) {
        // Each key's figure, in one pass over the table.
        std::map<std::string, int64_t> sizes;
        ReadQuery rows(db, std::string("SELECT key, MAX(size_bytes) FROM ") +
                               report_format::kMiscSizesTable + " GROUP BY key");
        while (rows.step()) {
            if (!rows.isNull(1)) {
                sizes[rows.text(0)] = rows.integer(1);
            }
        }
        const auto size = [&](const char* key) -> std::optional<int64_t> {
            const auto it = sizes.find(key);
            return it == sizes.end() ? std::nullopt : std::optional(it->second);
        };
        s.peak_bytes = size(report_format::kPeakUsageKey);
        const std::optional<int64_t> parts[] = {
            size(report_format::kPeakWeightsKey), size(report_format::kPeakGradientsKey),
            size(report_format::kPeakOptimizerStateKey), size(report_format::kPeakActivationsKey),
            size(report_format::kPeakOtherKey)};
        if (std::all_of(std::begin(parts), std::end(parts), [](const auto& p) { return p; })) {
            s.at_peak = PeakBreakdown{*parts[0], *parts[1], *parts[2], *parts[3], *parts[4]};
            s.at_peak->unsharded_parameters =
                size(report_format::kPeakUnshardedParametersKey).value_or(0);
            s.at_peak->reduce_scatter = size(report_format::kPeakReduceScatterKey).value_or(0);
        }
    }
    s.memory_note = metadataValue(db, report_format::kMemoryNoteKey).value_or("");
    s.names_weights =
        namesWeights(s.weights > 0, metadataValue(db, report_format::kImportedFromKey).has_value());
    s.lists_blocks_at_peak = listsBlocksAtPeak(
        metadataValue(db, report_format::kImportedFormatKey).value_or(std::string()));
    s.sharding = metadataValue(db, report_format::kShardingKey).value_or("");
    if (db.hasTable(report_format::kShardedWeightsTable)) {
        requireColumns(db, report_format::kShardedWeightsTable,
                       {"entry_id", "whole_bytes", "layout"});
        ReadQuery layouts(db, std::string("SELECT s.layout, COUNT(*), IFNULL(SUM(w.size_bytes), "
                                          "0), IFNULL(SUM(s.whole_bytes), 0) FROM ") +
                                  report_format::kShardedWeightsTable + " s JOIN " +
                                  report_format::kWeightEntriesTable +
                                  " w ON w.id = s.entry_id GROUP BY s.layout ORDER BY s.layout");
        while (layouts.step()) {
            s.sharded.push_back(
                {layouts.text(0), layouts.integer(1), layouts.integer(2), layouts.integer(3)});
        }
    }
}

// What torch.compile compiled, and the compiled regions' kernels in figures.
void summarizeCompiled(const ReadOnlyDb& db, ReportFileSummary& s) {
    s.compiled_steps = metadataValue(db, report_format::kCompiledStepsKey).value_or("");
    s.kernels.note = metadataValue(db, report_format::kCompiledKernelsNoteKey).value_or("");
    if (db.hasTable(report_format::kCompilationsTable)) {
        requireColumns(db, report_format::kCompilationsTable,
                       {"compile_id", "kind", "function", "file_path", "line_number", "step",
                        "start_ns", "duration_ms", "graph_break", "recompiled_because"});
        ReadQuery rows(db, std::string("SELECT compile_id, kind, function, file_path, "
                                       "line_number, step, start_ns, duration_ms, graph_break, "
                                       "recompiled_because FROM ") +
                               report_format::kCompilationsTable + " ORDER BY id LIMIT 100000");
        while (rows.step()) {
            Compilation c;
            c.compile_id = shownText(rows.text(0));
            c.kind = shownText(rows.text(1));
            c.function = shownText(rows.text(2));
            c.file_path = shownText(rows.text(3));
            c.line_number = static_cast<int>(rows.integer(4));
            c.step = rows.integer(5);
            c.start_ns = rows.integer(6);
            // A foreign file's duration may be anything: no longer than a day, never negative,
            // and the end within int64's range.
            const double ms = rows.real(7);
            const int64_t ns =
                std::isfinite(ms) && ms > 0 ? static_cast<int64_t>(std::min(ms, 8.64e7) * 1e6) : 0;
            c.end_ns = c.start_ns > std::numeric_limits<int64_t>::max() - ns
                           ? std::numeric_limits<int64_t>::max()
                           : c.start_ns + ns;
            c.graph_break = shownText(rows.text(8));
            c.recompiled_because = shownText(rows.text(9));
            s.compilations.push_back(std::move(c));
        }
    }
    if (db.hasTable(report_format::kCompiledKernelsTable)) {
        requireColumns(db, report_format::kCompiledKernelsTable,
                       {"entry_id", "graph", "unattributed_because"});
        // On a module and a line of the project: a kernel with no reason against it whose most
        // specific frame is a project frame (library frames are in a table of their own); else
        // on a module, with a project frame below its library ones.
        const std::string on_module =
            db.hasTable(report_format::kEntryModulesTable)
                ? std::string("EXISTS (SELECT 1 FROM ") + report_format::kEntryModulesTable +
                      " m WHERE m.entry_id = k.entry_id AND m.module_path != '')"
                : std::string("0");
        ReadQuery rows(db, std::string("SELECT k.graph, e.forward_ms, IFNULL(e.backward_ms, 0), "
                                       "k.unattributed_because, EXISTS (SELECT 1 FROM ") +
                               report_format::kStackFramesTable +
                               " f WHERE f.entry_id = k.entry_id AND f.ordering = 0), " +
                               on_module + " AND EXISTS (SELECT 1 FROM " +
                               report_format::kStackFramesTable +
                               " f WHERE f.entry_id = k.entry_id) FROM " +
                               report_format::kCompiledKernelsTable + " k JOIN " +
                               report_format::kRunTimeEntriesTable + " e ON e.id = k.entry_id");
        while (rows.step()) {
            s.kernels.add(rows.text(0) == "backward", rows.real(1) + rows.real(2),
                          rows.integer(4) != 0, rows.integer(5) != 0, shownText(rows.text(3)));
        }
    }
}

void summarizeTime(const ReadOnlyDb& db, ReportFileSummary& s) {
    requireColumns(db, report_format::kRunTimeEntriesTable, {"forward_ms", "backward_ms"});
    // By part of the step: an entry without a part's row (or any other tool's) is a forward
    // operation.
    const bool parts = db.hasTable(report_format::kEntryPartsTable);
    if (parts) {
        requireColumns(db, report_format::kEntryPartsTable, {"entry_id", "part"});
    }
    ReadQuery totals(
        db, std::string("SELECT ") + (parts ? "IFNULL(p.part, 'forward')" : "'forward'") +
                ", COUNT(*), IFNULL(SUM(e.forward_ms), 0), IFNULL(SUM(e.backward_ms), 0) FROM " +
                report_format::kRunTimeEntriesTable + " e" +
                (parts ? std::string(" LEFT JOIN ") + report_format::kEntryPartsTable +
                             " p ON p.entry_id = e.id GROUP BY 1"
                       : std::string()));
    while (totals.step()) {
        const std::optional<StepPart> part = stepPartNamed(totals.text(0));
        if (!part) {
            throw Error(db.path() + ": " + report_format::kEntryPartsTable +
                        " names a part of the step that is none: '" + shownText(totals.text(0)) +
                        "'");
        }
        s.operations += totals.integer(1);
        s.times.add(*part, totals.real(2), totals.real(3), totals.integer(1));
    }
    // Other tools' reports have no metadata; a value that is no finite, non-negative number
    // is left out rather than shown.
    if (const auto wall = metadataValue(db, report_format::kIterationMsKey)) {
        s.iteration_wall_ms = nonNegativeNumber(*wall);
    }
    s.backward_not_attributed = metadataValue(db, kBackwardNotAttributedKey).value_or("");
    s.imported_steps = metadataValue(db, report_format::kImportedStepsKey).value_or("");
    namespace work = report_format::device_work;
    for (const char* key : {"device",
                            "timed_steps",
                            report_format::kImportedFormatKey,
                            report_format::kOperationTimesKey,
                            work::kKernels,
                            work::kCopies,
                            work::kSets,
                            work::kStreams,
                            work::kJoined,
                            work::kWithoutLaunch,
                            work::kOutsideOperations,
                            work::kStepNs,
                            work::kComputationNs,
                            work::kCommunicationNs,
                            work::kMemoryNs,
                            work::kIdleNs,
                            work::kOverlappedNs,
                            report_format::kDeviceNameKey,
                            report_format::kDeviceMemoryKey,
                            report_format::kDeviceMultiprocessorsKey,
                            report_format::kRankKey,
                            report_format::kWorldSizeKey})
        if (const auto value = metadataValue(db, key)) {
            s.time_metadata[key] = *value;
        }
    if (db.hasTable(report_format::kCollectivesTable)) {
        requireColumns(db, report_format::kCollectivesTable,
                       {"operation_name", "start_ms", "duration_ms", "bytes", "duration_min_ms",
                        "duration_max_ms"});
        // A GPU trace's process groups and overlaps (reports before them have NULLs there).
        const bool grouped = db.columns(report_format::kCollectivesTable).count("overlapped_ms");
        ReadQuery rows(
            db, std::string("SELECT operation_name, start_ms, duration_ms, bytes, "
                            "duration_min_ms, duration_max_ms, ") +
                    (grouped ? "process_group, group_size, overlapped_ms" : "NULL, NULL, NULL") +
                    " FROM " + report_format::kCollectivesTable + " ORDER BY id LIMIT 100000");
        while (rows.step()) {
            CollectiveEntry c;
            c.operation_name = shownText(rows.text(0));
            c.start_ms = rows.real(1);
            c.duration_ms = rows.real(2);
            c.bytes = rows.integer(3);
            c.spread = Spread{rows.real(4), rows.real(5)};
            c.process_group = rows.isNull(6) ? "" : shownText(rows.text(6));
            c.group_size = rows.isNull(7) ? 0 : rows.integer(7);
            if (!rows.isNull(8)) {
                c.overlapped_ms = rows.real(8);
            }
            s.collectives.push_back(std::move(c));
        }
    }
    summarizeCompiled(db, s);
}

// A timeline's STRING_IDS, read where the calls or the memory records first need it and kept for
// the other (a table of every distinct text: read once, not once for each).
class FileStringsOnce {
  public:
    explicit FileStringsOnce(const ReadOnlyDb& db) : db_(db) {}
    const FileStrings& get() {
        if (!strings_) {
            strings_.emplace(db_);
        }
        return *strings_;
    }

  private:
    const ReadOnlyDb& db_;
    std::optional<FileStrings> strings_;
};

// The framework calls in one pass over PYTORCH_API (a million rows take about a quarter of a
// second; one SQL aggregate a figure read them three times, and sorted them to group them): on
// the files TrainScope and torch_npu write (integer ids, types and threads) the figures equal
// those of COUNT, COUNT(DISTINCT globalTid), MIN, MAX and GROUP BY type and name (a test
// compares them). Calls are grouped by the text of their name, so two ids of one text are one
// operation. Where a damaged file holds other values, they differ from SQL's on purpose and
// stay defined: a type or thread that is not an integer is grouped by its text (a REAL 50001.0
// is no `op` call), a name that is not an integer id in a file with STRING_IDS is read as one.
void summarizeCalls(const ReadOnlyDb& db, FileStringsOnce& file_strings, ReportFileSummary& s,
                    int top) {
    requireColumns(db, "PYTORCH_API", {"startNs", "endNs", "globalTid", "name"});
    const bool typed = db.columns("PYTORCH_API").count("type") > 0;
    ReadQuery calls(db, "SELECT " + nanosecondsOf("startNs") + ", " + nanosecondsOf("endNs") +
                            ", globalTid, name, " + (typed ? "type" : "NULL") +
                            " FROM PYTORCH_API");
    struct Totals {
        int64_t calls = 0;
        int64_t total_ns = 0;
    };
    const FileStrings& strings = file_strings.get();
    std::unordered_map<int64_t, Totals> ops_by_id;        // a file with STRING_IDS
    std::unordered_map<std::string, Totals> ops_by_text;  // one without
    std::unordered_set<int64_t> integer_threads;
    std::unordered_set<std::string> other_threads;
    std::unordered_map<int64_t, int64_t> integer_types;
    std::map<std::string, int64_t> other_types;  // NULL as "" (a text type is rare)
    bool any_start = false, any_end = false;
    while (calls.step()) {
        ++s.api_calls;
        if (!calls.isNull(0)) {
            s.first_ns = any_start ? std::min(s.first_ns, calls.integer(0)) : calls.integer(0);
            any_start = true;
        }
        if (!calls.isNull(1)) {
            s.last_ns = any_end ? std::max(s.last_ns, calls.integer(1)) : calls.integer(1);
            any_end = true;
        }
        if (calls.isInteger(2)) {
            integer_threads.insert(calls.integer(2));
        } else if (!calls.isNull(2)) {
            other_threads.insert(calls.text(2));
        }
        if (typed) {
            if (calls.isInteger(4)) {
                ++integer_types[calls.integer(4)];
            } else {
                ++other_types[calls.text(4)];
            }
        }
        // Operations: the `op` calls (50001) where the file types its calls.
        if (typed && !(calls.isInteger(4) && calls.integer(4) == 50001)) {
            continue;
        }
        Totals& t = strings.byId() && !calls.isNull(3) ? ops_by_id[calls.integer(3)]
                                                       : ops_by_text[strings.text(calls, 3)];
        ++t.calls;
        if (!calls.isNull(0) && !calls.isNull(1)) {
            t.total_ns =
                saturatedSum(t.total_ns, saturatedDifference(calls.integer(1), calls.integer(0)));
        }
    }
    s.threads = static_cast<int64_t>(integer_threads.size() + other_threads.size());

    std::unordered_map<int64_t, std::string> type_names;
    if (db.hasTable("ENUM_API_TYPE")) {
        requireColumns(db, "ENUM_API_TYPE", {"id", "name"});
        ReadQuery names(db, "SELECT id, substr(CAST(name AS TEXT), 1, " +
                                std::to_string(kShownTextChars + 1) +
                                ") FROM ENUM_API_TYPE WHERE name IS NOT NULL");
        while (names.step()) {
            type_names.try_emplace(names.integer(0), names.text(1));
        }
    }
    for (const auto& [type, count] : integer_types) {
        auto name = type_names.find(type);
        s.calls_by_type.push_back(
            {shownText(name == type_names.end() ? std::to_string(type) : name->second), count});
    }
    for (const auto& [type, count] : other_types) {
        s.calls_by_type.push_back({shownText(type), count});
    }
    std::sort(s.calls_by_type.begin(), s.calls_by_type.end(),
              [](const NamedCount& a, const NamedCount& b) {
                  return a.count != b.count ? a.count > b.count : a.name < b.name;
              });

    for (const auto& [id, t] : ops_by_id) {
        Totals& named = ops_by_text[strings.textOfId(id)];
        named.calls += t.calls;
        named.total_ns = saturatedSum(named.total_ns, t.total_ns);
    }
    for (const auto& [name, t] : ops_by_text) {
        s.top_operations.push_back({name, t.calls, t.total_ns});
    }
    std::sort(s.top_operations.begin(), s.top_operations.end(),
              [](const OperationTotal& a, const OperationTotal& b) {
                  return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
              });
    s.top_operations.resize(std::min(s.top_operations.size(), size_t(std::max(top, 0))));
}

void summarizeMemoryOverTime(const ReadOnlyDb& db, FileStringsOnce& file_strings,
                             ReportFileSummary& s, int top) {
    if (db.hasTable("MEMORY_RECORD")) {
        // One pass, grouped by the component's text (GROUP BY sorted the million rows).
        requireColumns(db, "MEMORY_RECORD",
                       {"component", "totalAllocated", "totalReserved", "totalActive"});
        ReadQuery records(db,
                          "SELECT component, totalAllocated, totalReserved, totalActive FROM "
                          "MEMORY_RECORD");
        const FileStrings& strings = file_strings.get();
        struct Peaks {
            int64_t records = 0;
            std::optional<int64_t> allocated, reserved, active;  // MAX: NULL ignored
        };
        auto raise = [&](std::optional<int64_t>& peak, int column) {
            if (!records.isNull(column)) {
                peak = std::max(peak.value_or(std::numeric_limits<int64_t>::min()),
                                records.integer(column));
            }
        };
        std::unordered_map<int64_t, Peaks> by_id;  // a file with STRING_IDS
        std::map<std::string, Peaks> by_text;
        while (records.step()) {
            Peaks& p = strings.byId() && !records.isNull(0) ? by_id[records.integer(0)]
                                                            : by_text[strings.text(records, 0)];
            ++p.records;
            raise(p.allocated, 1);
            raise(p.reserved, 2);
            raise(p.active, 3);
        }
        auto higher = [](std::optional<int64_t> a, std::optional<int64_t> b) {
            return a && b ? std::max(*a, *b) : a ? a : b;
        };
        for (const auto& [id, p] : by_id) {
            Peaks& named = by_text[strings.textOfId(id)];
            named.records += p.records;
            named.allocated = higher(named.allocated, p.allocated);
            named.reserved = higher(named.reserved, p.reserved);
            named.active = higher(named.active, p.active);
        }
        for (const auto& [component, p] : by_text) {
            s.memory.push_back({component, p.records, p.allocated.value_or(0),
                                p.reserved.value_or(0), p.active.value_or(0)});
        }
    }
    if (db.hasTable("OP_MEMORY")) {
        requireColumns(db, "OP_MEMORY", {"name", "size", "allocationTime", "releaseTime"});
        ReadQuery blocks(db, "SELECT COUNT(*), IFNULL(SUM(releaseTime IS NULL), 0) FROM OP_MEMORY");
        if (blocks.step()) {
            s.blocks = blocks.integer(0);
            s.blocks_never_freed = blocks.integer(1);
        }
        ReadQuery largest(db, "SELECT " + stringOf(db, "name") +
                                  ", size, allocationTime, releaseTime FROM OP_MEMORY "
                                  "ORDER BY size DESC, allocationTime LIMIT ?");
        largest.bind(1, int64_t{top});
        while (largest.step()) {
            LargeAllocation a{
                shownText(largest.text(0)), largest.integer(1), largest.integer(2), {}};
            if (!largest.isNull(3)) {
                a.released_ns = largest.integer(3);
            }
            s.largest_allocations.push_back(a);
        }
    }
}

}  // namespace

void scanTimelineTables(const ReadOnlyDb& db, ReportFileSummary& s, int top_operations,
                        int top_allocations) {
    FileStringsOnce strings(db);
    if (db.hasTable("PYTORCH_API")) {
        summarizeCalls(db, strings, s, top_operations);
    }
    summarizeMemoryOverTime(db, strings, s, top_allocations);
}

namespace {

void summarizeTimeline(const ReadOnlyDb& db, ReportFileSummary& s, int top) {
    if (db.hasTable("META_DATA")) {
        ReadQuery version(db, "SELECT value FROM META_DATA WHERE name = 'SCHEMA_VERSION'");
        if (version.step()) {
            s.schema_version = version.text(0);
        }
        s.untimed = holdsNoTimes(db);
        s.blocks_by_category = namesBlocksByCategory(db);
    }
    if (!readKeptScans(db, s, top)) {
        scanTimelineTables(db, s, top, top);
    }
    s.steps = timelineSteps(db);
    if (db.hasTable("RANK_DEVICE_MAP") && db.columns("RANK_DEVICE_MAP").count("rankId")) {
        ReadQuery rank(db, "SELECT rankId FROM RANK_DEVICE_MAP LIMIT 1");
        if (rank.step() && !rank.isNull(0)) {
            s.rank = static_cast<int>(rank.integer(0));
        }
    }
    if (db.hasTable("TASK")) {
        s.device_tasks = integerOf(db, "SELECT COUNT(*) FROM TASK");
    }
    if (db.hasTable("CANN_API")) {
        s.cann_calls = integerOf(db, "SELECT COUNT(*) FROM CANN_API");
    }
}

void requireRegularFile(const std::string& path) {
    const std::string why = notAReportFile(path);
    if (!why.empty()) {
        throw Error(path + ": " + why);
    }
}

}  // namespace

std::string notAReportFile(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        const int error = errno;  // stat's, before lstat may change it
        struct stat link {};
        return ::lstat(path.c_str(), &link) == 0
                   ? "a symbolic link to nothing (" + std::string(std::strerror(error)) + ")"
                   : "no such file";
    }
    if (S_ISREG(info.st_mode)) {
        return "";
    }
    if (S_ISDIR(info.st_mode)) {
        return "a folder, not a file";
    }
    if (S_ISFIFO(info.st_mode)) {
        return "a FIFO (named pipe), not a file";
    }
    if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) {
        return "a device, not a file";
    }
    if (S_ISSOCK(info.st_mode)) {
        return "a socket, not a file";
    }
    return "not a regular file";
}

StepsDigest digestSteps(const std::vector<TimelineStep>& steps, size_t listed) {
    StepsDigest digest;
    digest.listed.assign(steps.begin(), steps.begin() + std::min(listed, steps.size()));
    digest.others = static_cast<int64_t>(steps.size() - digest.listed.size());
    if (steps.empty()) {
        return digest;
    }
    std::vector<int64_t> durations;
    durations.reserve(steps.size());
    for (const TimelineStep& step : steps) {
        durations.push_back(stepDuration(step));
    }
    const auto middle = durations.begin() + static_cast<std::ptrdiff_t>(durations.size() / 2);
    std::nth_element(durations.begin(), middle, durations.end());
    digest.median_ns = *middle;
    const auto [shortest, longest] = std::minmax_element(durations.begin(), durations.end());
    digest.shortest_ns = *shortest;
    digest.longest_ns = *longest;
    return digest;
}

ReportFileKind reportFileKind(const std::string& path) {
    requireRegularFile(path);
    return reportKindOf(ReadOnlyDb(path));
}

ReportFileSummary summarizeReportFile(const std::string& path, int top) {
    requireRegularFile(path);
    const ReadOnlyDb db(path);
    ReportFileSummary summary;
    summary.kind = reportKindOf(db);
    // Every error below names the file already (ReadQuery, requireColumns).
    switch (summary.kind) {
        case ReportFileKind::Memory:
            summarizeMemory(db, summary);
            break;
        case ReportFileKind::Time:
            summarizeTime(db, summary);
            break;
        case ReportFileKind::Timeline:
            summarizeTimeline(db, summary, top);
            break;
    }
    return summary;
}

}  // namespace trainscope
