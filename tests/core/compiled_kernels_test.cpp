// SPDX-License-Identifier: Apache-2.0
// A compiled region's kernels as rows of the run time report (analysis/compiled_kernels.h): each
// kernel that a timed step ran follows its region with its median time, forward or backward by
// its graph, below the region's call site; the region keeps what its kernels did not take.
#include "analysis/compiled_kernels.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <sstream>

#include "support/report_reader.h"
#include "trainscope/report_reading.h"
#include "trainscope/report_writer.h"
#include "trainscope/summary_text.h"

using namespace trainscope;

namespace {

CompiledKernelSite site(const std::string& region, bool backward, const std::string& kernel,
                        const std::string& module, int line) {
    return {region, backward, kernel, {"aten.gelu"}, module, {{"model.py", line}}, "", "4,32"};
}

RunTimeEntry entry(const std::string& name, double forward, std::optional<double> backward) {
    RunTimeEntry e;
    e.operation_name = name;
    e.forward_ms = forward;
    e.backward_ms = backward;
    e.frames = {{"train.py", 40}};
    return e;
}

}  // namespace

TEST(CompiledKernels, EachKernelFollowsItsRegionWhichKeepsTheRest) {
    TimeReport time;
    time.entries = {entry("aten::embedding", 0.5, 0.25),
                    entry("Torch-Compiled Region: 0/0", 2.0, 3.0), entry("aten::sum", 0.1, {})};
    const std::vector<CompiledKernelSite> sites = {
        site("0/0", false, "cpp_fused_gelu_0", "mlp.1", 12),
        site("0/0", true, "extern_kernels.mm", "mlp.0", 11),
        site("0/0", false, "cpp_fused_never_run_1", "mlp", 13),
        site("1/0", false, "cpp_fused_add_0", "head", 20),  // no entry names region 1/0
    };
    KernelSteps steps;  // three timed steps; the second ran the first kernel twice
    steps.ms = {{0.2, 1.0, 0.0, 0.05}, {0.6, 1.4}, {0.3, 1.2, 0.0, 0.05}};
    steps.calls = {{1, 1, 0, 1}, {2, 1}, {1, 1, 0, 1}};
    const CompiledRegionSplit split = splitCompiledRegions(time, sites, {}, steps);
    EXPECT_EQ(split.regions_without_provenance, 0);

    ASSERT_EQ(time.entries.size(), 6u);
    const auto& e = time.entries;
    EXPECT_EQ(e[0].operation_name, "aten::embedding");
    EXPECT_EQ(e[1].operation_name, "Torch-Compiled Region: 0/0");
    EXPECT_EQ(e[2].operation_name, "cpp_fused_gelu_0");
    EXPECT_EQ(e[3].operation_name, "extern_kernels.mm");
    EXPECT_EQ(e[4].operation_name, "aten::sum");
    EXPECT_EQ(e[5].operation_name, "cpp_fused_add_0");
    // Medians over the timed steps: forward 0.3 (0.2, 0.6, 0.3), backward 1.2 (1.0, 1.4, 1.2),
    // and a step that did not run a kernel counts as 0 (0.05, 0, 0.05).
    EXPECT_DOUBLE_EQ(e[2].forward_ms, 0.3);
    EXPECT_FALSE(e[2].backward_ms);
    EXPECT_DOUBLE_EQ(e[2].forward_spread.max_ms, 0.6);
    EXPECT_DOUBLE_EQ(e[3].forward_ms, 0.0);
    EXPECT_DOUBLE_EQ(*e[3].backward_ms, 1.2);
    EXPECT_DOUBLE_EQ(e[5].forward_ms, 0.05);
    // The region keeps what its kernels did not take.
    EXPECT_DOUBLE_EQ(e[1].forward_ms, 2.0 - 0.3);
    EXPECT_DOUBLE_EQ(*e[1].backward_ms, 3.0 - 1.2);
    // A kernel's lines above the region's call site; its module its own.
    ASSERT_EQ(e[2].frames.size(), 2u);
    EXPECT_EQ(e[2].frames[0], StackFrame("model.py", 12));
    EXPECT_EQ(e[2].frames[1], StackFrame("train.py", 40));
    EXPECT_EQ(e[3].module_path, "mlp.0");
    EXPECT_EQ(e[5].frames.size(), 1u);  // no region's call site to add
    // The kernel rows, by entry.
    ASSERT_EQ(time.kernels.size(), 3u);
    EXPECT_EQ(time.kernels[0].entry, 2u);
    EXPECT_FALSE(time.kernels[0].backward);
    EXPECT_EQ(time.kernels[0].calls, 1);  // median of 1, 2, 1
    EXPECT_EQ(time.kernels[0].input_shapes, "4,32");
    EXPECT_EQ(time.kernels[1].entry, 3u);
    EXPECT_TRUE(time.kernels[1].backward);
    EXPECT_EQ(time.kernels[2].entry, 5u);
    EXPECT_EQ(time.kernels[2].compile_id, "1/0");
    EXPECT_EQ(time.kernels[2].calls, 1);  // median of 1, 0, 1
    // Where each entry went, for what numbers them (the memory report's activations).
    EXPECT_EQ(split.entry_of_operation, (std::vector<size_t>{0, 1, 4}));
    EXPECT_EQ(split.entry_of_site, (std::vector<int>{2, 3, -1, 5}));
}

