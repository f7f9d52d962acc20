// SPDX-License-Identifier: Apache-2.0
// Writes a large run time report for the report-browser benchmark: N entries (default
// 1,000,000) with 3 stack frames each, through the engine's own report writer, so its schema
// is the real one. Names, files and times are drawn from a fixed seed to look like a long
// training step of a large model.
//
//   make_large_report [--modules] OUT.time.sqlite [ENTRIES [TIMES_SEED]]
//
// TIMES_SEED draws other times for the same operations, files and lines: a rerun of the same
// model, for bench/compare_runs. --modules gives entries what TrainScope's own reports of a
// real model have besides, as a 48-block transformer's: module paths
// (trainscope_entry_modules), which the open reads and checks too, and the two library frames
// of a module's code (trainscope_library_frames: torch/nn/modules/linear.py, module.py).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench_report.h"
#include "trainscope/error.h"
#include "trainscope/report_writer.h"

int main(int argc, char** argv) {
    std::vector<std::string> args = trainscope::bench::commandLine(
        argc, argv, "make_large_report [--modules] OUT.time.sqlite [ENTRIES [TIMES_SEED]]",
        "Writes a run time report of ENTRIES entries (default 1,000,000), 3 stack frames each,\n"
        "with the engine's writer, for bench/report_open. OUT must not exist. TIMES_SEED draws\n"
        "other times for the same operations and frames (a rerun, for bench/compare_runs).\n"
        "--modules: each entry outside the loss gets a module path (blocks.17.attn.q_proj)\n"
        "and two library frames (torch/nn/modules/linear.py), as in a report of a real model.",
        1, 3, {"--modules"});
    const auto flag = std::find(args.begin(), args.end(), "--modules");
    const bool modules = flag != args.end();
    if (modules)
        args.erase(flag);
    const long entries =
        args.size() > 1 ? trainscope::bench::positiveArgument(args[1], "ENTRIES") : 1000000;
    const std::vector<std::string> operations = {
        "aten::linear", "aten::gelu",    "aten::layer_norm", "aten::matmul",    "aten::softmax",
        "aten::add",    "aten::dropout", "aten::embedding",  "aten::mul",       "aten::transpose",
        "aten::view",   "aten::relu",    "aten::conv2d",     "aten::batch_norm"};
    std::vector<std::string> files;
    for (int i = 0; i < 40; ++i)
        files.push_back("project/module_" + std::to_string(i) + ".py");

    const long times_seed =
        args.size() > 2 ? trainscope::bench::positiveArgument(args[2], "TIMES_SEED") : 2026;
    std::mt19937_64 random(2026);
    std::mt19937_64 times(static_cast<uint64_t>(times_seed));
    std::uniform_int_distribution<size_t> pick_op(0, operations.size() - 1);
    std::uniform_int_distribution<size_t> pick_file(0, files.size() - 1);
    std::uniform_int_distribution<int> pick_line(1, 400);
    std::lognormal_distribution<double> duration(-3.0, 1.0);
    std::bernoulli_distribution has_backward(0.8);
    // Module paths: 1 entry in 50 outside every submodule (the loss, the optimizer's).
    const std::vector<std::string> submodules = {"attn.q_proj",   "attn.k_proj", "attn.v_proj",
                                                 "attn.out_proj", "mlp.fc_in",   "mlp.fc_out",
                                                 "norm_1",        "norm_2"};
    std::uniform_int_distribution<int> pick_module(0, 49);
    std::uniform_int_distribution<int> pick_block(0, 47);
    std::uniform_int_distribution<size_t> pick_submodule(0, submodules.size() - 1);
    // The library frames of an entry in a module: its forward and Module._call_impl.
    const char* const kLibraryRoot = "/usr/lib/python3/dist-packages";
    struct LibraryCode {
        const char* forward_file;
        int forward_line;
    };
    const LibraryCode library_code[] = {{"torch/nn/modules/linear.py", 114},
                                        {"torch/nn/modules/normalization.py", 190}};

    trainscope::TimeReport report;
    report.entries.reserve(entries);
    for (long i = 0; i < entries; ++i) {
        trainscope::RunTimeEntry entry;
        entry.operation_name = operations[pick_op(random)];
        entry.forward_ms = duration(times);
        if (has_backward(random))
            entry.backward_ms = 2.0 * duration(times);
        for (int f = 0; f < 3; ++f)
            entry.frames.push_back({files[pick_file(random)], pick_line(random)});
        // Drawn after the frames, so that the same seed gives the same frames either way.
        if (modules && pick_module(random) > 0) {
            const size_t submodule = pick_submodule(random);
            entry.module_path =
                "blocks." + std::to_string(pick_block(random)) + "." + submodules[submodule];
            // Innermost first: the module's library code, then the project's lines.
            const LibraryCode& code = library_code[submodule < 6 ? 0 : 1];
            entry.frames.insert(entry.frames.begin(),
                                {{code.forward_file, code.forward_line, kLibraryRoot},
                                 {"torch/nn/modules/module.py", 1194, kLibraryRoot}});
        }
        report.entries.push_back(std::move(entry));
    }
    report.metadata = {{"model", "generated: make_large_report"}};
    try {
        trainscope::writeTimeReport(report, args[0], trainscope::Overwrite::Refuse);
    } catch (const trainscope::Error& error) {
        std::fprintf(stderr, "make_large_report: %s\n", error.what());
        return 1;
    }
    std::printf("Wrote %s: %ld entries, %ld stack frames%s\n", args[0].c_str(), entries,
                entries * 3, modules ? ", module paths and library frames" : "");
    return 0;
}
