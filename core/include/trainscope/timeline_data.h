// SPDX-License-Identifier: Apache-2.0
// A timeline file (the Ascend timeline schema: ours, or torch_npu's
// ascend_pytorch_profiler_{rank}.db) read whole into memory, in the shape that views draw and query
// without SQL: calls as spans on lanes (one per thread, CANN host row and device stream) nested by
// depth, the memory curve, the blocks of OP_MEMORY, the call chains and the links between calls.
//
// Strings are stored once and referred to by index (heaptrack's ResultData does the same; the
// file's STRING_IDS does it on disk). Times stay in ns since the epoch, as int64: a double loses
// nanoseconds at that magnitude.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "trainscope/reports.h"

namespace trainscope {

enum class SpanCategory : uint8_t {
    Forward,        // a forward call (with the loss)
    Backward,       // a backward node, or a call made by one
    Optimizer,      // a call of the optimizer step
    Other,          // a framework call of another type (torch_npu's queue, trace, mstx)
    Communication,  // a collective as its backend ran it (ENUM_API_TYPE 5500: Gloo, NCCL, HCCL)
    Cann,           // CANN_API: the host runtime below the framework
    Device,         // TASK: work on a device stream
};

constexpr int32_t kNoString = -1;

struct TimelineSpan {
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    int64_t connection = -1;  // the file's connectionId (-1: none)
    int64_t sequence = -1;    // autograd's sequence number (-1: none)
    int32_t name = kNoString;
    int32_t shapes = kNoString;  // the input shapes, one string
    int32_t dtypes = kNoString;
    int32_t module = kNoString;  // module path (TrainScope's files)
    int32_t callchain = -1;      // index into TimelineData::callchains
    uint16_t depth = 0;
    SpanCategory category = SpanCategory::Forward;
    bool backward_node = false;  // an autograd node itself (PYTORCH_API.fwdThreadId set)
};

enum class LaneKind : uint8_t { Thread, Cann, Device };

// One row group of the timeline. Spans are sorted by (depth, start); the spans of one depth
// start at depth_begin[depth] and do not overlap one another on a thread.
struct TimelineLane {
    LaneKind kind = LaneKind::Thread;
    std::string label;
    int64_t pid = 0;
    int64_t tid = 0;  // the thread id; the stream for a device lane
    int64_t device = -1;
    // torch_npu's Python call stack of the thread (its `trace` calls): a lane of its own, after
    // the operations and the device streams, which it would otherwise push below the fold.
    bool python_stack = false;
    std::vector<TimelineSpan> spans;
    std::vector<size_t> depth_begin;  // one more than the depth count: the last is spans.size()

    int depths() const { return depth_begin.empty() ? 0 : int(depth_begin.size()) - 1; }
};

struct SpanRef {
    int32_t lane = -1;
    int32_t index = -1;
    bool valid() const { return lane >= 0 && index >= 0; }
    bool operator==(const SpanRef& o) const { return lane == o.lane && index == o.index; }
    bool operator!=(const SpanRef& o) const { return !(*this == o); }
};

struct MemoryBlock {
    int64_t size = 0;
    int64_t allocated_ns = 0;
    int64_t released_ns = std::numeric_limits<int64_t>::max();  // never freed in the recording
    int32_t name = kNoString;  // the operation that allocated it (OP_MEMORY.name)
    bool freed() const { return released_ns != std::numeric_limits<int64_t>::max(); }
};

// A frame of a call chain: "path(line)" or "/abs/path/file.py(692): function".
struct TimelineFrame {
    std::string file_path;
    int line = 0;
    std::string function;
    std::string library_root;  // TrainScope's library frames: the folder file_path is under
};

struct TimelineData {
    std::string path;
    std::vector<std::string> strings;
    std::vector<TimelineLane> lanes;
    std::vector<std::vector<TimelineFrame>> callchains;  // innermost first
    std::vector<TimelineStep> steps;
    std::vector<StepCollective> step_collectives;  // TrainScope's, by step and start
    std::vector<TimelinePhase> phases;             // TrainScope's parts of the memory step
    std::string memory_component;      // the MEMORY_RECORD component of `memory` ('PTA')
    std::vector<MemorySample> memory;  // by time
    size_t peak_sample = 0;            // index of the highest allocated total in `memory`
    std::vector<MemoryBlock> blocks;   // by allocation time
    // (connection, span) for every span with a connection, sorted: to find linked calls.
    std::vector<std::pair<int64_t, SpanRef>> by_connection;
    // CONNECTION_IDS: (id, connectionId), both directions, sorted.
    std::vector<std::pair<int64_t, int64_t>> links;
    int64_t first_ns = 0, last_ns = 0;  // of every span and memory sample
    int rank = -1;                      // RANK_DEVICE_MAP's, -1: not set
    // The file held no times (an imported snapshot's): its events are 1 µs apart in order.
    bool untimed = false;
    // Its blocks' operation names are their categories (an imported snapshot's).
    bool blocks_by_category = false;

