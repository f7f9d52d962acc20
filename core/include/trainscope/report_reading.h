// SPDX-License-Identifier: Apache-2.0
// Reading any report file back, without the app: the summary that `trainscope-cli show`
// prints, and the Chrome Trace Event export of a timeline. Report files are untrusted input:
// they are opened read-only (report/readonly_db.h) and a damaged or foreign file gets a
// trainscope::Error with one clear line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trainscope/overwrite.h"
#include "trainscope/reports.h"

namespace trainscope {

enum class ReportFileKind {
    Memory,    // weight_entries (Skyline's, DeepView's or ours)
    Time,      // run_time_entries
    Timeline,  // the Ascend timeline schema: ours, or torch_npu's ascend_pytorch_profiler_{rank}.db
};

struct NamedCount {
    std::string name;
    int64_t count = 0;
};

// Calls of one name, their durations summed (nested calls count inside their parents too).
struct OperationTotal {
    std::string name;
    int64_t calls = 0;
    int64_t total_ns = 0;
};

struct LargeAllocation {
    std::string operation;
    int64_t size_bytes = 0;
    int64_t allocated_ns = 0;
    std::optional<int64_t> released_ns;  // none: never freed in the recording
};

// MEMORY_RECORD's maxima for one component ('PTA', 'GE', 'PTA+GE', ...).
struct ComponentPeak {
    std::string component;
    int64_t records = 0;
    int64_t peak_allocated = 0, peak_reserved = 0, peak_active = 0;
    // Reserved memory holds what is allocated: none beside allocations says the recording
    // kept no reserved totals (a CPU trace's are 0), not that none was reserved.
    bool reservedRecorded() const { return peak_reserved > 0 || peak_allocated == 0; }
};

// The sharded parameters of one layout (trainscope_sharded_weights): how many, this rank's
// shards of them, and their whole bytes.
struct ShardedLayout {
    std::string layout;  // as the host named it: "Shard(dim=0) over 2 ranks"
    int64_t parameters = 0;
    int64_t held_bytes = 0, whole_bytes = 0;
};

struct ReportFileSummary {
    ReportFileKind kind = ReportFileKind::Memory;

    // Memory reports.
    std::optional<int64_t> peak_bytes;  // misc_sizes' peak_usage_bytes
    // What was allocated at the peak's instant: TrainScope's misc_sizes keys, all five or none
    // (other tools' reports lack them).
    std::optional<PeakBreakdown> at_peak;
    int64_t weights = 0, weight_bytes = 0, gradient_bytes = 0;
    bool names_weights = true;  // false: an imported file, which names no parameter
    // True: the activation entries are the blocks alive at the peak by category and line (a
    // memory snapshot's), not activations (trainscope/import_notes.h).
    bool lists_blocks_at_peak = false;
    int64_t activations = 0, activation_bytes = 0;
    std::string memory_note;  // why the report lacks allocations; empty: it lacks none
    std::string sharding;     // the share of sharded parameters (FSDP2) this rank holds, or empty
    std::vector<ShardedLayout> sharded;  // the same in figures, by layout

    // Time reports.
    int64_t operations = 0;
    PartTimes times;                           // the operations' times by part of the step
    std::optional<double> iteration_wall_ms;   // TrainScope's measured iteration (metadata)
    std::vector<CollectiveEntry> collectives;  // a rank's collectives (trainscope_collectives)
    std::vector<Compilation> compilations;     // torch.compile's (trainscope_compilations)
    std::string compiled_steps;                // the metadata's note on steps that compiled
    std::string backward_not_attributed;       // an imported trace's: why no backward times
    std::string imported_steps;                // an imported trace's: how its steps were found
    // Its metadata that says what its times are the time of (summary_text.h: operationTimesText).
    RunMetadata time_metadata;
    KernelTotals kernels;  // trainscope_compiled_kernels in figures

    // Timelines.
    std::string schema_version;  // META_DATA's SCHEMA_VERSION
    int rank = -1;               // RANK_DEVICE_MAP's: -1, not set
    // The file held no times (an imported snapshot's): its times are its events' order, 1 µs
    // apart (trainscope/import_notes.h), so its spans count events.
    bool untimed = false;
    // Its blocks' "operation" is their category (an imported snapshot's: no operations).
    bool blocks_by_category = false;
    int64_t api_calls = 0;
    std::vector<NamedCount> calls_by_type;  // ENUM_API_TYPE's names ("op", "queue", ...)
    int64_t threads = 0;
    int64_t first_ns = 0, last_ns = 0;  // of the framework calls
    std::vector<TimelineStep> steps;
    std::vector<ComponentPeak> memory;
    int64_t blocks = 0, blocks_never_freed = 0;  // OP_MEMORY
    int64_t device_tasks = 0, cann_calls = 0;    // TASK, CANN_API (device activity)
    std::vector<OperationTotal> top_operations;  // `op` calls by total time
    std::vector<LargeAllocation> largest_allocations;
};

// Why `path` cannot be read as a report file (or a file to import), in a few words ("no such file",
// "a folder, not a file", "a FIFO (named pipe), not a file", "a device, not a file", ...; through
// symbolic links), or "" when it is a regular file.
std::string notAReportFile(const std::string& path);

// Throws trainscope::Error for a missing file, a path that is not a regular file, a file that
// is not SQLite, or an SQLite file that is none of the three kinds of report (a sweep report
// among them: its error says so).
ReportFileSummary summarizeReportFile(const std::string& path, int top = 10);

// A file's steps as a summary shows them: the first ones one by one, the others in figures
// (a file may hold any number of steps; a person reads a few lines).
struct StepsDigest {
    std::vector<TimelineStep> listed;  // the first steps by start
    int64_t others = 0;                // the steps beyond them
    // Over all the steps (0 when there are none).
    int64_t shortest_ns = 0, median_ns = 0, longest_ns = 0;
};
StepsDigest digestSteps(const std::vector<TimelineStep>& steps, size_t listed = 10);

// How long a step lasts, in ns (the largest int64 where a damaged file's ends are further apart
// than that).
int64_t stepDuration(const TimelineStep& step);

// Which kind a report file is, from its table names alone (quick); throws as above.
ReportFileKind reportFileKind(const std::string& path);

struct ChromeTraceCounts {
    int64_t complete = 0;  // "X" events: framework calls, CANN calls, device tasks
    int64_t counters = 0;  // "C" events: one per MEMORY_RECORD row
    int64_t flows = 0;     // "s"/"f" pairs: forward call -> backward call or device work
    int64_t total() const { return complete + counters + 2 * flows; }
};

// Writes the timeline at `timeline_path` as Chrome Trace Event JSON (Perfetto and
// chrome://tracing load it): ts/dur in µs as numbers with ns precision, counted from the
// earliest timestamp in the file (given as otherData.origin_ns); pid and tid from globalTid.
// The file is written whole or not at all, and an existing one is replaced only with
// Overwrite::Allow.
ChromeTraceCounts exportChromeTrace(const std::string& timeline_path, const std::string& json_path,
                                    Overwrite overwrite);

}  // namespace trainscope
