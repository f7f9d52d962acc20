// SPDX-License-Identifier: Apache-2.0
// The timeline report (the Ascend timeline schema, torch_npu's) against the other two reports of
// the same run: the invariants that tie them together, checked by reading the three files written
// by one run of built-in models and of the toy project. Also the peak broken down at its instant,
// and module paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <numeric>

#include "support/report_reader.h"
#include "support/small_transformer.h"
#include "support/toynet.h"
#include "trainscope/report_format.h"
#include "trainscope/run.h"

using namespace trainscope;
namespace fs = std::filesystem;
using test::ReportReader;

namespace {

struct Call {
    int64_t start = 0, end = 0, tid = 0, connection = 0;
    std::string name, innermost_frame, module;
};

class TimelineReportTest : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override {
        dir_ = test::makeTempDir();
        RunPlan plan;
        plan.config = config(GetParam());
        plan.output = dir_ + "/run";
        paths_ = runAndWrite(plan).paths;
    }
    void TearDown() override { fs::remove_all(dir_); }

    static RunConfig config(const std::string& name) {
        RunConfig config;
        if (name == "toynet") {
            config = test::toynetConfig(TOYNET_PROJECT, 1);
        } else if (name == "transformer") {
            config = test::smallTransformerPlan({}).config;
            config.optimizer = OptimizerKind::Adam;  // optimizer state at the peak
        } else {
            config.model = "builtin:mlp";
            config.params = {{"d_model", "64"}};
            config.inputs = {parseInputSpec("2x16x64")};
        }
        config.warmup = 1;
        config.iterations = 1;
        return config;
    }

    ReportReader memory() const { return ReportReader(paths_[0]); }
    ReportReader time() const { return ReportReader(paths_[1]); }
    ReportReader timeline() const { return ReportReader(paths_[2]); }

    int64_t phaseStart(const std::string& phase) const {
        return std::stoll(timeline().scalar(
            "SELECT start_ns FROM trainscope_phases WHERE name = '" + phase + "'"));
    }

    std::vector<Call> calls() const {
        std::vector<Call> calls;
        for (const test::Row& row : timeline().rows(
                 "SELECT CAST(a.startNs AS INTEGER), CAST(a.endNs AS INTEGER), a.globalTid, "
                 "a.connectionId, n.value, coalesce(f.value, ''), coalesce(m.module_path, '') "
                 "FROM PYTORCH_API a JOIN STRING_IDS n ON n.id = a.name "
                 "LEFT JOIN PYTORCH_CALLCHAINS c ON c.id = a.callchainId AND c.stackDepth = 0 "
                 "LEFT JOIN STRING_IDS f ON f.id = c.stack "
                 "LEFT JOIN trainscope_api_modules m ON m.connection_id = a.connectionId "
                 "ORDER BY CAST(a.startNs AS INTEGER)")) {
            calls.push_back({std::stoll(row[0]), std::stoll(row[1]), std::stoll(row[2]),
                             std::stoll(row[3]), row[4], row[5], row[6]});
        }
        return calls;
    }

    // The top-level calls of the forward pass (and loss), on the thread that ran it.
    std::vector<Call> topLevelForward() const {
        const int64_t forward = phaseStart("forward"), backward = phaseStart("backward");
        std::vector<Call> all = calls(), top;
        if (all.empty()) {
            return top;
        }
        const int64_t thread = all.front().tid;
        int64_t open_until = -1;
        for (const Call& call : all) {
            if (call.tid != thread || call.start < forward || call.start >= backward) {
                continue;
            }
            if (call.start >= open_until) {
                top.push_back(call);
                open_until = call.end;
            }
        }
        return top;
    }

    std::string dir_;
    std::vector<std::string> paths_;
};

TEST_P(TimelineReportTest, HasTheAscendTimelinesTablesWithTheirDeclaredTypes) {
    const ReportReader file = timeline();
    EXPECT_EQ(file.scalar("SELECT type FROM pragma_table_info('PYTORCH_API') WHERE name = "
                          "'startNs'"),
              "TEXT");
    EXPECT_EQ(file.scalar("SELECT typeof(startNs) FROM PYTORCH_API LIMIT 1"), "text");
    for (const char* table :
         {"STRING_IDS", "PYTORCH_API", "CONNECTION_IDS", "PYTORCH_CALLCHAINS", "MEMORY_RECORD",
          "OP_MEMORY", "RANK_DEVICE_MAP", "STEP_TIME", "ENUM_API_TYPE", "META_DATA"}) {
        EXPECT_NE(file.scalar(std::string("SELECT COUNT(*) FROM ") + table), "0") << table;
    }
    EXPECT_EQ(file.scalar("SELECT value FROM META_DATA WHERE name = 'SCHEMA_VERSION'"), "1.0.0");
    EXPECT_EQ(file.scalar("SELECT COUNT(*) FROM STEP_TIME"), "1");
    // Names live in the framework range of STRING_IDS, memory strings in theirs.
    EXPECT_EQ(file.scalar("SELECT MIN(name) >= 268435456 AND MAX(name) < 536870912 FROM "
                          "PYTORCH_API"),
              "1");
    EXPECT_EQ(file.scalar("SELECT MIN(name) >= 536870912 FROM OP_MEMORY"), "1");
}

