// SPDX-License-Identifier: Apache-2.0
// The one home of the report schemas. The standard tables are a contract with Skyline and
// DeepView.Profile (docs/report-formats.md): their DDL must not change.
#pragma once

#include <cstdint>
#include <utility>

namespace trainscope::schema {

constexpr int kUserVersion = 1;

// Memory report (Skyline / DeepView.Profile).
constexpr const char* kMemoryTables[] = {
    "CREATE TABLE weight_entries (id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
    "size_bytes INTEGER NOT NULL, grad_size_bytes INTEGER NOT NULL)",
    "CREATE TABLE activation_entries (id INTEGER PRIMARY KEY, "
    "operation_name TEXT NOT NULL, size_bytes INTEGER NOT NULL)",
    "CREATE TABLE entry_types (entry_type INTEGER PRIMARY KEY, name TEXT NOT NULL)",
    "CREATE TABLE stack_correlation (correlation_id INTEGER PRIMARY KEY, "
    "entry_id INTEGER NOT NULL, entry_type INTEGER NOT NULL, "
    "UNIQUE (correlation_id, entry_id))",
    "CREATE UNIQUE INDEX entry_type_and_id ON stack_correlation(entry_type, entry_id)",
    "CREATE TABLE stack_frames (correlation_id INTEGER NOT NULL, "
    "ordering INTEGER NOT NULL, file_path TEXT NOT NULL, "
    "line_number INTEGER NOT NULL, PRIMARY KEY (correlation_id, ordering))",
    "CREATE TABLE misc_sizes (key TEXT PRIMARY KEY, size_bytes INT NOT NULL)",
};

// Run time report (DeepView.Profile).
constexpr const char* kTimeTables[] = {
    "CREATE TABLE run_time_entries (id INTEGER PRIMARY KEY, "
    "operation_name TEXT NOT NULL, forward_ms REAL NOT NULL, backward_ms REAL)",
    "CREATE TABLE stack_frames (ordering INTEGER NOT NULL, file_path TEXT NOT NULL, "
    "line_number INTEGER NOT NULL, entry_id INTEGER NOT NULL, "
    "PRIMARY KEY (entry_id, ordering))",
};

// TrainScope's own tables (allowed as extra tables). Library frames: frames of code outside the
// project root, which the standard stack_frames must not hold. Their `ordering` shares one
// sequence with the entry's stack_frames rows, so the two merge into the full stack.
constexpr const char* kMemoryLibraryFramesTable =
    "CREATE TABLE trainscope_library_frames (correlation_id INTEGER NOT NULL, "
    "ordering INTEGER NOT NULL, file_path TEXT NOT NULL, line_number INTEGER NOT NULL, "
    "library_root TEXT NOT NULL, PRIMARY KEY (correlation_id, ordering))";
constexpr const char* kTimeLibraryFramesTable =
    "CREATE TABLE trainscope_library_frames (entry_id INTEGER NOT NULL, "
    "ordering INTEGER NOT NULL, file_path TEXT NOT NULL, line_number INTEGER NOT NULL, "
    "library_root TEXT NOT NULL, PRIMARY KEY (entry_id, ordering))";

// TrainScope's own tables of module paths (docs/report-formats.md): the module of each entry,
// and what each module held at the instant of the peak.
constexpr const char* kMemoryEntryModulesTable =
    "CREATE TABLE trainscope_entry_modules (entry_type INTEGER NOT NULL, "
    "entry_id INTEGER NOT NULL, module_path TEXT NOT NULL, PRIMARY KEY (entry_type, entry_id))";
constexpr const char* kTimeEntryModulesTable =
    "CREATE TABLE trainscope_entry_modules (entry_id INTEGER PRIMARY KEY, "
    "module_path TEXT NOT NULL)";
// The operation that allocated each activation, by its number in the iteration (the run time
// report's entry id): the same operation has the same number in both reports.
constexpr const char* kActivationOperationsTable =
    "CREATE TABLE trainscope_activation_operations (entry_id INTEGER PRIMARY KEY, "
    "operation_number INTEGER NOT NULL)";
// The spread of each run time entry's times over the measured iterations (their median is
// run_time_entries' figure): what tells a real difference between two runs from noise.
constexpr const char* kTimeSpreadTable =
    "CREATE TABLE trainscope_time_spread (entry_id INTEGER PRIMARY KEY, "
    "forward_min_ms REAL NOT NULL, forward_max_ms REAL NOT NULL, backward_min_ms REAL, "
    "backward_max_ms REAL)";
// The step's collectives, as their communication backend ran them (CollectiveEntry): medians
// over the timed steps, and their spread; a GPU trace's NCCL kernels with their process group,
// its size and the time computation ran beside each (NULL: not known).
constexpr const char* kCollectivesTable =
    "CREATE TABLE trainscope_collectives (id INTEGER PRIMARY KEY, operation_name TEXT NOT NULL, "
    "start_ms REAL NOT NULL, duration_ms REAL NOT NULL, bytes INTEGER NOT NULL, "
    "duration_min_ms REAL NOT NULL, duration_max_ms REAL NOT NULL, process_group TEXT, "
    "group_size INTEGER, overlapped_ms REAL)";
// What torch.compile compiled from the session's start (Compilation): when (the step, by
// STEP_TIME's numbering; 0 before the first observed step), how long, what, and why.
constexpr const char* kCompilationsTable =
    "CREATE TABLE trainscope_compilations (id INTEGER PRIMARY KEY, compile_id TEXT NOT NULL, "
    "kind TEXT NOT NULL, function TEXT NOT NULL, file_path TEXT NOT NULL, "
    "line_number INTEGER NOT NULL, step INTEGER NOT NULL, start_ns INTEGER NOT NULL, "
    "duration_ms REAL NOT NULL, graph_break TEXT NOT NULL, recompiled_because TEXT NOT NULL)";
// The run time report's entries that are a compiled region's kernels (KernelEntry): the region,
// its graph (forward or backward), the ATen operations the kernel computes (comma-separated),
// its calls per step, why it has no module and line ("" when it has), and its inputs' shapes
// where Inductor knows them ("4,32;32,128"; "" where not).
constexpr const char* kCompiledKernelsTable =
    "CREATE TABLE trainscope_compiled_kernels (entry_id INTEGER PRIMARY KEY, "
    "compile_id TEXT NOT NULL, graph TEXT NOT NULL, fused_operations TEXT NOT NULL, "
    "calls INTEGER NOT NULL, unattributed_because TEXT NOT NULL, input_shapes TEXT NOT NULL)";
// The part of the step of each run time entry that is not a forward operation: 'after_backward',
// 'optimizer' or 'recomputed' (report_format.h).
constexpr const char* kEntryPartsTable =
    "CREATE TABLE trainscope_entry_parts (entry_id INTEGER PRIMARY KEY, part TEXT NOT NULL)";
// Where the run time entries' times are the device's (operation_times = 'device'): each entry's
// CPU times, its forward calls' and its backward nodes' spans (NULL: no backward).
constexpr const char* kEntryCpuTimesTable =
    "CREATE TABLE trainscope_entry_cpu_times (entry_id INTEGER PRIMARY KEY, "
    "forward_ms REAL NOT NULL, backward_ms REAL)";
// What each weight entry holds beyond Skyline's columns: its optimizer state (the optimizer's
// tensors for it, such as Adam's two moments) and the other names of a tied weight (", ").
constexpr const char* kWeightDetailsTable =
    "CREATE TABLE trainscope_weight_details (entry_id INTEGER PRIMARY KEY, "
    "optimizer_state_bytes INTEGER NOT NULL, aliases TEXT NOT NULL)";
// The weight entries that are this rank's shards of a parameter sharded over the job's ranks
// (FSDP2): the whole parameter's bytes and its layout ("Shard(dim=0) over 2 ranks").
constexpr const char* kShardedWeightsTable =
    "CREATE TABLE trainscope_sharded_weights (entry_id INTEGER PRIMARY KEY, "
    "whole_bytes INTEGER NOT NULL, layout TEXT NOT NULL)";
// An FSDP2 job's units (each module that fully_shard sharded) as this rank held them in the
// memory step (reports.h, FsdpUnitEntry).
constexpr const char* kFsdpUnitsTable =
    "CREATE TABLE trainscope_fsdp_units (id INTEGER PRIMARY KEY, unit TEXT NOT NULL, "
    "parameters INTEGER NOT NULL, sharded_bytes INTEGER NOT NULL, "
    "unsharded_bytes INTEGER NOT NULL, gathers INTEGER NOT NULL, prefetched INTEGER NOT NULL, "
    "gathered_ms REAL NOT NULL, unsharded_at_peak_bytes INTEGER NOT NULL, "
    "reduce_scatter_bytes INTEGER NOT NULL, gather_collective TEXT NOT NULL, "
    "gather_collectives INTEGER NOT NULL, gather_collective_bytes INTEGER, "
    "gather_collective_ms REAL NOT NULL, reduce_collective TEXT NOT NULL, "
    "reduce_collectives INTEGER NOT NULL, reduce_collective_bytes INTEGER, "
    "reduce_collective_ms REAL NOT NULL)";
constexpr const char* kPeakByModuleTable =
    "CREATE TABLE trainscope_peak_by_module (module_path TEXT NOT NULL, kind TEXT NOT NULL, "
    "size_bytes INTEGER NOT NULL, PRIMARY KEY (module_path, kind))";

// Timeline report: the Ascend PyTorch profiler's (torch_npu's) database, with the exact DDL that
// torch_npu writes (declared types included: PYTORCH_API's times are TEXT).
constexpr const char* kTimelineTables[] = {
    "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT)",
    "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId "
    "INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, "
    "inputShapes INTEGER, callchainId INTEGER, type INTEGER)",
    "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER)",
    "CREATE TABLE PYTORCH_CALLCHAINS (id INTEGER, stack INTEGER, stackDepth INTEGER)",
    "CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER, totalAllocated INTEGER, "
    "totalReserved INTEGER, totalActive INTEGER, streamPtr INTEGER, deviceId INTEGER)",
    "CREATE TABLE OP_MEMORY (name INTEGER, size INTEGER, allocationTime INTEGER, releaseTime "
    "INTEGER, activeReleaseTime INTEGER, duration INTEGER, activeDuration INTEGER, "
    "allocationTotalAllocated INTEGER, allocationTotalReserved INTEGER, allocationTotalActive "
    "INTEGER, releaseTotalAllocated INTEGER, releaseTotalReserved INTEGER, releaseTotalActive "
    "INTEGER, streamPtr INTEGER, deviceId INTEGER)",
    "CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER)",
    "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER)",
    "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT)",
    "CREATE TABLE META_DATA (name TEXT,value TEXT)",
};

// The device's side, as torch_npu writes it: the runtime's calls that launch device work, the
// work on each stream, and each task's name.
constexpr const char* kTimelineDeviceTables[] = {
    "CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,"
    "connectionId INTEGER PRIMARY KEY,name INTEGER)",
    "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,"
    "globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,"
    "taskId INTEGER,modelId INTEGER)",
    "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim "
    "INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,"
    "inputDataTypes INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,"
    "outputShapes INTEGER,attrInfo INTEGER)",
    "CREATE INDEX TaskIndex ON TASK (startNs,globalTaskId)",
};
// ENUM_API_TYPE's runtime: a CANN_API row's type.
constexpr int kRuntimeApiType = 5000;

// The timeline's own tables: each call's module path (by PYTORCH_API.connectionId, unique per
// call in TrainScope's files), the library frames of a callchain (stackDepth shares one
// sequence with PYTORCH_CALLCHAINS), and the iteration's phases.
constexpr const char* kTimelineExtraTables[] = {
    "CREATE TABLE trainscope_api_modules (connection_id INTEGER PRIMARY KEY, "
    "module_path TEXT NOT NULL)",
    "CREATE TABLE trainscope_library_frames (callchain_id INTEGER NOT NULL, "
    "stack_depth INTEGER NOT NULL, file_path TEXT NOT NULL, line_number INTEGER NOT NULL, "
    "library_root TEXT NOT NULL, PRIMARY KEY (callchain_id, stack_depth))",
    "CREATE TABLE trainscope_phases (name TEXT NOT NULL, start_ns INTEGER NOT NULL, "
    "end_ns INTEGER NOT NULL)",
    "CREATE TABLE trainscope_step_collectives (step_id INTEGER NOT NULL, name TEXT NOT NULL, "
    "bytes INTEGER NOT NULL, start_ms REAL NOT NULL, duration_ms REAL NOT NULL)",
};

// ENUM_API_TYPE, as torch_npu fills it.
constexpr std::pair<int, const char*> kApiTypes[] = {
    {5000, "runtime"}, {5500, "hccl"},   {10000, "node"},  {15000, "model"}, {20000, "acl"},
    {50001, "op"},     {50002, "queue"}, {50003, "trace"}, {50004, "mstx"},
};

// STRING_IDS ranges: device (CANN, tasks) strings from 0, framework (PyTorch) strings, and memory
// strings.
constexpr int64_t kFrameworkStringIds = int64_t{1} << 28;
constexpr int64_t kMemoryStringIds = int64_t{1} << 29;
constexpr const char* kTimelineSchemaVersion = "1.0.0";

// TrainScope's own table, in both reports: facts about the run (allowed as an extra table).
// The batch-size sweep (PREFIX.sweep.sqlite): each batch size's measurement ('measured',
// 'out_of_memory' without figures, or 'verified': the predicted largest batch measured), and
// the lines fitted to them ('peak_bytes', 'activation_bytes', 'iteration_ms' against the batch
// size). The budget and the largest batch are metadata.
constexpr const char* kSweepTables[] = {
    "CREATE TABLE trainscope_sweep_points (batch_size INTEGER NOT NULL, outcome TEXT NOT NULL, "
    "peak_bytes INTEGER, activation_bytes INTEGER, weight_bytes INTEGER, iteration_ms REAL, "
    "samples_per_s REAL, PRIMARY KEY (batch_size, outcome))",
    "CREATE TABLE trainscope_sweep_fits (quantity TEXT PRIMARY KEY, intercept REAL NOT NULL, "
    "slope REAL NOT NULL, r_squared REAL NOT NULL, max_residual REAL NOT NULL, "
    "points INTEGER NOT NULL)",
};

// The what-ifs of `advise` (PREFIX.advice.sqlite): measured figures NULL where not verified.
constexpr const char* kWhatIfsTable =
    "CREATE TABLE trainscope_what_ifs (id INTEGER PRIMARY KEY, change TEXT NOT NULL, "
    "target TEXT NOT NULL, predicted_peak_bytes INTEGER NOT NULL, "
    "predicted_activation_bytes INTEGER NOT NULL, predicted_step_ms REAL, "
    "measured_peak_bytes INTEGER, measured_activation_bytes INTEGER, measured_step_ms REAL, "
    "why_not TEXT NOT NULL, source_file TEXT, source_line INTEGER, step_ratio REAL, "
    "step_ratio_low REAL, step_ratio_high REAL, step_pairs INTEGER, not_predicted TEXT)";

constexpr const char* kMetadataTable =
    "CREATE TABLE trainscope_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL)";

}  // namespace trainscope::schema
