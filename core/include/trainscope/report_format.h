// SPDX-License-Identifier: Apache-2.0
// The report format's names that writers and readers share: file suffixes, TrainScope's own
// tables, keys and entry types. One home for them, used by the engine, the app and the tests.
// The standard tables' DDL lives with the writer (core/report/schema.h); docs/report-formats.md
// describes both.
#pragma once

namespace trainscope::report_format {

// A run's reports: PREFIX.memory.sqlite, PREFIX.time.sqlite and PREFIX.timeline.sqlite.
inline constexpr char kMemorySuffix[] = ".memory.sqlite";
inline constexpr char kTimeSuffix[] = ".time.sqlite";
inline constexpr char kTimelineSuffix[] = ".timeline.sqlite";
// A batch-size sweep's report: PREFIX.sweep.sqlite.
inline constexpr char kSweepSuffix[] = ".sweep.sqlite";
inline constexpr char kAdviceSuffix[] = ".advice.sqlite";

// misc_sizes key of the memory report's peak.
inline constexpr char kPeakUsageKey[] = "peak_usage_bytes";

// misc_sizes keys of what was allocated at the instant of the peak; they sum to the peak.
inline constexpr char kPeakWeightsKey[] = "peak_weights_bytes";
inline constexpr char kPeakGradientsKey[] = "peak_gradients_bytes";
inline constexpr char kPeakOptimizerStateKey[] = "peak_optimizer_state_bytes";
inline constexpr char kPeakActivationsKey[] = "peak_activations_bytes";
inline constexpr char kPeakOtherKey[] = "peak_other_bytes";
// Of the peak's weights, FSDP's all-gathered parameters; of its gradients, FSDP's reduce-scatter
// buffers (a run without FSDP2 has neither key).
inline constexpr char kPeakUnshardedParametersKey[] = "peak_unsharded_parameter_bytes";
inline constexpr char kPeakReduceScatterKey[] = "peak_reduce_scatter_bytes";

// The operation name of memory allocated while no top-level operation ran (activation_entries,
// and the timeline's OP_MEMORY).
inline constexpr char kOutsideOperations[] = "(outside operations)";

// Appended to the name of an operation that an activation checkpoint's backward ran again
// ("aten::linear (recomputed)"): its time is backward time (run_time_entries.backward_ms).
inline constexpr char kRecomputedSuffix[] = " (recomputed)";

// The standard tables that TrainScope's readers rely on (Skyline's and DeepView's memory and run
// time reports; stack_frames is in both, with different columns).
inline constexpr char kWeightEntriesTable[] = "weight_entries";
inline constexpr char kActivationEntriesTable[] = "activation_entries";
inline constexpr char kStackCorrelationTable[] = "stack_correlation";
inline constexpr char kStackFramesTable[] = "stack_frames";
inline constexpr char kMiscSizesTable[] = "misc_sizes";
inline constexpr char kRunTimeEntriesTable[] = "run_time_entries";

// entry_types rows of the memory report (stack_correlation.entry_type), named as Skyline's
// and DeepView.Profile's report builders name them (their enum members' names).
inline constexpr int kEntryTypeWeight = 1;
inline constexpr int kEntryTypeActivation = 2;
inline constexpr char kEntryTypeWeightName[] = "Weight";
inline constexpr char kEntryTypeActivationName[] = "Activation";

// TrainScope's extra tables (other tools' reports lack them).
inline constexpr char kMetadataTable[] = "trainscope_metadata";
inline constexpr char kLibraryFramesTable[] = "trainscope_library_frames";
inline constexpr char kEntryModulesTable[] = "trainscope_entry_modules";
inline constexpr char kPeakByModuleTable[] = "trainscope_peak_by_module";
inline constexpr char kActivationOperationsTable[] = "trainscope_activation_operations";
inline constexpr char kWeightDetailsTable[] = "trainscope_weight_details";
inline constexpr char kShardedWeightsTable[] = "trainscope_sharded_weights";
inline constexpr char kFsdpUnitsTable[] = "trainscope_fsdp_units";
inline constexpr char kTimeSpreadTable[] = "trainscope_time_spread";
inline constexpr char kCollectivesTable[] = "trainscope_collectives";
inline constexpr char kCompilationsTable[] = "trainscope_compilations";
inline constexpr char kCompiledKernelsTable[] = "trainscope_compiled_kernels";
// The part of the step each run time entry ran in, where it is not the forward pass: forward_ms
// of such an entry is that part's time (reports.h, StepPart). Reports without the table, or an
// entry without a row, are forward operations.
inline constexpr char kEntryPartsTable[] = "trainscope_entry_parts";
inline constexpr char kPartAfterBackward[] = "after_backward";
inline constexpr char kPartOptimizer[] = "optimizer";
inline constexpr char kPartRecomputed[] = "recomputed";
// Why some compiled regions were not split into their kernels (code generated before the
// session, without Inductor's provenance), in the run time report's metadata.
inline constexpr char kCompiledKernelsNoteKey[] = "compiled_kernels";
// Facts of a distributed run: the process's rank and the job's number of ranks.
inline constexpr char kRankKey[] = "rank";
inline constexpr char kWorldSizeKey[] = "world_size";
// ...in the sweep report...
inline constexpr char kSweepPointsTable[] = "trainscope_sweep_points";
inline constexpr char kSweepFitsTable[] = "trainscope_sweep_fits";
inline constexpr char kWhatIfsTable[] = "trainscope_what_ifs";
inline constexpr char kBudgetBytesKey[] = "budget_bytes";
inline constexpr char kBudgetSourceKey[] = "budget_source";
inline constexpr char kLargestBatchKey[] = "largest_batch";
// ...and TrainScope's in the timeline report.
inline constexpr char kApiModulesTable[] = "trainscope_api_modules";
inline constexpr char kPhasesTable[] = "trainscope_phases";

// trainscope_metadata keys that the app and the CLI read back.
inline constexpr char kProjectRootKey[] = "project_root";
inline constexpr char kFramesNoteKey[] = "frames_note";
// A run time report whose timed steps did not all run the memory step's operations: how many
// and how they differed (each operation is timed over the steps that ran it).
inline constexpr char kDifferingStepsKey[] = "differing_steps";
// A run time report whose observed steps compiled (torch.compile): which, and what follows.
inline constexpr char kCompiledStepsKey[] = "compiled_steps";
// A memory report that lacks allocations, and why (torch's profiler took them).
inline constexpr char kMemoryNoteKey[] = "memory_note";
// A memory report's shared parameters: each other name of a tensor that several attributes
// name (tied weights), and the weight entry that holds it: "head.weight=wte.weight; ...".
inline constexpr char kWeightAliasesKey[] = "weight_aliases";
// A memory report of one rank of a job that shards its parameters (FSDP2): what share of the
// weights this rank holds, in one line.
inline constexpr char kShardingKey[] = "sharding";
// A CUDA run's device: its name and its memory in bytes; an imported GPU trace's also its
// streaming multiprocessors (deviceProperties' numSms).
inline constexpr char kDeviceNameKey[] = "device_name";
inline constexpr char kDeviceMemoryKey[] = "device_memory_bytes";
inline constexpr char kDeviceMultiprocessorsKey[] = "device_multiprocessors";
// The run time report's measured iteration (forward + backward, wall time, median), in ms:
// the operations' times usually add up to less (the work between them is nobody's).
// Reports imported from another tool's file: the file, and what it was ("torch.profiler trace",
// "memory snapshot").
inline constexpr char kImportedFromKey[] = "imported_from";
inline constexpr char kImportedFormatKey[] = "imported_format";
inline constexpr char kIterationMsKey[] = "iteration_ms";
// An imported trace recorded on a GPU: the device work it holds, and how much of it is joined to
// the operation that launched it (a count each; no keys: the trace holds none).
namespace device_work {
inline constexpr char kKernels[] = "device_kernels";
inline constexpr char kCopies[] = "device_copies";
inline constexpr char kSets[] = "device_sets";
inline constexpr char kStreams[] = "device_streams";
inline constexpr char kJoined[] = "device_tasks_joined";
// Without their launch in the trace: launched before it began, or a CUDA graph's replay.
inline constexpr char kWithoutLaunch[] = "device_tasks_without_launch";
inline constexpr char kOutsideOperations[] = "device_tasks_outside_operations";
// The listed step's device time (integer ns), from the first task it launched to the last one's
// end, as computation, communication (NCCL's kernels), copies and sets, and idle (each
// instant once, whatever runs on other streams: analysis/device_breakdown.h).
inline constexpr char kStepNs[] = "device_step_ns";
inline constexpr char kComputationNs[] = "device_computation_ns";
inline constexpr char kCommunicationNs[] = "device_communication_ns";
inline constexpr char kMemoryNs[] = "device_memory_ns";
inline constexpr char kIdleNs[] = "device_idle_ns";
// Communication while computation ran (counted in computation above): hidden behind it.
inline constexpr char kOverlappedNs[] = "device_communication_overlapped_ns";
}  // namespace device_work
// What the run time entries' forward_ms and backward_ms are the time of: "device" where they are
// the device's (the work each operation launched; the CPU's in trainscope_entry_cpu_times). No
// key: the CPU's, or as the report's device says (TrainScope's own CUDA runs time on the GPU).
inline constexpr char kOperationTimesKey[] = "operation_times";
inline constexpr char kDeviceTimes[] = "device";
inline constexpr char kEntryCpuTimesTable[] = "trainscope_entry_cpu_times";
// An imported trace without ProfilerStep marks: how its iterations were found.
inline constexpr char kImportedStepsKey[] = "imported_steps";
// ...and the fastest and slowest of the measured iterations, in ms.
inline constexpr char kIterationMinMsKey[] = "iteration_min_ms";
inline constexpr char kIterationMaxMsKey[] = "iteration_max_ms";

}  // namespace trainscope::report_format
