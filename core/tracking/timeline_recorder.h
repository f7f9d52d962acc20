// SPDX-License-Identifier: Apache-2.0
// Records every RecordFunction event of an iteration (operations, nested operations, backward
// nodes, optimizer operations, on every thread) with its start and end time, for the timeline
// report. The operation observer owns one and feeds it from its callbacks, so one callback
// serves all observation.
//
// Each thread appends to its own buffer, so recording takes no lock after a thread's first
// event; names are interned per thread through a cache keyed by the name's address (checked
// by content, since a backward node's name may live in a temporary string).
#pragma once

#include <ATen/record_function.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "trainscope/chunked_log.h"

namespace trainscope {

// The one clock of a timeline, read twice per call: the CPU's time-stamp counter where it is
// invariant (constant rate, synchronised across cores: about half the cost of the steady
// clock), else steady-clock nanoseconds. Ticks become epoch nanoseconds when the report is
// assembled (TimelineClock).
int64_t timelineTicks();

// Converts ticks to nanoseconds since the epoch: a linear map calibrated against the steady and
// system clocks between construction and convert()'s first caller's moment (at least the
// recorded iteration, so the rate's error stays far below a nanosecond per microsecond).
class TimelineClock {
  public:
    TimelineClock();
    struct Conversion {
        int64_t ticks0 = 0;
        int64_t epoch_ns0 = 0;
        double ns_per_tick = 1.0;
        int64_t toEpochNs(int64_t ticks) const {
            return epoch_ns0 +
                   static_cast<int64_t>(static_cast<double>(ticks - ticks0) * ns_per_tick);
        }
    };
    Conversion conversion() const;  // calibrated up to now

  private:
    int64_t ticks0_, steady_ns0_, epoch_ns0_;
};

struct TimelineEvent {
    int64_t start = 0;  // timelineTicks()
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

class TimelineRecorder {
  public:
    TimelineRecorder();
    TimelineRecorder(const TimelineRecorder&) = delete;
    TimelineRecorder& operator=(const TimelineRecorder&) = delete;

    void begin(const at::RecordFunction& fn);
    void end(const at::RecordFunction& fn);

    // The outermost event open on the calling thread, as (thread index << 32 | event index),
    // or -1: what an allocation made now belongs to.
    int64_t outermostOpenEvent() const;

    // The threads' timelines; valid once recording has stopped.
    const std::vector<std::unique_ptr<ThreadTimeline>>& threads() const { return threads_; }
    // Frees thread `thread`'s events before `event`, for a reader that goes through them once
    // in order (the timeline's calls, written part by part).
    void releaseEventsBefore(size_t thread, size_t event) {
        threads_.at(thread)->events.releaseBefore(event);
    }
    const TimelineClock& clock() const { return clock_; }

  private:
    struct ThreadState;
    static ThreadState& threadState();
    ThreadState& stateOfThisThread();  // joins the thread at its first event
    [[gnu::noinline]] void join(ThreadState& state);

    uint64_t generation_;
    TimelineClock clock_;
    std::mutex mutex_;  // guards threads_ when a thread joins
    std::vector<std::unique_ptr<ThreadTimeline>> threads_;
};

}  // namespace trainscope