TEST_P(TimelineReportTest, TheHighestAllocatedTotalIsThePeak) {
    EXPECT_EQ(timeline().scalar("SELECT MAX(totalAllocated) FROM MEMORY_RECORD, STEP_TIME "
                                "WHERE timestamp BETWEEN startNs AND endNs"),
              memory().scalar("SELECT size_bytes FROM misc_sizes WHERE key = 'peak_usage_bytes'"));
}

TEST_P(TimelineReportTest, BlocksAliveAtBackwardAreEachOperationsActivations) {
    const int64_t backward = phaseStart("backward");
    std::vector<std::pair<int64_t, int64_t>> blocks;  // (allocation time, size) still alive
    for (const test::Row& row :
         timeline().rows("SELECT allocationTime, size FROM OP_MEMORY WHERE releaseTime IS NULL "
                         "OR releaseTime >= " +
                         std::to_string(backward))) {
        blocks.emplace_back(std::stoll(row[0]), std::stoll(row[1]));
    }
    std::vector<test::Row> expected;
    for (const Call& call : topLevelForward()) {
        int64_t bytes = 0;
        for (const auto& [at, size] : blocks) {
            bytes += at >= call.start && at <= call.end ? size : 0;
        }
        if (bytes > 0) {
            expected.push_back({call.name, std::to_string(bytes)});
        }
    }
    EXPECT_EQ(memory().rows("SELECT operation_name, size_bytes FROM activation_entries "
                            "WHERE operation_name != '(outside operations)' ORDER BY id"),
              expected);
}

// An activation's operation number is the run time report's entry id of the same operation
// (same name, same module), so that both tabs number an operation alike.
TEST_P(TimelineReportTest, ActivationsAreNumberedAsTheRunTimeEntriesOfTheirOperations) {
    std::map<std::string, test::Row> timed;
    for (const test::Row& row : time().rows(
             "SELECT e.id, e.operation_name, coalesce(m.module_path, '') FROM run_time_entries e "
             "LEFT JOIN trainscope_entry_modules m ON m.entry_id = e.id")) {
        timed[row[0]] = {row[1], row[2]};
    }
    const std::vector<test::Row> numbered = memory().rows(
        "SELECT o.operation_number, a.operation_name, coalesce(m.module_path, '') FROM "
        "activation_entries a JOIN trainscope_activation_operations o ON o.entry_id = a.id "
        "LEFT JOIN trainscope_entry_modules m ON m.entry_type = 2 AND m.entry_id = a.id");
    ASSERT_FALSE(numbered.empty());
    for (const test::Row& row : numbered) {
        ASSERT_TRUE(timed.count(row[0])) << "no run time entry " << row[0];
        EXPECT_EQ(timed[row[0]], (test::Row{row[1], row[2]})) << "operation " << row[0];
    }
    // Every activation but the memory allocated outside operations has its number.
    EXPECT_EQ(memory().scalar("SELECT COUNT(*) FROM activation_entries WHERE operation_name != "
                              "'(outside operations)' AND id NOT IN (SELECT entry_id FROM "
                              "trainscope_activation_operations)"),
              "0");
}

