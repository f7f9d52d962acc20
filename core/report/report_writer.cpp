// SPDX-License-Identifier: Apache-2.0
#include "trainscope/report_writer.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>

#include "decimal_text.h"
#include "report/kept_scans.h"
#include "report/report_tables.h"
#include "report/schema.h"
#include "report/sqlite_db.h"
#include "report/staged_file.h"
#include "report/staged_timeline.h"
#include "trainscope/error.h"
#include "trainscope/report_format.h"
#include "trainscope/report_reading.h"

namespace trainscope {

namespace fs = std::filesystem;

namespace {

// Which of an entry's frames a FrameWriter writes: each table is written in a pass of its own.
enum class FrameTable { Project, Library };

// An entry's frames: project frames in the standard stack_frames table, library frames in
// trainscope_library_frames, numbered in one sequence. Both tables start with the key column
// (correlation_id or entry_id), then ordering, file_path and line_number.
class FrameWriter {
  public:
    FrameWriter(SqliteDb& db, const std::string& key_column, FrameTable table)
        : library_(table == FrameTable::Library),
          insert_(db, library_ ? "INSERT INTO trainscope_library_frames (" + key_column +
                                     ", ordering, file_path, line_number, library_root) "
                                     "VALUES (?, ?, ?, ?, ?)"
                               : "INSERT INTO stack_frames (" + key_column +
                                     ", ordering, file_path, line_number) VALUES (?, ?, ?, ?)") {}

    void add(int64_t key, const StackTrace& frames) {
        for (size_t i = 0; i < frames.size(); ++i) {
            const StackFrame& frame = frames[i];
            if (frame.isLibrary() != library_) {
                continue;
            }
            insert_.bind(1, key).bind(2, static_cast<int64_t>(i)).bind(3, frame.file_path.str());
            insert_.bind(4, int64_t{frame.line_number});
            if (library_) {
                insert_.bind(5, frame.library_root.str());
            }
            insert_.step();
        }
    }

