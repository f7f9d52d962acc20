// SPDX-License-Identifier: Apache-2.0
#include "analysis/timeline_builder.h"

#include <unistd.h>

#include <algorithm>
#include <unordered_map>

#include "tracking/memory_observer.h"
#include "tracking/operation_observer.h"
#include "tracking/timeline_recorder.h"
#include "trainscope/report_format.h"

namespace trainscope {

TimelineReport buildTimeline(const TimelineSources& sources) {
    const OperationObserver& observed = *sources.observed;
    const MemoryObserver& memory = *sources.memory;
    const TimelineRecorder& recorder = *observed.timeline();
    const auto& threads = recorder.threads();
    const std::vector<OperationRecord>& operations = observed.operations();
    const std::vector<OperationRecord>& captured = *sources.captured;
    const std::vector<std::string>& modules = *sources.operation_modules;
    const TimelineClock::Conversion clock = recorder.clock().conversion();
    auto ns = [&](int64_t ticks) { return clock.toEpochNs(ticks); };
    const uint64_t pid = static_cast<uint64_t>(::getpid());

    TimelineReport report;
    report.device_id = sources.device_id;

    std::unordered_map<uint64_t, uint64_t> os_tid_of;  // RecordFunction thread id -> OS tid
    for (const auto& thread : threads) {
        os_tid_of[thread->record_function_tid] = thread->os_tid;
    }

    // Per thread, in start order: assign each event its row's attributes, tracking nesting so
    // that a nested call inherits the operation of the call it runs in.
    int64_t next_connection = 0;
    std::vector<int> callchain_of_operation(captured.size(), -1);
    size_t next_top_level = 0;
    size_t next_inputs = 0;
    bool inputs_match = sources.call_inputs != nullptr;
    std::vector<int64_t> forward_connection(operations.size(), -1);
    std::vector<std::pair<int, int64_t>> backward_links;  // (operation, connection id)

    for (const auto& thread_timeline : threads) {
        const ThreadTimeline& thread = *thread_timeline;
        const bool forward_thread = thread.record_function_tid == observed.forwardThread();
        // Open calls on this thread: (end time, operation index it belongs to).
        std::vector<std::pair<int64_t, int>> open;
        for (uint32_t i = 0; i < thread.events.size(); ++i) {
            const TimelineEvent& event = thread.events[i];
            while (!open.empty() && open.back().first <= event.start) {
                open.pop_back();
            }
            ApiCall call;
            call.start_ns = ns(event.start);
            call.end_ns = ns(event.end ? event.end : event.start);
            call.global_tid = pid << 32 | thread.os_tid;
            call.connection_id = next_connection++;
            call.name = thread.names[event.name];
            if (event.user_scope && isCollectiveName(call.name)) {
                call.api_type = kCommunicationApiType;
            }
            if (event.sequence_nr >= 0) {
                call.sequence_number = event.sequence_nr;
            }
            if (event.backward) {
                const auto it = os_tid_of.find(event.fwd_thread);
                call.fwd_thread_id = it != os_tid_of.end() ? it->second : event.fwd_thread;
            }
            int operation = open.empty() ? -1 : open.back().second;
            // Operations that a checkpoint's backward node ran again are nested in it, never
            // top-level: the next top-level call is the next record of another part.
            while (forward_thread && open.empty() && next_top_level < operations.size() &&
                   operations[next_top_level].part == OperationRecord::Part::Recompute) {
                ++next_top_level;
            }
            // The observer's records are the forward thread's top-level calls of the recorded
            // parts, in order: the next one unless this call is of another part.
            if (forward_thread && !event.backward && !event.user_scope && open.empty() &&
                next_top_level < operations.size() &&
                operations[next_top_level].name == call.name) {
                // A top-level forward operation: the observer's records are in this order.
                operation = static_cast<int>(next_top_level++);
                forward_connection[operation] = call.connection_id;
                if (static_cast<size_t>(operation) < captured.size() &&
                    captured[operation].name == call.name && !captured[operation].frames.empty()) {
                    int& chain = callchain_of_operation[operation];
                    if (chain < 0) {
                        chain = static_cast<int>(report.callchains.size());
                        report.callchains.push_back(captured[operation].frames);
                    }
                }
            } else if (event.backward) {
                const int linked = operationOfSequence(operations, event.sequence_nr);
                if (linked >= 0) {
                    operation = linked;
                    backward_links.emplace_back(linked, call.connection_id);
                }
            }
            if (operation >= 0) {
                if (!event.backward && static_cast<size_t>(operation) < captured.size()) {
                    call.callchain = callchain_of_operation[operation];
                }
                if (static_cast<size_t>(operation) < modules.size()) {
                    call.module_path = modules[operation];
                }
            }
            if (forward_thread && !event.backward && !event.user_scope && inputs_match) {
                const auto& inputs = *sources.call_inputs;
                if (next_inputs < inputs.size() && inputs[next_inputs].name == call.name) {
                    call.input_shapes = inputs[next_inputs].shapes;
                    call.input_dtypes = inputs[next_inputs].dtypes;
                    ++next_inputs;
                } else {
                    inputs_match = false;  // the iterations differ from here: no guessing
                }
            }
            if (!event.user_scope) {
                // A Python scope around operations ("Optimizer.step#..."): they stay top-level.
                open.emplace_back(event.end ? event.end : event.start, operation);
            }
            report.calls.push_back(std::move(call));
        }
    }
    for (const auto& [operation, backward] : backward_links) {
        if (forward_connection[operation] >= 0) {
            report.connections.emplace_back(forward_connection[operation], backward);
        }
    }
    // Threads one after the other, so into start order (a thread's calls keep their order).
    std::stable_sort(report.calls.begin(), report.calls.end(),
                     [](const ApiCall& a, const ApiCall& b) { return a.start_ns < b.start_ns; });

    // Memory: the totals when the iteration began, then one sample per allocation and free;
    // each block allocated in the iteration with the top-level call that allocated it.
    const std::vector<MemoryEvent>& events = memory.events();
    int64_t start_total = 0;
    for (const auto& [ptr, block] : memory.liveAtStart()) {
        start_total += block.bytes;
    }
    // On the CPU what is reserved is what is allocated; CUDA's allocator reports its own.
    const bool own_reserved =
        !events.empty() && events.front().total_reserved != events.front().total_allocated;
    const int64_t start_reserved = own_reserved ? events.front().total_reserved : start_total;
    report.memory.push_back({ns(memory.startTicks()), start_total, start_reserved, start_total});
    std::unordered_map<void*, size_t> open_blocks;
    for (const MemoryEvent& event : events) {
        const MemorySample sample{ns(event.time), event.total_allocated, event.total_reserved,
                                  event.total_allocated};
        report.memory.push_back(sample);
        if (event.bytes > 0) {
            BlockLifetime block;
            block.size_bytes = event.bytes;
            block.allocation = sample;
            block.operation_name = report_format::kOutsideOperations;
            if (event.outer_event >= 0) {
                const ThreadTimeline& thread = *threads.at(event.outer_event >> 32);
                block.operation_name =
                    thread.names[thread.events.at(event.outer_event & 0xffffffff).name];
            }
            open_blocks[event.ptr] = report.blocks.size();
            report.blocks.push_back(std::move(block));
        } else if (const auto it = open_blocks.find(event.ptr); it != open_blocks.end()) {
            report.blocks[it->second].release = sample;
            open_blocks.erase(it);
        }
    }
    report.steps.push_back({sources.step_id, ns(memory.startTicks()), ns(memory.endTicks())});
    const std::vector<MemoryObserver::PhaseMark>& marks = memory.phaseMarks();
    for (size_t i = 0; i < marks.size(); ++i) {
        const int64_t end = i + 1 < marks.size() ? marks[i + 1].ticks : memory.endTicks();
        report.phases.push_back({marks[i].name, ns(marks[i].ticks), ns(end)});
    }
    return report;
}

}  // namespace trainscope
