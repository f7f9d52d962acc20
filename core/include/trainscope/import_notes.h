// SPDX-License-Identifier: Apache-2.0
// What reports imported from another tool's file say and do not say, from what their metadata
// records (report_format::kImportedFromKey and kImportedFormatKey): one rule for a report loaded
// whole (MemoryReport) and for a file's totals read by SQL (ReportFileSummary).
// docs/importing.md says the same to users.
#pragma once

#include <cstdint>
#include <string_view>

namespace trainscope {

// The formats an import records as kImportedFormatKey.
inline constexpr char kProfilerTraceFormat[] = "torch.profiler trace";
inline constexpr char kMemorySnapshotFormat[] = "memory snapshot";

// A timeline metadata key, present when the imported file holds no times (a memory snapshot
// recorded without them): its events are placed 1 µs apart in their order, so that a span of
// its times counts events, not time.
inline constexpr char kUntimedEventsKey[] = "untimed_events";
inline constexpr char kUntimedEventsValue[] = "1 us apart in order";
inline constexpr int64_t kUntimedEventNs = 1000;

// A run time report metadata key, present when the imported trace's backward nodes are linked
// to no operation (no fwdbwd flows: PyTorch 1.13's legacy traces have none), so that no
// operation has a backward time although the step ran its backward pass: the value says how
// many nodes, and how long they took.
inline constexpr char kBackwardNotAttributedKey[] = "backward_not_attributed";

// Whether a memory report says which tensors are weights: TrainScope's own reports do (none
// when the model has none); a torch.profiler trace or a memory snapshot does not, so its
// weights and optimizer state are not known (in Other, or not in the peak at all), not none.
inline bool namesWeights(bool lists_weights, bool imported) {
    return lists_weights || !imported;
}

// Whether a memory report's activation entries are the blocks alive at the peak by category
// and line (a memory snapshot holds no operations), rather than activations by operation: then
// they are every category at the peak, and their sum is the peak's, not the activations'.
inline bool listsBlocksAtPeak(std::string_view imported_format) {
    return imported_format == kMemorySnapshotFormat;
}

}  // namespace trainscope
