// SPDX-License-Identifier: Apache-2.0
// The files PyTorch users already hold, opened as TrainScope's own reports: torch.profiler
// traces (the Chrome-trace JSON of `export_chrome_trace` and `tensorboard_trace_handler`, also
// gzipped) and CUDA memory snapshots (`torch.cuda.memory._dump_snapshot`'s pickle). Read as a
// stream, never whole; a snapshot's pickle is read as plain data and never run.
// docs/importing.md says what is read from each and what is not.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trainscope/overwrite.h"
#include "trainscope/reports.h"

namespace trainscope {

// The reports an imported file makes, as far as it holds their data: a trace without memory
// events has no memory report, a memory snapshot no run time report.
struct ImportedRun {
    std::optional<MemoryReport> memory;
    std::optional<TimeReport> time;
    TimelineReport timeline;
};

enum class ImportedFormat { None, ProfilerTrace, MemorySnapshot };

// What a file is by its first bytes (gzip inflated): a trace (JSON), a snapshot (a pickle), or
// neither (an SQLite report); by its name (.json, .json.gz, .pickle, .pkl) where its bytes do not
// say, or it cannot be read. The import decides for good.
ImportedFormat importedFormatOf(const std::string& path);

// Reports how far the reading is: the file's bytes read, of its size.
using ImportProgress = std::function<void(uint64_t done, uint64_t total)>;

// Reads a trace or a snapshot (told apart by content, gzip or not). Throws trainscope::Error with
// one line for a file that is neither, is damaged, cut off, another tool's, or a pickle that
// would run code; Cancelled when `cancel` becomes true.
ImportedRun importFile(const std::string& path, const ImportProgress& progress = {},
                       const std::atomic<bool>* cancel = nullptr);
// The same for bytes in memory (the fuzz target's input); `name` is what messages call them.
ImportedRun importBytes(std::string_view bytes, const std::string& name);

// Writes the run's reports as PREFIX.memory.sqlite, PREFIX.time.sqlite and
// PREFIX.timeline.sqlite (those it has), as one set: all are written or none. Where it may
// overwrite, a report at PREFIX that the run has no data for (a snapshot has no run time report)
// is the replaced set's, another file's or this one's before it changed: it is removed, so
// that PREFIX's reports are this run's; returns the paths removed.
std::vector<std::string> writeImportedRun(const ImportedRun& run, const std::string& prefix,
                                          Overwrite overwrite);

// The reports writeImportedRun() writes for `run` at PREFIX, in runReportSuffixes() order.
std::vector<std::string> importedRunReports(const ImportedRun& run, const std::string& prefix);

// Where the app keeps the reports of an imported file: beside it, named after it
// ("step.pt.trace.json.gz" → "step.pt.trace.json.gz.trainscope").
std::string importedReportsPrefix(const std::string& path);

}  // namespace trainscope
