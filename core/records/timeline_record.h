// SPDX-License-Identifier: Apache-2.0
// What the timeline recorder records of the memory step, as plain data: every event of every
// thread (operations, nested operations, backward nodes, the optimizer's calls) with its start
// and end in the timeline's ticks, and the map from ticks to time. The timeline report is
// assembled from it (analysis/timeline_builder.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trainscope/chunked_log.h"

namespace trainscope {

// Ticks of the timeline's clock to nanoseconds since the epoch: a linear map.
struct TickConversion {
    int64_t ticks0 = 0;
    int64_t epoch_ns0 = 0;
    double ns_per_tick = 1.0;
    int64_t toEpochNs(int64_t ticks) const {
        return epoch_ns0 + static_cast<int64_t>(static_cast<double>(ticks - ticks0) * ns_per_tick);
    }
};

struct TimelineEvent {
    int64_t start = 0;  // ticks
    int64_t end = 0;
    int64_t sequence_nr = -1;
    uint64_t fwd_thread = 0;  // RecordFunction's id of the forward thread (backward nodes)
    uint32_t name = 0;        // index into the thread's names
    bool backward = false;    // a backward node (BACKWARD_FUNCTION scope)
    bool user_scope = false;  // a scope of Python code (USER_SCOPE): "Optimizer.step#SGD.step"
};

// The events of one thread, in start order.
struct ThreadTimeline {
    uint64_t os_tid = 0;
    uint64_t record_function_tid = 0;  // RecordFunction's id for the thread
    std::vector<std::string> names;
    ChunkedLog<TimelineEvent> events;
};

struct TimelineRecord {
    std::vector<std::unique_ptr<ThreadTimeline>> threads;
    TickConversion clock;  // calibrated over the recorded step at least
};

}  // namespace trainscope
