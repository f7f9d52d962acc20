// SPDX-License-Identifier: Apache-2.0
// The timeline report from a step's records made by hand (records/timeline_record.h,
// records/memory_record.h): calls linked to their operations, frames, modules and backward
// nodes, blocks named by the call that allocated them, and records freed as they are read,
// with no LibTorch.
#include <gtest/gtest.h>

#include "analysis/timeline_builder.h"

using namespace trainscope;

namespace {

constexpr uint64_t kForwardThread = 7;

// One thread: aten::linear [10, 40) with aten::addmm [12, 38) inside it, aten::relu [50, 60),
// then AddmmBackward0 [70, 90) (sequence number 3: linear's); ticks are nanoseconds from 1000.
TimelineRecord oneThread() {
    TimelineRecord record;
    record.clock = TickConversion{0, 1000, 1.0};
    auto thread = std::make_unique<ThreadTimeline>();
    thread->os_tid = 4242;
    thread->record_function_tid = kForwardThread;
    thread->names = {"aten::linear", "aten::addmm", "aten::relu", "AddmmBackward0"};
    thread->events.push_back({10, 40, 3, 0, 0, false, false});
    thread->events.push_back({12, 38, -1, 0, 1, false, false});
    thread->events.push_back({50, 60, -1, 0, 2, false, false});
    thread->events.push_back({70, 90, 3, kForwardThread, 3, true, false});
    record.threads.push_back(std::move(thread));
    return record;
}

// A 256 B block allocated inside aten::addmm (the outermost open event: aten::linear, event 0
// of thread 0) and freed at 80; the step from 5 to 100, its backward from 65.
MemoryRecord oneBlock() {
    MemoryRecord record;
    MemoryEvent allocated;
    allocated.time = 20;
    allocated.ptr = &record;
    allocated.bytes = 256;
    allocated.total_allocated = allocated.total_reserved = 256;
    allocated.outer_event = 0;
    MemoryEvent freed = allocated;
    freed.time = 80;
    freed.bytes = -256;
    freed.total_allocated = freed.total_reserved = 0;
    freed.outer_event = 3;
    record.events.push_back(allocated);
    record.events.push_back(freed);
    record.start_ticks = 5;
    record.end_ticks = 100;
    record.phase_marks = {{"forward", 5}, {"backward", 65}};
    return record;
}

// The sources of a timeline of oneThread() and `memory`.
TimelineSources sourcesOf(MemoryRecord& memory, const std::vector<OperationRecord>& operations,
                          const StackTraces& traces, const std::vector<std::string>& modules) {
    TimelineSources sources;
    sources.calls = oneThread();
    sources.memory = &memory;
    sources.operations = &operations;
    sources.traces = &traces;
    sources.operation_modules = &modules;
    return sources;
}

}  // namespace

TEST(TimelineBuilder, CallsAreLinkedToTheirOperationsAndBlocksToTheirCalls) {
    std::vector<OperationRecord> operations(2);
    operations[0].name = "aten::linear";
    operations[0].seq_begin = 3;
    operations[0].seq_end = 4;
    StackTraces traces;
    operations[0].trace = traces.add({StackFrame{"train.py", 21}});
    operations[1].name = "aten::relu";  // handed out no sequence number
    operations[1].seq_begin = operations[1].seq_end = 4;
    const std::vector<std::string> modules{"fc", "act"};
    MemoryRecord memory = oneBlock();
    TimelineSources sources = sourcesOf(memory, operations, traces, modules);
    sources.forward_thread = kForwardThread;
    sources.step_id = 3;
    // The forward thread's calls' inputs, in call order (the backward node has none).
    TimelineTexts input_texts;
    ChunkedLog<CallInputs> call_inputs;
    for (const char* name : {"aten::linear", "aten::addmm", "aten::relu"})
        call_inputs.push_back({input_texts.add(name), input_texts.add(std::string(name) + " in"),
                               input_texts.add("float")});
    sources.call_inputs = &call_inputs;
    sources.input_texts = &input_texts;
    TimelineReport report;
    buildTimelineMemory(sources, report);
    buildTimelineCalls(sources, report);

    ASSERT_EQ(report.memory.size(), 3u);  // the start, then one sample per event
    EXPECT_EQ(report.memory[0].timestamp_ns, 1005);
    EXPECT_EQ(report.memory[1].total_allocated, 256);
    ASSERT_EQ(report.blocks.size(), 1u);
    EXPECT_EQ(report.texts[report.blocks[0].operation_name], "aten::linear");
    ASSERT_TRUE(report.blocks[0].release.has_value());
    EXPECT_EQ(report.blocks[0].release->timestamp_ns, 1080);
    ASSERT_EQ(report.steps.size(), 1u);
    EXPECT_EQ(report.steps[0].id, 3);
    EXPECT_EQ(report.steps[0].end_ns, 1100);
    ASSERT_EQ(report.phases.size(), 2u);
    EXPECT_EQ(report.phases[1].name, "backward");
    EXPECT_EQ(report.phases[1].end_ns, 1100);
    EXPECT_TRUE(memory.events.empty());  // released once read

    ASSERT_EQ(report.calls.size(), 4u);
    const ApiCall& linear = report.calls[0];
    EXPECT_EQ(linear.start_ns, 1010);
    EXPECT_EQ(report.texts[linear.module_path], "fc");
    ASSERT_GE(linear.callchain, 0);
    EXPECT_EQ(report.callchains[linear.callchain][0].line_number, 21);
    EXPECT_EQ(linear.global_tid & 0xffffffff, 4242u);
    EXPECT_EQ(report.texts[linear.input_shapes], "aten::linear in");
    EXPECT_EQ(report.texts[report.calls[2].input_shapes], "aten::relu in");
    EXPECT_EQ(report.texts[report.calls[2].input_dtypes], "float");
    EXPECT_EQ(report.texts[report.calls[1].module_path], "fc");  // nested: its operation's
    EXPECT_EQ(report.texts[report.calls[2].module_path], "act");
    const ApiCall& backward = report.calls[3];
    EXPECT_EQ(backward.fwd_thread_id, 4242u);  // the forward thread's OS id
    ASSERT_EQ(report.connections.size(), 1u);
    EXPECT_EQ(report.connections[0],
              (std::pair<int64_t, int64_t>{linear.connection_id, backward.connection_id}));
}

TEST(TimelineBuilder, AFlushedReportHoldsOnlyWhatIsLeftAndTheRecordIsFreed) {
    std::vector<OperationRecord> operations;
    StackTraces traces;
    const std::vector<std::string> modules;
    MemoryRecord memory = oneBlock();
    TimelineSources sources = sourcesOf(memory, operations, traces, modules);
    TimelineReport report;
    size_t flushed = 0;
    const TimelineFlush flush = [&](TimelineReport& part) {
        flushed += part.memory.size();
        part.memory.clear();
    };
    buildTimelineMemory(sources, report, flush);
    buildTimelineCalls(sources, report, flush);
    // Too few samples to flush: all of them stay, and every call is a top-level call of no
    // recorded operation.
    EXPECT_EQ(flushed, 0u);
    EXPECT_EQ(report.memory.size(), 3u);
    EXPECT_EQ(report.calls.size(), 4u);
    EXPECT_TRUE(report.connections.empty());
    EXPECT_TRUE(sources.calls.threads.empty());  // moved out and freed by the calls' part
}