// Each time is the median of the measured iterations, within their spread, which the report
// keeps so that a comparison of two runs can tell a difference from noise.
TEST_P(TimelineReportTest, EveryTimeLiesWithinTheSpreadOfItsIterations) {
    const std::vector<test::Row> rows = time().rows(
        "SELECT e.forward_ms, s.forward_min_ms, s.forward_max_ms, "
        "coalesce(e.backward_ms, -1), coalesce(s.backward_min_ms, -1), "
        "coalesce(s.backward_max_ms, -1) FROM run_time_entries e "
        "JOIN trainscope_time_spread s ON s.entry_id = e.id");
    ASSERT_EQ(std::to_string(rows.size()), time().scalar("SELECT COUNT(*) FROM run_time_entries"));
    for (const test::Row& row : rows) {
        EXPECT_LE(std::stod(row[1]), std::stod(row[0]));
        EXPECT_LE(std::stod(row[0]), std::stod(row[2]));
        EXPECT_LE(std::stod(row[4]), std::stod(row[3]));  // both -1 without a backward time
        EXPECT_LE(std::stod(row[3]), std::stod(row[5]));
        EXPECT_EQ(row[3] == "-1", row[4] == "-1");
    }
    auto metadata = [&](const std::string& key) {
        return std::stod(
            time().scalar("SELECT value FROM trainscope_metadata WHERE key = '" + key + "'"));
    };
    EXPECT_LE(metadata("iteration_min_ms"), metadata("iteration_ms"));
    EXPECT_LE(metadata("iteration_ms"), metadata("iteration_max_ms"));
}

TEST_P(TimelineReportTest, EveryTimedOperationIsATopLevelCallWithItsNameAndInnermostFrame) {
    std::vector<test::Row> timed;
    for (const test::Row& row : time().rows(
             "SELECT e.operation_name, coalesce(f.file_path || '(' || f.line_number || ')', ''), "
             "coalesce(m.module_path, '') FROM run_time_entries e "
             "LEFT JOIN stack_frames f ON f.entry_id = e.id AND f.ordering = 0 "
             "LEFT JOIN trainscope_entry_modules m ON m.entry_id = e.id ORDER BY e.id")) {
        timed.push_back(row);
    }
    std::vector<test::Row> called;
    for (const Call& call : topLevelForward()) {
        called.push_back({call.name, call.innermost_frame, call.module});
    }
    EXPECT_EQ(called, timed);
}

TEST_P(TimelineReportTest, NestedCallsLieInsideTheirParents) {
    std::map<int64_t, std::vector<Call>> by_thread;
    for (const Call& call : calls()) {
        by_thread[call.tid].push_back(call);
    }
    int nested = 0;
    for (const auto& [tid, thread_calls] : by_thread) {
        std::vector<const Call*> open;
        for (const Call& call : thread_calls) {
            EXPECT_LE(call.start, call.end) << call.name;
            while (!open.empty() && open.back()->end <= call.start) {
                open.pop_back();
            }
            if (!open.empty()) {
                ++nested;
                EXPECT_LE(call.end, open.back()->end)
                    << call.name << " overlaps " << open.back()->name << " without lying in it";
            }
            open.push_back(&call);
        }
    }
    EXPECT_GT(nested, 0) << "no nested calls were recorded";
}

TEST_P(TimelineReportTest, ForwardCallsAreLinkedToTheirBackwardNodes) {
    EXPECT_NE(timeline().scalar("SELECT COUNT(*) FROM CONNECTION_IDS c JOIN PYTORCH_API f ON "
                                "f.connectionId = c.id JOIN PYTORCH_API b ON b.connectionId = "
                                "c.connectionId JOIN STRING_IDS n ON n.id = b.name WHERE "
                                "n.value LIKE '%Backward%'"),
              "0");
    EXPECT_EQ(timeline().scalar("SELECT COUNT(*) FROM CONNECTION_IDS c LEFT JOIN PYTORCH_API b "
                                "ON b.connectionId = c.connectionId WHERE b.connectionId IS NULL"),
              "0");
}

// inputShapes and inputDtypes list an operation's own arguments, one item each: never what
// else lay on the interpreter's stack (a module object under a method call).
TEST_P(TimelineReportTest, InputsListEachOperationsOwnArguments) {
    const ReportReader file = timeline();
    EXPECT_EQ(file.scalar("SELECT COUNT(*) FROM PYTORCH_API a JOIN STRING_IDS d ON d.id = "
                          "a.inputDtypes WHERE d.value LIKE '%Object%'"),
              "0");
    if (GetParam() == "mlp") {
        // aten::linear(input, weight, bias) of the first layer.
        const test::Row first = file.rows(
            "SELECT s.value, d.value FROM PYTORCH_API a JOIN STRING_IDS n ON n.id = a.name "
            "JOIN STRING_IDS s ON s.id = a.inputShapes JOIN STRING_IDS d ON d.id = "
            "a.inputDtypes WHERE n.value = 'aten::linear' ORDER BY CAST(a.startNs AS INTEGER) "
            "LIMIT 1")[0];
        EXPECT_EQ(first[0], "2,16,64;\r\n256,64;\r\n256");  // d_model 64, hidden 4 x 64
        EXPECT_EQ(first[1], "float;\r\nfloat;\r\nfloat");
    }
}