  private:
    bool library_;
    SqliteStatement insert_;
};

// Writes every entry's frames into both frame tables, one table after the other (see
// fillTimeReport). `for_each_trace(add)` calls add(key, frames) for each entry, in key order.
template <typename ForEachTrace>
void writeFrames(SqliteDb& db, const std::string& key_column, ForEachTrace for_each_trace) {
    for (const FrameTable table : {FrameTable::Project, FrameTable::Library}) {
        FrameWriter frames(db, key_column, table);
        for_each_trace([&](int64_t key, const StackTrace& trace) { frames.add(key, trace); });
    }
}

void fillMemoryReport(SqliteDb& db, const MemoryReport& report) {
    createTables(db, std::begin(schema::kMemoryTables), std::end(schema::kMemoryTables));
    db.exec(schema::kMemoryLibraryFramesTable);
    SqliteStatement entry_type(db, "INSERT INTO entry_types (entry_type, name) VALUES (?, ?)");
    entry_type.bind(1, int64_t{report_format::kEntryTypeWeight})
        .bind(2, std::string(report_format::kEntryTypeWeightName))
        .step();
    entry_type.bind(1, int64_t{report_format::kEntryTypeActivation})
        .bind(2, std::string(report_format::kEntryTypeActivationName))
        .step();

    // Each table in a pass of its own, frames last (see fillTimeReport).
    SqliteStatement weight(db,
                           "INSERT INTO weight_entries (id, name, size_bytes, grad_size_bytes) "
                           "VALUES (?, ?, ?, ?)");
    int64_t id = 1;
    for (const WeightEntry& entry : report.weights) {
        weight.bind(1, id++).bind(2, entry.name).bind(3, entry.size_bytes);
        weight.bind(4, entry.grad_size_bytes).step();
    }
    SqliteStatement activation(
        db, "INSERT INTO activation_entries (id, operation_name, size_bytes) VALUES (?, ?, ?)");
    id = 1;
    for (const ActivationEntry& entry : report.activations) {
        activation.bind(1, id++).bind(2, entry.operation_name).bind(3, entry.size_bytes).step();
    }
    db.exec(schema::kActivationOperationsTable);
    SqliteStatement operation(db,
                              "INSERT INTO trainscope_activation_operations (entry_id, "
                              "operation_number) VALUES (?, ?)");
    id = 1;
    for (const ActivationEntry& entry : report.activations) {
        if (entry.operation_number > 0) {  // memory allocated outside operations has no row
            operation.bind(1, id).bind(2, entry.operation_number).step();
        }
        ++id;
    }
    db.exec(schema::kWeightDetailsTable);
    db.exec(schema::kShardedWeightsTable);
    SqliteStatement details(db,
                            "INSERT INTO trainscope_weight_details (entry_id, "
                            "optimizer_state_bytes, aliases) VALUES (?, ?, ?)");
    SqliteStatement sharded(db,
                            "INSERT INTO trainscope_sharded_weights (entry_id, whole_bytes, "
                            "layout) VALUES (?, ?, ?)");
    id = 1;
    for (const WeightEntry& weight : report.weights) {
        std::string aliases;
        for (const std::string& alias : weight.aliases)
            aliases += (aliases.empty() ? "" : ", ") + alias;
        details.bind(1, id).bind(2, weight.optimizer_state_bytes).bind(3, aliases).step();
        if (weight.whole_bytes > 0) {  // a weight held whole has no row
            sharded.bind(1, id).bind(2, weight.whole_bytes).bind(3, weight.layout).step();
        }
        ++id;
    }
    if (!report.fsdp_units.empty()) {
        db.exec(schema::kFsdpUnitsTable);
        SqliteStatement unit(db,
                             "INSERT INTO trainscope_fsdp_units (id, unit, parameters, "
                             "sharded_bytes, unsharded_bytes, gathers, prefetched, gathered_ms, "
                             "unsharded_at_peak_bytes, reduce_scatter_bytes, "
                             "gather_collective, gather_collectives, gather_collective_bytes, "
                             "gather_collective_ms, reduce_collective, reduce_collectives, "
                             "reduce_collective_bytes, reduce_collective_ms) VALUES "
                             "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        id = 1;
        auto bindCollectives = [&unit](int first, const FsdpUnitCollectives& c) {
            unit.bind(first, c.name).bind(first + 1, int64_t{c.count});
            if (c.bytes < 0) {
                unit.bindNull(first + 2);  // not known for each of them
            } else {
                unit.bind(first + 2, c.bytes);
            }
            unit.bind(first + 3, c.ms);
        };
        for (const FsdpUnitEntry& u : report.fsdp_units) {
            unit.bind(1, id++).bind(2, u.unit).bind(3, int64_t{u.parameters});
            unit.bind(4, u.sharded_bytes).bind(5, u.unsharded_bytes).bind(6, int64_t{u.gathers});
            unit.bind(7, int64_t{u.prefetched}).bind(8, u.gathered_ms);
            unit.bind(9, u.unsharded_at_peak_bytes).bind(10, u.reduce_scatter_bytes);
            bindCollectives(11, u.gathering);
            bindCollectives(15, u.reducing);
            unit.step();
        }
    }
    db.exec(schema::kMemoryEntryModulesTable);
    SqliteStatement module(db,
                           "INSERT INTO trainscope_entry_modules (entry_type, entry_id, "
                           "module_path) VALUES (?, ?, ?)");
    // An entry outside any submodule has no row.
    auto add_modules = [&](int entry_type, const auto& entries) {
        int64_t entry_id = 1;
        for (const auto& entry : entries) {
            if (!entry.module_path.empty()) {
                module.bind(1, int64_t{entry_type}).bind(2, entry_id).bind(3, entry.module_path);
                module.step();
            }
            ++entry_id;
        }
    };
    add_modules(report_format::kEntryTypeWeight, report.weights);
    add_modules(report_format::kEntryTypeActivation, report.activations);
    SqliteStatement misc(db, "INSERT INTO misc_sizes (key, size_bytes) VALUES (?, ?)");
    std::map<std::string, int64_t> sizes = report.misc_sizes;
    sizes[report_format::kPeakUsageKey] = report.peak_usage_bytes;
    if (const auto& peak = report.peak_breakdown) {
        sizes[report_format::kPeakWeightsKey] = peak->weights;
        sizes[report_format::kPeakGradientsKey] = peak->gradients;
        sizes[report_format::kPeakOptimizerStateKey] = peak->optimizer_state;
        if (peak->unsharded_parameters > 0 || peak->reduce_scatter > 0) {
            sizes[report_format::kPeakUnshardedParametersKey] = peak->unsharded_parameters;
            sizes[report_format::kPeakReduceScatterKey] = peak->reduce_scatter;
        }
        sizes[report_format::kPeakActivationsKey] = peak->activations;
        sizes[report_format::kPeakOtherKey] = peak->other;
    }
    for (const auto& [key, bytes] : sizes) {
        misc.bind(1, key).bind(2, bytes).step();
    }
    db.exec(schema::kPeakByModuleTable);
    SqliteStatement by_module(db,
                              "INSERT INTO trainscope_peak_by_module (module_path, kind, "
                              "size_bytes) VALUES (?, ?, ?)");
    for (const ModulePeakEntry& entry : report.peak_by_module) {
        by_module.bind(1, entry.module_path).bind(2, entry.kind).bind(3, entry.size_bytes).step();
    }
    RunMetadata metadata = report.metadata;
    std::string aliases;
    for (const WeightEntry& weight : report.weights)
        for (const std::string& alias : weight.aliases)
            aliases += (aliases.empty() ? "" : "; ") + alias + "=" + weight.name;
    if (!aliases.empty()) {
        metadata[report_format::kWeightAliasesKey] = aliases;
    }
    insertMetadata(db, metadata);

    // Frames hang off stack_correlation: one correlation id per entry, weights first.
    SqliteStatement correlation(db,
                                "INSERT INTO stack_correlation (correlation_id, entry_id, "
                                "entry_type) VALUES (?, ?, ?)");
    int64_t correlation_id = 1;
    auto add_correlations = [&](int entry_type, size_t entries) {
        for (size_t i = 1; i <= entries; ++i) {
            correlation.bind(1, correlation_id++).bind(2, static_cast<int64_t>(i));
            correlation.bind(3, int64_t{entry_type}).step();
        }
    };
    add_correlations(report_format::kEntryTypeWeight, report.weights.size());
    add_correlations(report_format::kEntryTypeActivation, report.activations.size());
    writeFrames(db, "correlation_id", [&](const auto& add) {
        int64_t key = 1;
        for (const WeightEntry& entry : report.weights) {
            add(key++, entry.frames);
        }
        for (const ActivationEntry& entry : report.activations) {
            add(key++, entry.frames);
        }
    });
}

// Each table is written in a pass of its own, in the order the report browser reads them: the
// entries and their modules at open, the frames after the first screens, the spreads only when
// runs are compared. A table's pages then lie together in the file, in the order they are read,
// so a cold open reads what it needs first and in sequence. Written entry by entry, each table's
// pages would be spread over the whole file, and a cold open slower (bench/report_open
// --modules).
void fillTimeReport(SqliteDb& db, const TimeReport& report) {
    createTables(db, std::begin(schema::kTimeTables), std::end(schema::kTimeTables));
    db.exec(schema::kTimeLibraryFramesTable);
    db.exec(schema::kTimeEntryModulesTable);
    SqliteStatement entry(db,
                          "INSERT INTO run_time_entries (id, operation_name, forward_ms, "
                          "backward_ms) VALUES (?, ?, ?, ?)");
    int64_t id = 1;
    for (const RunTimeEntry& e : report.entries) {
        entry.bind(1, id++).bind(2, e.operation_name).bind(3, e.forward_ms);
        if (e.backward_ms) {
            entry.bind(4, *e.backward_ms);
        } else {
            entry.bindNull(4);
        }
        entry.step();
    }
    SqliteStatement module(db,
                           "INSERT INTO trainscope_entry_modules (entry_id, module_path) "
                           "VALUES (?, ?)");
    id = 1;
    for (const RunTimeEntry& e : report.entries) {
        if (!e.module_path.empty()) {  // an entry outside any submodule has no row
            module.bind(1, id).bind(2, e.module_path).step();
        }
        ++id;
    }
    db.exec(schema::kEntryPartsTable);
    SqliteStatement part(db, "INSERT INTO trainscope_entry_parts (entry_id, part) VALUES (?, ?)");
    id = 1;
    for (const RunTimeEntry& e : report.entries) {
        if (e.part != StepPart::Forward) {  // a forward operation has no row
            part.bind(1, id).bind(2, std::string(stepPartName(e.part))).step();
        }
        ++id;
    }
    const bool device_times = std::any_of(report.entries.begin(), report.entries.end(),
                                          [](const RunTimeEntry& e) { return e.cpu.has_value(); });
    if (device_times) {
        db.exec(schema::kEntryCpuTimesTable);
        SqliteStatement cpu(db,
                            "INSERT INTO trainscope_entry_cpu_times (entry_id, forward_ms, "
                            "backward_ms) VALUES (?, ?, ?)");
        id = 1;
        for (const RunTimeEntry& e : report.entries) {
            if (e.cpu) {
                cpu.bind(1, id).bind(2, e.cpu->forward_ms);
                if (e.backward_ms) {
                    cpu.bind(3, e.cpu->backward_ms);
                } else {
                    cpu.bindNull(3);
                }
                cpu.step();
            }
            ++id;
        }
    }
    RunMetadata metadata = report.metadata;
    metadata[report_format::kIterationMsKey] = decimalText(report.iteration_ms);
    metadata[report_format::kIterationMinMsKey] = decimalText(report.iteration_spread.min_ms);
    metadata[report_format::kIterationMaxMsKey] = decimalText(report.iteration_spread.max_ms);
    insertMetadata(db, metadata);
    writeFrames(db, "entry_id", [&](const auto& add) {
        int64_t key = 1;
        for (const RunTimeEntry& e : report.entries) {
            add(key++, e.frames);
        }
    });
    db.exec(schema::kTimeSpreadTable);
    SqliteStatement spread(db,
                           "INSERT INTO trainscope_time_spread (entry_id, forward_min_ms, "
                           "forward_max_ms, backward_min_ms, backward_max_ms) "
                           "VALUES (?, ?, ?, ?, ?)");
    id = 1;
    for (const RunTimeEntry& e : report.entries) {
        spread.bind(1, id++).bind(2, e.forward_spread.min_ms).bind(3, e.forward_spread.max_ms);
        if (e.backward_spread) {
            spread.bind(4, e.backward_spread->min_ms).bind(5, e.backward_spread->max_ms);
        } else {
            spread.bindNull(4).bindNull(5);
        }
        spread.step();
    }
    if (!report.collectives.empty()) {
        db.exec(schema::kCollectivesTable);
        SqliteStatement collective(
            db,
            "INSERT INTO trainscope_collectives (id, operation_name, start_ms, duration_ms, "
            "bytes, duration_min_ms, duration_max_ms, process_group, group_size, overlapped_ms) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        id = 1;
        for (const CollectiveEntry& c : report.collectives) {
            collective.bind(1, id++).bind(2, c.operation_name).bind(3, c.start_ms);
            collective.bind(4, c.duration_ms).bind(5, c.bytes).bind(6, c.spread.min_ms);
            collective.bind(7, c.spread.max_ms);
            if (c.process_group.empty()) {
                collective.bindNull(8);
            } else {
                collective.bind(8, c.process_group);
            }
            if (c.group_size > 0) {
                collective.bind(9, c.group_size);
            } else {
                collective.bindNull(9);
            }
            if (c.overlapped_ms) {
                collective.bind(10, *c.overlapped_ms);
            } else {
                collective.bindNull(10);
            }
            collective.step();
        }
    }
    if (!report.compilations.empty()) {
        db.exec(schema::kCompilationsTable);
        SqliteStatement compilation(
            db,
            "INSERT INTO trainscope_compilations (id, compile_id, kind, function, file_path, "
            "line_number, step, start_ns, duration_ms, graph_break, recompiled_because) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        id = 1;
        for (const Compilation& c : report.compilations) {
            compilation.bind(1, id++).bind(2, c.compile_id).bind(3, c.kind).bind(4, c.function);
            compilation.bind(5, c.file_path).bind(6, int64_t{c.line_number}).bind(7, c.step);
            compilation.bind(8, c.start_ns).bind(9, c.ms()).bind(10, c.graph_break);
            compilation.bind(11, c.recompiled_because).step();
        }
    }
    if (!report.kernels.empty()) {
        db.exec(schema::kCompiledKernelsTable);
        SqliteStatement kernel(
            db,
            "INSERT INTO trainscope_compiled_kernels (entry_id, compile_id, graph, "
            "fused_operations, calls, unattributed_because, input_shapes) VALUES (?, ?, ?, ?, ?, "
            "?, ?)");
        for (const KernelEntry& k : report.kernels) {
            std::string fused;
            for (const std::string& op : k.fused_ops)
                fused += (fused.empty() ? "" : ",") + op;
            kernel.bind(1, static_cast<int64_t>(k.entry) + 1).bind(2, k.compile_id);
            kernel.bind(3, std::string(k.backward ? "backward" : "forward")).bind(4, fused);
            kernel.bind(5, k.calls).bind(6, k.unattributed).bind(7, k.input_shapes).step();
        }
    }
}

// STRING_IDS: each distinct string once, numbered from the start of its range.
class StringIds {
  public:
    StringIds(SqliteDb& db, int64_t first_id)
        : insert_(db, "INSERT INTO STRING_IDS (id, value) VALUES (?, ?)"), next_(first_id) {}

    int64_t operator()(const std::string& value) {
        const auto [it, added] = ids_.try_emplace(value, next_);
        if (added) {
            insert_.bind(1, next_++).bind(2, value).step();
        }
        return it->second;
    }

  private:
    SqliteStatement insert_;
    int64_t next_;
    std::unordered_map<std::string, int64_t> ids_;
};

// A report's texts as STRING_IDS numbers of one range, each looked up once.
class ReportTextIds {
  public:
    ReportTextIds(StringIds& ids, const TimelineTexts& texts)
        : ids_(ids), texts_(texts), known_(texts.size(), -1) {}
    int64_t operator()(TextId id) {
        int64_t& known = known_.at(id);
        if (known < 0) {
            known = ids_(texts_[id]);
        }
        return known;
    }

  private:
    StringIds& ids_;
    const TimelineTexts& texts_;
    std::vector<int64_t> known_;
};

void bindOptional(SqliteStatement& statement, int index, const std::optional<int64_t>& value) {
    if (value) {
        statement.bind(index, *value);
    } else {
        statement.bindNull(index);
    }
}

// STEP_TIME, and each step's collectives.
void writeSteps(SqliteDb& db, const std::vector<TimelineStep>& steps,
                const std::vector<StepCollective>& collectives) {
    SqliteStatement step(db, "INSERT INTO STEP_TIME (id, startNs, endNs) VALUES (?, ?, ?)");
    for (const TimelineStep& s : steps) {
        step.bind(1, s.id).bind(2, s.start_ns).bind(3, s.end_ns).step();
    }
    SqliteStatement collective(db,
                               "INSERT INTO trainscope_step_collectives (step_id, name, bytes, "
                               "start_ms, duration_ms) VALUES (?, ?, ?, ?, ?)");
    for (const StepCollective& c : collectives) {
        collective.bind(1, c.step).bind(2, c.name).bind(3, c.bytes).bind(4, c.start_ms);
        collective.bind(5, c.duration_ms).step();
    }
}

// A timeline's tables, written part by part (its calls, its memory, the rest) so that a session
// can write each part of a large step's record as soon as it is built (staged_timeline.h).
class TimelineTables {
  public:
    explicit TimelineTables(SqliteDb& db)
        : db_(withTables(db)),
          framework_(db_, schema::kFrameworkStringIds),
          memory_strings_(db_, schema::kMemoryStringIds) {}

    // PYTORCH_API, with the calls' modules.
    void writeCalls(const TimelineReport& report);
    // The callchains that the calls name, and CONNECTION_IDS.
    void writeCallLinks(const TimelineReport& report);
    // MEMORY_RECORD.
    void writeSamples(const TimelineReport& report);
    // OP_MEMORY.
    void writeBlocks(const TimelineReport& report);
    // STEP_TIME, the phases, RANK_DEVICE_MAP, ENUM_API_TYPE and META_DATA.
    void writeRest(const TimelineReport& report);
    // CANN_API, TASK and COMPUTE_TASK_INFO, and the launches' CONNECTION_IDS (none for a run
    // without device work).
    void writeDeviceWork(const TimelineReport& report);

  private:
    static SqliteDb& withTables(SqliteDb& db) {
        for (const char* table : schema::kTimelineTables) {
            db.exec(table);
        }
        for (const char* table : schema::kTimelineExtraTables) {
            db.exec(table);
        }
        db.exec("PRAGMA user_version = " + std::to_string(schema::kUserVersion));
        return db;
    }
    SqliteDb& db_;  // first: the string tables insert into it
    StringIds framework_;
    StringIds memory_strings_;
};

void TimelineTables::writeCallLinks(const TimelineReport& report) {
    SqliteDb& db = db_;
    StringIds& framework = framework_;
    // Callchains: project frames as "path(line)", innermost first; library frames aside.
    SqliteStatement chain(
        db, "INSERT INTO PYTORCH_CALLCHAINS (id, stack, stackDepth) VALUES (?, ?, ?)");
    SqliteStatement library(db,
                            "INSERT INTO trainscope_library_frames (callchain_id, stack_depth, "
                            "file_path, line_number, library_root) VALUES (?, ?, ?, ?, ?)");
    for (size_t id = 0; id < report.callchains.size(); ++id) {
        const StackTrace& frames = report.callchains[id];
        for (size_t depth = 0; depth < frames.size(); ++depth) {
            const StackFrame& frame = frames[depth];
            const auto chain_id = static_cast<int64_t>(id);
            const auto stack_depth = static_cast<int64_t>(depth);
            if (frame.isLibrary()) {
                library.bind(1, chain_id).bind(2, stack_depth).bind(3, frame.file_path.str());
                library.bind(4, int64_t{frame.line_number})
                    .bind(5, frame.library_root.str())
                    .step();
            } else {
                const int64_t text =
                    framework(frame.file_path + "(" + std::to_string(frame.line_number) + ")");
                chain.bind(1, chain_id).bind(2, text).bind(3, stack_depth).step();
            }
        }
    }
    SqliteStatement connection(db, "INSERT INTO CONNECTION_IDS (id, connectionId) VALUES (?, ?)");
    for (const auto& [forward, backward] : report.connections) {
        connection.bind(1, forward).bind(2, backward).step();
    }
}

void TimelineTables::writeCalls(const TimelineReport& report) {
    SqliteDb& db = db_;
    StringIds& framework = framework_;
    SqliteStatement api(db,
                        "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, connectionId, name, "
                        "sequenceNumber, fwdThreadId, inputDtypes, inputShapes, callchainId, "
                        "type) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    SqliteStatement module(db,
                           "INSERT INTO trainscope_api_modules (connection_id, module_path) "
                           "VALUES (?, ?)");
    char start[24], end[24];  // formatted in place: a 19-digit std::string would allocate
    auto text = [](char(&buffer)[24], int64_t value) {
        return std::string_view(buffer, std::to_chars(buffer, buffer + 24, value).ptr - buffer);
    };
    ReportTextIds frameworkText(framework, report.texts);
    auto optional = [](int64_t value) {
        return value >= 0 ? std::optional<int64_t>(value) : std::nullopt;
    };
    for (const ApiCall& call : report.calls) {
        // torch_npu stores these two as text; so do we, for readers written against its files.
        api.bind(1, text(start, call.start_ns)).bind(2, text(end, call.end_ns));
        api.bind(3, static_cast<int64_t>(call.global_tid)).bind(4, call.connection_id);
        api.bind(5, frameworkText(call.name));
        bindOptional(api, 6, optional(call.sequence_number));
        api.bind(7, static_cast<int64_t>(call.fwd_thread_id));
        api.bind(8, frameworkText(call.input_dtypes)).bind(9, frameworkText(call.input_shapes));
        bindOptional(api, 10, optional(call.callchain));
        api.bind(11, int64_t{call.api_type}).step();
        if (call.module_path != 0) {
            module.bind(1, call.connection_id).bind(2, report.texts[call.module_path]).step();
        }
    }
}

void TimelineTables::writeDeviceWork(const TimelineReport& report) {
    if (report.device_tasks.empty() && report.launches.empty()) {
        return;
    }
    SqliteDb& db = db_;
    for (const char* table : schema::kTimelineDeviceTables) {
        db.exec(table);
    }
    StringIds device_strings(db, 0);
    ReportTextIds deviceText(device_strings, report.texts);
    SqliteStatement launch(db,
                           "INSERT INTO CANN_API (startNs, endNs, type, globalTid, connectionId, "
                           "name) VALUES (?, ?, ?, ?, ?, ?)");
    for (const LaunchCall& l : report.launches) {
        launch.bind(1, l.start_ns).bind(2, l.end_ns).bind(3, int64_t{schema::kRuntimeApiType});
        launch.bind(4, static_cast<int64_t>(l.global_tid)).bind(5, l.connection_id);
        launch.bind(6, deviceText(l.name)).step();
    }
    SqliteStatement task(db,
                         "INSERT INTO TASK (startNs, endNs, deviceId, connectionId, globalTaskId, "
                         "globalPid, taskType, contextId, streamId, taskId, modelId) "
                         "VALUES (?, ?, ?, ?, ?, NULL, ?, NULL, ?, ?, NULL)");
    SqliteStatement info(db, "INSERT INTO COMPUTE_TASK_INFO (name, globalTaskId) VALUES (?, ?)");
    int64_t id = 0;
    for (const DeviceTask& t : report.device_tasks) {
        task.bind(1, t.start_ns).bind(2, t.end_ns).bind(3, t.device_id);
        bindOptional(task, 4, t.connection_id >= 0 ? std::optional(t.connection_id) : std::nullopt);
        task.bind(5, id).bind(6, deviceText(t.type)).bind(7, t.stream_id).bind(8, id).step();
        info.bind(1, deviceText(t.name)).bind(2, id).step();
        ++id;
    }
    SqliteStatement connection(db, "INSERT INTO CONNECTION_IDS (id, connectionId) VALUES (?, ?)");
    for (const auto& [operation, launched] : report.launch_links) {
        connection.bind(1, operation).bind(2, launched).step();
    }
}

void TimelineTables::writeSamples(const TimelineReport& report) {
    SqliteDb& db = db_;
    StringIds& memory_strings = memory_strings_;
    const int64_t device = report.device_id;
    const int64_t component = memory_strings(report.memory_component);
    SqliteStatement sample(db,
                           "INSERT INTO MEMORY_RECORD (component, timestamp, totalAllocated, "
                           "totalReserved, totalActive, streamPtr, deviceId) "
                           "VALUES (?, ?, ?, ?, ?, NULL, ?)");
    for (const MemorySample& m : report.memory) {
        sample.bind(1, component).bind(2, m.timestamp_ns).bind(3, m.total_allocated);
        sample.bind(4, m.total_reserved).bind(5, m.total_active).bind(6, device).step();
    }
}

void TimelineTables::writeBlocks(const TimelineReport& report) {
    SqliteDb& db = db_;
    StringIds& memory_strings = memory_strings_;
    const int64_t device = report.device_id;
    SqliteStatement block(
        db,
        "INSERT INTO OP_MEMORY (name, size, allocationTime, releaseTime, activeReleaseTime, "
        "duration, activeDuration, allocationTotalAllocated, allocationTotalReserved, "
        "allocationTotalActive, releaseTotalAllocated, releaseTotalReserved, releaseTotalActive, "
        "streamPtr, deviceId) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)");
    for (const BlockLifetime& b : report.blocks) {
        block.bind(1, memory_strings(report.texts[b.operation_name])).bind(2, b.size_bytes);
        block.bind(3, b.allocation.timestamp_ns);
        if (b.release) {
            const int64_t duration = b.release->timestamp_ns - b.allocation.timestamp_ns;
            block.bind(4, b.release->timestamp_ns).bind(5, b.release->timestamp_ns);
            block.bind(6, duration).bind(7, duration);
        } else {
            for (int column = 4; column <= 7; ++column) {
                block.bindNull(column);
            }
        }
        block.bind(8, b.allocation.total_allocated).bind(9, b.allocation.total_reserved);
        block.bind(10, b.allocation.total_active);
        if (b.release) {
            block.bind(11, b.release->total_allocated).bind(12, b.release->total_reserved);
            block.bind(13, b.release->total_active);
        } else {
            block.bindNull(11).bindNull(12).bindNull(13);
        }
        block.bind(14, device).step();
    }
}

void TimelineTables::writeRest(const TimelineReport& report) {
    SqliteDb& db = db_;
    writeSteps(db, report.steps, report.step_collectives);
    SqliteStatement phase(
        db, "INSERT INTO trainscope_phases (name, start_ns, end_ns) VALUES (?, ?, ?)");
    for (const TimelinePhase& p : report.phases) {
        phase.bind(1, p.name).bind(2, p.start_ns).bind(3, p.end_ns).step();
    }
    SqliteStatement rank(db, "INSERT INTO RANK_DEVICE_MAP (rankId, deviceId) VALUES (?, ?)");
    rank.bind(1, int64_t{report.rank})
        .bind(2, int64_t{report.device_id})
        .step();  // -1: not a distributed run
    SqliteStatement api_type(db, "INSERT INTO ENUM_API_TYPE (id, name) VALUES (?, ?)");
    for (const auto& [id, name] : schema::kApiTypes) {
        api_type.bind(1, int64_t{id}).bind(2, std::string(name)).step();
    }
    SqliteStatement meta(db, "INSERT INTO META_DATA (name, value) VALUES (?, ?)");
    const std::string version = schema::kTimelineSchemaVersion;
    RunMetadata metadata = report.metadata;
    metadata["SCHEMA_VERSION"] = version;
    metadata["SCHEMA_VERSION_MAJOR"] = version.substr(0, version.find('.'));
    metadata["SCHEMA_VERSION_MINOR"] = "0";
    metadata["SCHEMA_VERSION_MICRO"] = "0";
    for (const auto& [key, value] : metadata) {
        meta.bind(1, key).bind(2, value).step();
    }
}

void fillTimelineReport(SqliteDb& db, const TimelineReport& report) {
    TimelineTables tables(db);
    tables.writeCallLinks(report);
    tables.writeCalls(report);
    tables.writeSamples(report);
    tables.writeBlocks(report);
    tables.writeDeviceWork(report);
    tables.writeRest(report);
}

// Writes one report into a staged file; the caller commits it.
template <typename Report, typename Fill>
std::unique_ptr<StagedFile> stage(const Report& report, const std::string& path, Fill fill) {
    return writeStaged(path, [&](SqliteDb& db) { fill(db, report); });
}

}  // namespace

void writeMemoryReport(const MemoryReport& report, const std::string& path, Overwrite overwrite) {
    writeReports(ReportSet{&report, path, nullptr, {}, nullptr, {}, {}}, overwrite);
}

void writeTimeReport(const TimeReport& report, const std::string& path, Overwrite overwrite) {
    writeReports(ReportSet{nullptr, {}, &report, path, nullptr, {}, {}}, overwrite);
}

void writeTimelineReport(const TimelineReport& report, const std::string& path,
                         Overwrite overwrite) {
    writeReports(ReportSet{nullptr, {}, nullptr, {}, &report, path, {}}, overwrite);
}

namespace {

// A staged file's database, in a transaction of its own (it needs no rollback journal: a
// staged file is thrown away whole when anything fails).
SqliteDb& begun(SqliteDb& db) {
    db.exec("PRAGMA journal_mode = OFF");
    db.exec("BEGIN");
    return db;
}

// Each part names the file it was for when it fails, as writeStaged's errors do.
template <typename Write>
void writing(const std::string& path, Write write) {
    try {
        write();
    } catch (const Error& e) {
        throw cannotWrite(path, e);
    }
}

}  // namespace

struct StagedTimelineWriter::Impl {
    explicit Impl(const std::string& path)
        : file(std::make_shared<StagedFile>(path)), db(file->tempPath()) {
        tables.emplace(begun(db));
    }
    std::shared_ptr<StagedFile> file;  // first: removed after the database is closed
    SqliteDb db;
    std::optional<TimelineTables> tables;  // its statements end before the database closes
};

StagedTimelineWriter::StagedTimelineWriter(const std::string& path) {
    writing(path, [&] { impl_ = std::make_unique<Impl>(path); });
}

StagedTimelineWriter::~StagedTimelineWriter() = default;

void StagedTimelineWriter::writeSamples(const TimelineReport& part) {
    writing(impl_->file->finalPath(), [&] { impl_->tables->writeSamples(part); });
}

void StagedTimelineWriter::writeBlocks(const TimelineReport& part) {
    writing(impl_->file->finalPath(), [&] { impl_->tables->writeBlocks(part); });
}

void StagedTimelineWriter::writeCalls(const TimelineReport& part) {
    writing(impl_->file->finalPath(), [&] { impl_->tables->writeCalls(part); });
}

void StagedTimelineWriter::writeCallLinks(const TimelineReport& part) {
    writing(impl_->file->finalPath(), [&] { impl_->tables->writeCallLinks(part); });
}

std::shared_ptr<StagedFile> StagedTimelineWriter::finish(const TimelineReport& rest) {
    writing(impl_->file->finalPath(), [&] {
        impl_->tables->writeDeviceWork(rest);
        impl_->tables->writeRest(rest);
        impl_->tables.reset();
        impl_->db.exec("COMMIT");
        impl_->db.close();
    });
    return impl_->file;
}

void addTimelineSteps(const StagedFile& file, const std::vector<TimelineStep>& steps,
                      const std::vector<StepCollective>& collectives) {
    writing(file.finalPath(), [&] {
        file.checkInPlace();  // else SQLite would make a new, empty file at its path
        SqliteDb db(file.tempPath());
        writeSteps(begun(db), steps, collectives);
        db.exec("COMMIT");
        db.close();
    });
}

StagedReports::StagedReports(std::vector<std::shared_ptr<StagedFile>> files)
    : files_(std::move(files)) {}

StagedReports::~StagedReports() = default;

void StagedReports::commit(Overwrite overwrite) {
    std::vector<StagedFile*> staged;
    for (const auto& file : files_) {
        staged.push_back(file.get());
    }
    commitTogether(staged, overwrite);
}

void checkOnlyReportsReplaced(const std::string& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) == 0) {
        return;  // nothing there (an empty file holds nothing to lose), or what checkOutputPath()
                 // refuses in any case
    }
    try {
        reportFileKind(path);
    } catch (const Error&) {
        throw Error("'" + path +
                    "' exists and is not a report; --force replaces reports, never another file");
    }
}

void checkReportOutput(const std::string& path, Overwrite overwrite) {
    checkOutputPath(path, Overwrite::Allow);  // the folder, a killed run's leftovers swept
    checkOnlyReportsReplaced(path);
    if (overwrite == Overwrite::Refuse) {  // an existing report too
        checkOutputPath(path, overwrite);
    }
}

std::unique_ptr<StagedReports> stageReports(const ReportSet& set, Overwrite overwrite) {
    // Every output is checked before any report is written.
    if (set.memory) {
        checkReportOutput(set.memory_path, overwrite);
    }
    if (set.time) {
        checkReportOutput(set.time_path, overwrite);
    }
    if (set.timeline) {
        checkReportOutput(set.timeline_path, overwrite);
    }
    if (set.timeline_file) {
        checkReportOutput(set.timeline_file->finalPath(), overwrite);
    }
    std::vector<std::shared_ptr<StagedFile>> files;
    if (set.memory) {
        files.push_back(stage(*set.memory, set.memory_path, fillMemoryReport));
    }
    if (set.time) {
        files.push_back(stage(*set.time, set.time_path, fillTimeReport));
    }
    // A timeline complete: what its summary reads of its large tables kept in it (`show` of a
    // job's ranks reads a few rows of each instead).
    auto keepScans = [](const StagedFile& timeline) {
        writing(timeline.finalPath(), [&] {
            timeline.checkInPlace();  // else SQLite would make a new, empty file at its path
            keepTimelineScans(timeline.tempPath());
        });
    };
    if (set.timeline) {
        files.push_back(stage(*set.timeline, set.timeline_path, fillTimelineReport));
        keepScans(*files.back());
    }
    if (set.timeline_file) {
        keepScans(*set.timeline_file);
        files.push_back(set.timeline_file);
    }
    return std::make_unique<StagedReports>(std::move(files));
}

void writeReports(const ReportSet& set, Overwrite overwrite) {
    stageReports(set, overwrite)->commit(overwrite);
}

}  // namespace trainscope
