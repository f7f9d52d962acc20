// SPDX-License-Identifier: Apache-2.0
// Assembles the timeline report of the memory step: the recorded events of every thread,
// merged in time order and linked to the top-level operations (frames, module paths, backward
// nodes), the inputs of its forward thread's calls, and the meter's allocations and frees with
// the blocks' lifetimes.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "records/memory_record.h"
#include "records/operation_records.h"
#include "records/stack_traces.h"
#include "records/timeline_record.h"
#include "trainscope/chunked_log.h"
#include "trainscope/reports.h"

namespace trainscope {

// What the report is built from: the memory step's records, which the builder frees as it
// reads them, so that a large step's timeline is not held twice.
struct TimelineSources {
    TimelineRecord calls;            // every event of the step (OperationObserver::takeTimeline)
    MemoryRecord* memory = nullptr;  // the meter's record (MemoryObserver::takeRecord)
    // The step's top-level operations, and its forward-thread calls' inputs, matched to its
    // events in order, by name.
    const std::vector<OperationRecord>* operations = nullptr;
    const StackTraces* traces = nullptr;  // the operations' frames
    const ChunkedLog<CallInputs>* call_inputs = nullptr;
    const TimelineTexts* input_texts = nullptr;  // what `call_inputs` number
    uint64_t forward_thread = 0;                 // RecordFunction's id of the step's thread
    const std::vector<std::string>* operation_modules = nullptr;
    int64_t step_id = 1;  // the memory step's number within the pass
    int device_id = 0;
};

// The report's memory part (its samples, blocks, step and phases), then its calls part (calls,
// callchains, connections): each releases what it read, and a host may write each part and
// release it before the next one is built (report/staged_timeline.h). The memory part comes
// first: its blocks are named by the calls' events.
//
// With `flush`, the record is also released as it is read, and `flush` is handed the report
// whenever it holds a chunk of samples (buildTimelineMemory) or calls (buildTimelineCalls), to
// write and clear them: a large step's timeline is then never held whole beside its record.
// What is left when the part ends (the last samples and every block; the last calls, the
// callchains and connections) stays in the report.
using TimelineFlush = std::function<void(TimelineReport&)>;
void buildTimelineMemory(TimelineSources& sources, TimelineReport& report,
                         const TimelineFlush& flush = {});
void buildTimelineCalls(TimelineSources& sources, TimelineReport& report,
                        const TimelineFlush& flush = {});

}  // namespace trainscope