TEST(CompiledKernels, AKernelFollowsTheOperationItRanIn) {
    // A graph break: region 1/0 (the function resumed after it) runs inside region 0/0's call,
    // and its backward inside 0/0's backward node; the memory step saw where each ran.
    TimeReport time;
    time.entries = {entry("Torch-Compiled Region: 0/0", 2.0, 3.0), entry("aten::sum", 0.1, {})};
    const std::vector<CompiledKernelSite> sites = {
        site("1/0", false, "extern_kernels.addmm", "b", 12),
        site("1/0", true, "extern_kernels.mm", "b", 12),
    };
    KernelSteps steps;
    steps.ms = {{0.5, 0.25}};
    steps.calls = {{1, 1}};
    EXPECT_EQ(splitCompiledRegions(time, sites, {0, 0}, steps).regions_without_provenance, 0);
    ASSERT_EQ(time.entries.size(), 4u);
    EXPECT_EQ(time.entries[1].operation_name, "extern_kernels.addmm");
    EXPECT_EQ(time.entries[2].operation_name, "extern_kernels.mm");
    EXPECT_EQ(time.entries[3].operation_name, "aten::sum");
    EXPECT_DOUBLE_EQ(time.entries[0].forward_ms, 1.5);
    EXPECT_DOUBLE_EQ(*time.entries[0].backward_ms, 2.75);
    EXPECT_EQ(time.entries[1].frames.back(), StackFrame("train.py", 40));
}

TEST(CompiledKernels, ARegionNeverGoesBelowZero) {
    TimeReport time;
    time.entries = {entry("Torch-Compiled Region: 0/0", 0.1, {})};
    KernelSteps steps;
    steps.ms = {{0.4}};
    steps.calls = {{1}};
    splitCompiledRegions(time, {site("0/0", false, "cpp_fused_add_0", "", 3)}, {}, steps);
    ASSERT_EQ(time.entries.size(), 2u);
    EXPECT_DOUBLE_EQ(time.entries[0].forward_ms, 0.0);
    EXPECT_DOUBLE_EQ(time.entries[1].forward_ms, 0.4);
}

TEST(CompiledKernels, WithoutKernelsTheReportIsAsItWasAndSaysHowManyRegions) {
    TimeReport time;
    time.entries = {entry("Torch-Compiled Region: 0/0", 1.0, 2.0),
                    entry("Torch-Compiled Region: 1/0", 1.0, 2.0)};
    EXPECT_EQ(splitCompiledRegions(time, {}, {}, KernelSteps{}).regions_without_provenance, 2);
    ASSERT_EQ(time.entries.size(), 2u);
    EXPECT_DOUBLE_EQ(time.entries[0].forward_ms, 1.0);
    EXPECT_TRUE(time.kernels.empty());
}

// A model built from a library's modules (transformers, timm): a kernel's own lines are the
// library's and the project's line calls it; on a module, it counts apart from the kernels of
// the project's own lines, and from those without a module, alike in the session and in the file.
TEST(CompiledReportFile, KernelsInALibrarysModulesCountApart) {
    TimeReport time;
    time.entries = {entry("Torch-Compiled Region: 0/0", 1.0, 2.0),
                    entry("extern_kernels.mm", 0.0, 0.5), entry("cpp_fused_gelu_0", 0.25, {}),
                    entry("cpp_fused_add_1", 0.25, {})};
    time.entries[1].module_path = "blocks.0.fc";  // the project's own line
    time.entries[2].module_path = "transformer.h.0.mlp";
    time.entries[2].frames = {{"transformers/models/gpt2/modeling_gpt2.py", 300, "/site"},
                              {"train.py", 40}};
    time.entries[3].frames = {{"torch/nn/functional.py", 12, "/site"}};  // no module, no line
    time.kernels = {{1, "0/0", true, {"aten.mm"}, "", 1, ""},
                    {2, "0/0", false, {"aten.gelu"}, "", 1, ""},
                    {3, "0/0", false, {"aten.add"}, "", 1, ""}};
    const KernelTotals session = kernelTotals(time);
    const std::string path = test::makeTempDir() + "/library.time.sqlite";
    writeTimeReport(time, path, Overwrite::Refuse);
    const KernelTotals file = summarizeReportFile(path).kernels;
    for (const KernelTotals& k : {session, file}) {
        EXPECT_DOUBLE_EQ(k.placed_ms, 0.5);
        EXPECT_DOUBLE_EQ(k.library_ms, 0.25);
        ASSERT_EQ(k.unplaced.size(), 1u);
        EXPECT_DOUBLE_EQ(k.unplaced.begin()->second, 0.25);
        std::ostringstream text;
        printKernels(text, k);
        EXPECT_NE(text.str().find("1.000 ms (forward 0.500, backward 0.500); 50.0% of it on a "
                                  "module and line of the project, 25.0% on a module in library "
                                  "code that a line of the project calls\n"),
                  std::string::npos)
            << text.str();
    }
}

