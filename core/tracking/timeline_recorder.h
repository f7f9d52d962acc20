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

#include "records/timeline_record.h"
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
    using Conversion = TickConversion;
    Conversion conversion() const;  // calibrated up to now

  private:
    int64_t ticks0_, steady_ns0_, epoch_ns0_;
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

    // The threads' timelines and the clock's conversion, moved out once recording has stopped.
    TimelineRecord takeRecord();

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
