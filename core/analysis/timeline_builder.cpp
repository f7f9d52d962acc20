// SPDX-License-Identifier: Apache-2.0
#include "analysis/timeline_builder.h"

#include <unistd.h>

#include <algorithm>
#include <functional>
#include <queue>
#include <unordered_map>

#include "trainscope/report_format.h"

namespace trainscope {

namespace {

// Each thread's names as texts of the report.
std::vector<std::vector<TextId>> nameTexts(const TimelineRecord& record, TimelineTexts& texts) {
    std::vector<std::vector<TextId>> ids;
    for (const auto& thread : record.threads) {
        std::vector<TextId>& names = ids.emplace_back();
        for (const std::string& name : thread->names)
            names.push_back(texts.add(name));
    }
    return ids;
}

// What `flush` is handed at a time: about 2 MiB of samples or calls.
constexpr size_t kFlushedSamples = size_t{1} << 16;
constexpr size_t kFlushedCalls = size_t{1} << 15;

}  // namespace

void buildTimelineMemory(TimelineSources& sources, TimelineReport& report,
                         const TimelineFlush& flush) {
    MemoryRecord& memory = *sources.memory;
    const auto& threads = sources.calls.threads;
    const TickConversion clock = sources.calls.clock;
    auto ns = [&](int64_t ticks) { return clock.toEpochNs(ticks); };
    report.device_id = sources.device_id;
    TimelineTexts& texts = report.texts;
    const std::vector<std::vector<TextId>> name_texts = nameTexts(sources.calls, texts);

    // The totals when the iteration began, then one sample per allocation and free; each block
    // allocated in the iteration with the top-level call that allocated it (named by the calls'
    // events, which the calls' part releases).
    ChunkedLog<MemoryEvent>& events = memory.events;
    int64_t start_total = 0;
    for (const auto& [ptr, block] : memory.live_at_start) {
        start_total += block.bytes;
    }
    // On the CPU what is reserved is what is allocated; CUDA's allocator reports its own.
    const bool own_reserved =
        !events.empty() && events.front().total_reserved != events.front().total_allocated;
    const int64_t start_reserved = own_reserved ? events.front().total_reserved : start_total;
    report.memory.push_back({ns(memory.start_ticks), start_total, start_reserved, start_total});
    const TextId outside = texts.add(report_format::kOutsideOperations);
    std::unordered_map<void*, size_t> open_blocks;
    for (size_t i = 0; i < events.size(); ++i) {
        const MemoryEvent& event = events[i];
        const MemorySample sample{ns(event.time), event.total_allocated, event.total_reserved,
                                  event.total_allocated};
        report.memory.push_back(sample);
        if (flush && report.memory.size() >= kFlushedSamples) {
            flush(report);
            events.releaseBefore(i);
        }
        if (event.bytes > 0) {
            BlockLifetime block;
            block.size_bytes = event.bytes;
            block.allocation = sample;
            block.operation_name = outside;
            if (event.outer_event >= 0) {
                const size_t thread = static_cast<size_t>(event.outer_event >> 32);
                block.operation_name = name_texts.at(
                    thread)[threads.at(thread)->events.at(event.outer_event & 0xffffffff).name];
            }
            open_blocks[event.ptr] = report.blocks.size();
            report.blocks.push_back(block);
        } else if (const auto it = open_blocks.find(event.ptr); it != open_blocks.end()) {
            report.blocks[it->second].release = sample;
            open_blocks.erase(it);
        }
    }
    open_blocks = {};
    report.steps.push_back({sources.step_id, ns(memory.start_ticks), ns(memory.end_ticks)});
    const std::vector<MemoryRecord::PhaseMark>& marks = memory.phase_marks;
    for (size_t i = 0; i < marks.size(); ++i) {
        const int64_t end = i + 1 < marks.size() ? marks[i + 1].ticks : memory.end_ticks;
        report.phases.push_back({marks[i].name, ns(marks[i].ticks), ns(end)});
    }
    events.clear();
}

void buildTimelineCalls(TimelineSources& sources, TimelineReport& report,
                        const TimelineFlush& flush) {
    TimelineRecord record = std::move(sources.calls);  // freed as it is read, and at the end
    const auto& threads = record.threads;
    const std::vector<OperationRecord>& operations = *sources.operations;
    const StackTraces& traces = *sources.traces;
    const std::vector<std::string>& modules = *sources.operation_modules;
    const TickConversion clock = record.clock;
    auto ns = [&](int64_t ticks) { return clock.toEpochNs(ticks); };
    const uint64_t pid = static_cast<uint64_t>(::getpid());
    report.device_id = sources.device_id;
    TimelineTexts& texts = report.texts;
    const std::vector<std::vector<TextId>> name_texts = nameTexts(record, texts);

    std::vector<TextId> module_texts;
    for (const std::string& module : modules)
        module_texts.push_back(texts.add(module));
    // Without the calls' inputs (a caller that recorded none), the calls have none.
    const TimelineTexts* input_texts = sources.call_inputs ? sources.input_texts : nullptr;
    std::unordered_map<TextId, TextId> text_of_input;  // inputTexts() id -> the report's
    auto inputText = [&](TextId id) {
        const auto [it, added] = text_of_input.try_emplace(id, 0);
        if (added) {
            it->second = texts.add((*input_texts)[id]);
        }
        return it->second;
    };
    std::unordered_map<uint64_t, uint64_t> os_tid_of;  // RecordFunction thread id -> OS tid
    for (const auto& thread : threads) {
        os_tid_of[thread->record_function_tid] = thread->os_tid;
    }

    // The calls of every thread in start order (each thread's are in start order already: they
    // are merged, the earlier thread first on a tie). Each call gets its row's attributes;
    // nesting is tracked per thread, so that a nested call inherits the operation of the call
    // it runs in.
    int64_t next_connection = 0;
    std::unordered_map<int, int> callchain_of_trace;
    size_t next_top_level = 0;
    size_t next_inputs = 0;
    bool inputs_match = input_texts != nullptr;
    std::vector<int64_t> forward_connection(operations.size(), -1);
    std::vector<std::pair<int, int64_t>> backward_links;  // (operation, connection id)
    // Open calls of each thread: (end time, operation index it belongs to).
    std::vector<std::vector<std::pair<int64_t, int>>> open_calls(threads.size());
    std::vector<size_t> next_event(threads.size(), 0);
    using Head = std::pair<int64_t, size_t>;  // (start of a thread's next event, thread)
    std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads;
    for (size_t t = 0; t < threads.size(); ++t) {
        if (!threads[t]->events.empty()) {
            heads.push({threads[t]->events.front().start, t});
        }
    }
    while (!heads.empty()) {
        const size_t t = heads.top().second;
        heads.pop();
        const ThreadTimeline& thread = *threads[t];
        const TimelineEvent& event = thread.events[next_event[t]++];
        if (next_event[t] < thread.events.size()) {
            heads.push({thread.events[next_event[t]].start, t});
        }
        const bool forward_thread = thread.record_function_tid == sources.forward_thread;
        std::vector<std::pair<int64_t, int>>& open = open_calls[t];
        while (!open.empty() && open.back().first <= event.start) {
            open.pop_back();
        }
        ApiCall call;
        call.start_ns = ns(event.start);
        call.end_ns = ns(event.end ? event.end : event.start);
        call.global_tid = pid << 32 | thread.os_tid;
        call.connection_id = next_connection++;
        call.name = name_texts[t][event.name];
        const std::string& name = thread.names[event.name];
        if (event.user_scope && isCollectiveName(name)) {
            call.api_type = kCommunicationApiType;
        }
        call.sequence_number = event.sequence_nr >= 0 ? event.sequence_nr : -1;
        if (event.backward) {
            const auto it = os_tid_of.find(event.fwd_thread);
            call.fwd_thread_id = it != os_tid_of.end() ? it->second : event.fwd_thread;
        }
        int operation = open.empty() ? -1 : open.back().second;
        // Operations that a checkpoint's backward node ran again are nested in it, never
        // top-level: the next top-level call is the next record of another part.
        while (forward_thread && open.empty() && next_top_level < operations.size() &&
               operations[next_top_level].part == OperationRecord::Part::Recomputed) {
            ++next_top_level;
        }
        // The observer's records are the forward thread's top-level calls of the recorded
        // parts, in order: the next one unless this call is of another part.
        if (forward_thread && !event.backward && !event.user_scope && open.empty() &&
            next_top_level < operations.size() && operations[next_top_level].name == name) {
            operation = static_cast<int>(next_top_level++);
            forward_connection[operation] = call.connection_id;
        } else if (event.backward) {
            const int linked = operationOfSequence(operations, event.sequence_nr);
            if (linked >= 0) {
                operation = linked;
                backward_links.emplace_back(linked, call.connection_id);
            }
        }
        if (operation >= 0) {
            const int trace = operations[operation].trace;
            if (!event.backward && trace >= 0) {  // one callchain for each distinct trace
                const auto [it, added] = callchain_of_trace.try_emplace(
                    trace, static_cast<int>(report.callchains.size()));
                if (added) {
                    report.callchains.push_back(traces[trace]);
                }
                call.callchain = it->second;
            }
            if (static_cast<size_t>(operation) < module_texts.size()) {
                call.module_path = module_texts[operation];
            }
        }
        if (forward_thread && !event.backward && !event.user_scope && inputs_match) {
            const auto& inputs = *sources.call_inputs;
            if (next_inputs < inputs.size() && (*input_texts)[inputs[next_inputs].name] == name) {
                call.input_shapes = inputText(inputs[next_inputs].shapes);
                call.input_dtypes = inputText(inputs[next_inputs].dtypes);
                ++next_inputs;
            } else {
                inputs_match = false;  // the iterations differ from here: no guessing
            }
        }
        if (!event.user_scope) {
            // A Python scope around operations ("Optimizer.step#..."): they stay top-level.
            open.emplace_back(event.end ? event.end : event.start, operation);
        }
        report.calls.push_back(call);
        if (flush && report.calls.size() >= kFlushedCalls) {
            flush(report);
            for (size_t read = 0; read < threads.size(); ++read)
                threads[read]->events.releaseBefore(next_event[read]);
        }
    }
    for (const auto& [operation, backward] : backward_links) {
        if (forward_connection[operation] >= 0) {
            report.connections.emplace_back(forward_connection[operation], backward);
        }
    }
}

}  // namespace trainscope