// A report file's compilations and kernels as `trainscope-cli show` reads them back: the
// figures the session wrote, and a foreign file's nonsense duration kept within a day.
TEST(CompiledReportFile, ShowReadsTheCompilationsAndKernelsBackAndBoundsForeignDurations) {
    TimeReport time;
    time.entries = {entry("Torch-Compiled Region: 0/0", 1.0, 2.0),
                    entry("extern_kernels.mm", 0.0, 0.5)};
    time.kernels = {{1, "0/0", true, {"aten.mm"}, "", 1, "4,8;8,8"}};
    time.compilations = {
        {"0/0", "forward", "forward", "model.py", 7, 1'000, 2'000'001'000, 0, "", ""}};
    const std::string path = test::makeTempDir() + "/run.time.sqlite";
    writeTimeReport(time, path, Overwrite::Refuse);
    ReportFileSummary read = summarizeReportFile(path);
    ASSERT_EQ(read.compilations.size(), 1u);
    EXPECT_DOUBLE_EQ(read.compilations[0].ms(), 2000.0);
    EXPECT_EQ(read.kernels.kernels, 1);
    EXPECT_DOUBLE_EQ(read.kernels.backward_ms, 0.5);
    EXPECT_DOUBLE_EQ(read.kernels.placed_ms, 0.5);  // its frame is the project's
    EXPECT_DOUBLE_EQ(read.kernels.library_ms, 0.0);
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        EXPECT_EQ(sqlite3_exec(db,
                               "UPDATE trainscope_compilations SET duration_ms = 1e300, "
                               "start_ns = 9223372036854775000",
                               nullptr, nullptr, nullptr),
                  SQLITE_OK);
        sqlite3_close(db);
    }
    read = summarizeReportFile(path);
    ASSERT_EQ(read.compilations.size(), 1u);
    EXPECT_GE(read.compilations[0].ms(), 0.0);
    EXPECT_LE(read.compilations[0].ms(), 8.64e7);
}

// A step function compiled whole (zero_grad, forward, backward() and the optimizer's step in one
// region): the region's call holds its backward kernels too, and the optimizer's fused update,
// placed by Inductor in torch.optim's code, is optimizer time. The sum is the region's time once
// (it read 141 % of the iteration, each kernel counted in its row and again in the region's).
TEST(CompiledKernels, AWholeCompiledStepCountsEachKernelOnceAndItsOptimizerApart) {
    TimeReport time;
    time.entries = {entry("Torch-Compiled Region: 0/0", 10.0, {})};
    CompiledKernelSite update = site("0/0", false, "cpp_fused_add_addcdiv_lerp_0", "", 0);
    update.frames = {{"torch/optim/adam.py", 527, "/usr/lib/python3/dist-packages"}};
    const std::vector<CompiledKernelSite> sites = {
        site("0/0", false, "extern_kernels.addmm", "fc", 12),
        site("0/0", true, "extern_kernels.mm", "fc", 12), update};
    KernelSteps steps;
    steps.ms = {{2.0, 3.0, 4.0}};
    steps.calls = {{1, 1, 1}};
    splitCompiledRegions(time, sites, {0, 0, 0}, steps);
    ASSERT_EQ(time.entries.size(), 4u);
    EXPECT_DOUBLE_EQ(time.entries[0].forward_ms, 10.0 - 2.0 - 3.0 - 4.0);
    const PartTimes parts = time.partTimes();
    EXPECT_DOUBLE_EQ(parts.sum(), 10.0);
    EXPECT_DOUBLE_EQ(parts.backward_ms, 3.0);
    EXPECT_DOUBLE_EQ(parts.optimizer_ms, 4.0);
    EXPECT_DOUBLE_EQ(parts.forward_ms, 1.0 + 2.0);
}
