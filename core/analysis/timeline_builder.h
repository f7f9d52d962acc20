// SPDX-License-Identifier: Apache-2.0
// Assembles the timeline report of the measured iteration: the operation observer's events
// from every thread, merged in time order and linked to the top-level operations (frames,
// module paths, backward nodes), the inputs captured in an earlier iteration, and the memory
// observer's allocations and frees with the blocks' lifetimes.
#pragma once

#include <string>
#include <vector>

#include "trainscope/reports.h"

namespace trainscope {

class MemoryObserver;
class OperationObserver;
struct OperationRecord;
struct CallInputs;

struct TimelineSources {
    const OperationObserver* observed = nullptr;  // the measured iteration, with a timeline
    const MemoryObserver* memory = nullptr;       // the same iteration
    // The capture iteration's top-level operations (frames) and forward-thread calls (inputs);
    // they are matched to the measured iteration's in order, by name.
    const std::vector<OperationRecord>* captured = nullptr;
    const std::vector<CallInputs>* call_inputs = nullptr;
    const std::vector<std::string>* operation_modules = nullptr;
    int64_t step_id = 1;  // the measured iteration's number within the pass
    int device_id = 0;
};

TimelineReport buildTimeline(const TimelineSources& sources);

}  // namespace trainscope