TEST_P(TimelineReportTest, ThePeakBreakdownSumsToThePeak) {
    const ReportReader file = memory();
    const int64_t peak = std::stoll(file.scalar("SELECT size_bytes FROM misc_sizes WHERE key = '" +
                                                std::string(report_format::kPeakUsageKey) + "'"));
    int64_t parts = 0;
    for (const char* key : {report_format::kPeakWeightsKey, report_format::kPeakGradientsKey,
                            report_format::kPeakOptimizerStateKey,
                            report_format::kPeakActivationsKey, report_format::kPeakOtherKey}) {
        parts += std::stoll(file.scalar(
            std::string("SELECT size_bytes FROM misc_sizes WHERE key = '") + key + "'"));
    }
    EXPECT_EQ(parts, peak);
    EXPECT_EQ(file.scalar("SELECT SUM(size_bytes) FROM trainscope_peak_by_module"),
              std::to_string(peak));
    // The weights are all allocated all the time.
    EXPECT_EQ(file.scalar("SELECT size_bytes FROM misc_sizes WHERE key = 'peak_weights_bytes'"),
              file.scalar("SELECT SUM(size_bytes) FROM weight_entries"));
    if (GetParam() == "transformer") {  // Adam keeps two moments per parameter
        EXPECT_EQ(file.scalar(
                      "SELECT size_bytes FROM misc_sizes WHERE key = 'peak_optimizer_state_bytes'"),
                  std::to_string(2 * std::stoll(file.scalar("SELECT SUM(size_bytes) FROM "
                                                            "weight_entries"))));
    }
}

INSTANTIATE_TEST_SUITE_P(Models, TimelineReportTest,
                         ::testing::Values("mlp", "transformer", "toynet"),
                         [](const auto& info) { return std::string(info.param); });

// Module paths name the module instances, also those taken from a list of blocks, whose
// instance name TorchScript does not keep.
TEST(ModulePaths, NameEachOperationsModuleInstance) {
    const std::string dir = test::makeTempDir();
    const RunResult result = runAndWrite(test::smallTransformerPlan(dir + "/run"));
    fs::remove_all(dir);
    std::vector<std::string> linear_modules;
    for (const RunTimeEntry& entry : result.time->entries) {
        if (entry.operation_name == "aten::linear") {
            linear_modules.push_back(entry.module_path);
        }
    }
    EXPECT_EQ(linear_modules, (std::vector<std::string>{
                                  "blocks_0.attn.qkv", "blocks_0.attn.proj", "blocks_0.mlp.lin_0",
                                  "blocks_0.mlp.lin_1", "blocks_1.attn.qkv", "blocks_1.attn.proj",
                                  "blocks_1.mlp.lin_0", "blocks_1.mlp.lin_1", "lm_head"}));
    // An operation without weights in a listed block: its neighbours place it.
    const auto gelu =
        std::find_if(result.time->entries.begin(), result.time->entries.end(),
                     [](const RunTimeEntry& e) { return e.operation_name == "aten::gelu"; });
    ASSERT_NE(gelu, result.time->entries.end());
    EXPECT_EQ(gelu->module_path, "blocks_0.mlp");
    for (const WeightEntry& weight : result.memory->weights) {
        EXPECT_EQ(weight.module_path + "." + weight.name.substr(weight.name.rfind('.') + 1),
                  weight.name);
    }
}

// A library module that calls a free function (BatchNorm1d calls F.batch_norm, which the
// interpreter runs as a frame of its own) is still the module of the operation.
TEST(ModulePaths, AFreeFunctionCalledByAModuleKeepsTheModule) {
    const std::string dir = test::makeTempDir();
    RunPlan plan;
    plan.config.model = INDEXED_ARCHIVE;
    plan.config.inputs = {parseInputSpec("4x16")};
    plan.config.warmup = 1;
    plan.config.iterations = 1;
    plan.measure = Measure::Time;
    plan.output = dir + "/t.sqlite";
    const RunResult result = runAndWrite(plan);
    fs::remove_all(dir);
    std::map<std::string, std::string> module_of;
    for (const RunTimeEntry& entry : result.time->entries) {
        module_of[entry.operation_name] = entry.module_path;
    }
    EXPECT_EQ(module_of["aten::batch_norm"], "norm");
    EXPECT_EQ(module_of["aten::index"], "");
}

}  // namespace
