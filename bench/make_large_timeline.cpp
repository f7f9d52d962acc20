// SPDX-License-Identifier: Apache-2.0
// Writes a large timeline report for the timeline view's benchmark, through the engine's own
// timeline writer (so its schema is the real one): CALLS framework calls (default 1,000,000) and
// 1.2 times as many MEMORY_RECORD rows, shaped like one long training step. The forward pass is
// top-level operations with two nested calls each: the operation allocates a block that its
// backward node frees, each nested call a temporary that it frees. The backward pass is one node
// with a nested call per forward operation. Given RANK, it is that rank's timeline of a job
// (RANK_DEVICE_MAP; its own random durations; eight all-reduces in the backward pass, as
// DDP's buckets), for the ranks' benchmarks.
//
//   make_large_timeline OUT.timeline.sqlite [CALLS [RANK]]
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench_report.h"
#include "trainscope/error.h"
#include "trainscope/report_writer.h"

int main(int argc, char** argv) {
    const std::vector<std::string> args = trainscope::bench::commandLine(
        argc, argv, "make_large_timeline OUT.timeline.sqlite [CALLS [RANK]]",
        "Writes a timeline of CALLS framework calls (default 1,000,000; at least 5) and 1.2\n"
        "times as many memory records, with the engine's writer, for bench/timeline_view.\n"
        "Given RANK (0 or more), rank RANK's timeline of a job, with eight all-reduces more.",
        1, 3);
    const long calls =
        args.size() > 1 ? trainscope::bench::positiveArgument(args[1], "CALLS") : 1000000;
    if (calls < 5) {
        std::fprintf(stderr, "CALLS must be at least 5 (an operation makes 5 calls)\n");
        return 2;
    }
    const long rank = args.size() > 2 ? trainscope::bench::wholeArgument(args[2], "RANK", 0) : -1;
    const long operations = calls / 5;  // 3 forward calls and 2 backward calls each
    const std::vector<std::string> names = {"aten::linear",  "aten::gelu",    "aten::layer_norm",
                                            "aten::matmul",  "aten::softmax", "aten::add",
                                            "aten::dropout", "aten::mul",     "aten::conv2d"};
    std::mt19937_64 random(2026 + uint64_t(std::max(rank, 0L)));
    std::uniform_int_distribution<size_t> pick(0, names.size() - 1);
    std::uniform_int_distribution<int64_t> duration(1'000, 20'000);  // ns
    std::uniform_int_distribution<int64_t> size(1, 64);              // KiB

    trainscope::TimelineReport report;
    report.callchains.push_back({{"project/model.py", 12}, {"project/train.py", 40}});
    const uint64_t tid = (uint64_t(4242) << 32) | 4242;
    int64_t now = 1'795'000'000'000'000'000, allocated = 1 << 30;
    const int64_t start = now;
    auto sample = [&](int64_t at) {
        trainscope::MemorySample s{at, allocated, allocated + (64 << 20), allocated};
        report.memory.push_back(s);
        return s;
    };
    sample(now);
    std::vector<size_t> open_blocks;
    int64_t connection = 0;
    for (long op = 0; op < operations; ++op) {
        trainscope::ApiCall top;
        top.start_ns = now;
        top.global_tid = tid;
        top.connection_id = ++connection;
        top.name = report.texts.add(names[pick(random)]);
        top.sequence_number = op;
        top.input_shapes = report.texts.add("64,1024;\r\n1024,1024");
        top.input_dtypes = report.texts.add("float;\r\nfloat");
        top.callchain = 0;
        top.module_path = report.texts.add("blocks_" + std::to_string(op % 48) + ".mlp");
        const size_t top_index = report.calls.size();
        report.calls.push_back(top);
        // One block per operation (its activation), freed by its backward node.
        trainscope::BlockLifetime block;
        block.operation_name = top.name;
        block.size_bytes = size(random) << 10;
        allocated += block.size_bytes;
        block.allocation = sample(now + 50);
        open_blocks.push_back(report.blocks.size());
        report.blocks.push_back(block);
        for (int child = 0; child < 2; ++child) {
            trainscope::ApiCall nested = top;
            nested.connection_id = ++connection;
            nested.name = report.texts.add(child == 0 ? "aten::empty" : "aten::addmm");
            nested.start_ns = now + 100;
            now += duration(random);
            nested.end_ns = now;
            now += 100;
            report.calls.push_back(nested);
            // A temporary of the nested call, freed before it returns.
            trainscope::BlockLifetime temporary;
            temporary.operation_name = top.name;
            temporary.size_bytes = size(random) << 10;
            allocated += temporary.size_bytes;
            temporary.allocation = sample(nested.start_ns + 10);
            allocated -= temporary.size_bytes;
            temporary.release = sample(nested.end_ns - 10);
            report.blocks.push_back(temporary);
        }
        report.calls[top_index].end_ns = now;
        now += 200;
    }
    const int64_t backward = now;
    for (long op = operations - 1; op >= 0; --op) {
        trainscope::ApiCall node;
        node.start_ns = now;
        node.global_tid = tid;
        node.connection_id = ++connection;
        node.name = report.texts.add("autograd::engine::evaluate_function: AddmmBackward0");
        node.sequence_number = op;
        node.fwd_thread_id = 4242;
        report.connections.emplace_back(1 + op * 3, node.connection_id);
        const size_t node_index = report.calls.size();
        report.calls.push_back(node);
        trainscope::ApiCall nested = node;
        nested.connection_id = ++connection;
        nested.name = report.texts.add("aten::mm");
        nested.fwd_thread_id = 0;
        nested.sequence_number = -1;
        nested.start_ns = now + 100;
        now += duration(random);
        nested.end_ns = now;
        report.calls.push_back(nested);
        now += 100;
        report.calls[node_index].end_ns = now;
        if (rank >= 0 && op % std::max(1L, operations / 8) == 0) {
            trainscope::ApiCall allreduce = node;
            allreduce.connection_id = ++connection;
            allreduce.name = report.texts.add("c10d::allreduce_");
            allreduce.api_type = trainscope::kCommunicationApiType;
            allreduce.fwd_thread_id = 0;
            allreduce.sequence_number = -1;
            allreduce.input_shapes = report.texts.add("[[6553600]]");
            allreduce.input_dtypes = report.texts.add("[float]");
            allreduce.start_ns = now + 100;
            now += 1'000'000 + duration(random) * 10;
            allreduce.end_ns = now;
            report.calls.push_back(allreduce);
            now += 100;
        }
        trainscope::BlockLifetime& block = report.blocks[open_blocks[size_t(op)]];
        allocated -= block.size_bytes;
        block.release = sample(now - 50);
        now += 200;
    }
    report.steps = {{1, start, now}};
    report.phases = {{"forward", start, backward}, {"backward", backward, now}};
    report.metadata = {{"model", "generated: make_large_timeline"}};
    report.rank = int(rank);
    try {
        trainscope::writeTimelineReport(report, argv[1], trainscope::Overwrite::Allow);
    } catch (const trainscope::Error& e) {
        std::fprintf(stderr, "make_large_timeline: %s\n", e.what());
        return 1;
    }
    std::printf("wrote %s: %zu calls, %zu memory records, %zu blocks\n", argv[1],
                report.calls.size(), report.memory.size(), report.blocks.size());
    return 0;
}