    const std::string& text(int32_t index) const;
    const TimelineSpan& span(SpanRef ref) const { return lanes[ref.lane].spans[ref.index]; }
    // The time a rank's timelines are aligned at: its first step's start, else its first span.
    int64_t alignment_ns() const { return steps.empty() ? first_ns : steps.front().start_ns; }
};

// Reads the file whole. Throws trainscope::Error for a file that is not a timeline, or damaged;
// stops with an Error when `cancel` becomes true.
TimelineData loadTimelineData(const std::string& path, const std::atomic<bool>* cancel = nullptr);

// What of a timeline to read: the whole file (the views), or its calls, steps and rank (the
// ranks' summary: no memory samples or blocks, no links between calls; the memory is still read
// for a file without steps, whose extent it is part of).
enum class TimelineParts { Whole, CallsAndSteps };
TimelineData loadTimelineData(const std::string& path, TimelineParts parts,
                              const std::atomic<bool>* cancel = nullptr);

// --- Queries over a loaded timeline (pure functions, for the views and tests) ---

// The spans linked to `ref` through CONNECTION_IDS: a forward call's backward nodes, a backward
// node's forward call, a framework call's CANN calls and device tasks.
std::vector<SpanRef> linkedSpans(const TimelineData& data, SpanRef ref);

// The deepest span of a lane's row `depth` that contains `time_ns`, or an invalid ref.
SpanRef spanAt(const TimelineData& data, int lane, int depth, int64_t time_ns);

// The first span (in time) of one lane's depth whose end is at or after `time_ns`: where
// drawing a visible range starts. Returns the index within the lane's spans.
size_t firstSpanEndingAfter(const TimelineLane& lane, int depth, int64_t time_ns);

// The framework call that allocated a block: the call on a thread lane whose interval holds
// the allocation and whose name is the block's, deepest first; invalid when none.
SpanRef allocatingCall(const TimelineData& data, const MemoryBlock& block);

// The blocks alive at `time_ns` (allocated at or before, released after), grouped by the
// operation and module of their allocating call, largest group first, blocks largest first.
struct LiveBlock {
    size_t block = 0;  // index into TimelineData::blocks
    SpanRef call;      // its allocating call (invalid: unknown)
};
struct LiveBlockGroup {
    int32_t operation = kNoString;
    int32_t module = kNoString;
    int64_t bytes = 0;
    std::vector<LiveBlock> blocks;
};
std::vector<LiveBlockGroup> liveBlocksAt(const TimelineData& data, int64_t time_ns);

// The `ordinal`-th (from 0) top-level forward call of the thread that ran the forward pass, in
// TrainScope's timelines: the call behind run time entry `ordinal + 1` of the same run (the
// report's documented invariant). Invalid when there is none.
SpanRef topLevelForwardCall(const TimelineData& data, int64_t ordinal);
// The reverse: the ordinal of the top-level forward call that `ref` belongs to (itself, the
// call it is nested in, or, for a backward node, its forward call's), or -1.
int64_t forwardCallOrdinal(const TimelineData& data, SpanRef ref);

// The top-level forward calls that overlap [start_ns, end_ns] (the file's clock): the ordinals
// of the first and the last (topLevelForwardCall's), or {-1, -1} when there is none.
std::pair<int64_t, int64_t> forwardCallsIn(const TimelineData& data, int64_t start_ns,
                                           int64_t end_ns);

// For each of data.strings, whether it contains `needle` (case-insensitive for ASCII, as SQL's
// LIKE); all false for an empty needle.
std::vector<bool> namesContaining(const TimelineData& data, const std::string& needle);
// Spans whose name contains `needle` (as above), in time order across lanes.
std::vector<SpanRef> findSpans(const TimelineData& data, const std::string& needle);

}  // namespace trainscope
