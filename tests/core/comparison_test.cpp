// SPDX-License-Identifier: Apache-2.0
// Two runs compared (trainscope/comparison.h): real runs of the built-in models, written and
// read back through the reports.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "support/report_reader.h"
#include "support/small_transformer.h"
#include "trainscope/comparison.h"
#include "trainscope/error.h"
#include "trainscope/run.h"

using namespace trainscope;
namespace fs = std::filesystem;

namespace {

// The built-in MLP with its default inputs (2x1024xd): the linear layers take milliseconds, well
// above a time slice of the scheduler, which is what a busy machine adds to an iteration.
RunPlan mlpPlan(const std::string& prefix, int d_model) {
    RunPlan plan;
    plan.config.model = "builtin:mlp";
    plan.config.params = {{"d_model", std::to_string(d_model)}};
    plan.config.warmup = 1;
    plan.config.iterations = 5;
    plan.output = prefix;
    return plan;
}

const ComparedItem& itemNamed(const Comparison& c, ItemKind kind, const std::string& name) {
    for (const ComparedItem& item : c.items) {
        if (item.kind == kind && item.name == name) {
            return item;
        }
    }
    throw std::runtime_error("no item " + name);
}

const FigureChange& figureOf(const ComparedItem& item, Figure figure) {
    const FigureChange* f = item.figure(figure);
    if (!f) {
        throw std::runtime_error(item.name + " has no " + figureKey(figure));
    }
    return *f;
}

bool flagged(const std::vector<GateViolation>& violations, const std::string& name, Figure figure) {
    for (const GateViolation& v : violations) {
        if (v.item->name == name && v.change.figure == figure) {
            return true;
        }
    }
    return false;
}

class ComparisonTest : public ::testing::Test {
  protected:
    // One run of each configuration for the whole suite: profiling is the slow part.
    static void SetUpTestSuite() {
        dir_ = new std::string(test::makeTempDir());
        // Three measured iterations: a spread is the fastest to the slowest, and each more
        // iteration is one more chance for the machine to delay one by a multiple.
        for (int d_model : {256, 512}) {
            RunPlan plan = mlpPlan(*dir_ + "/mlp" + std::to_string(d_model), d_model);
            plan.config.iterations = 3;
            runAndWrite(plan);
        }
    }
    static void TearDownTestSuite() {
        fs::remove_all(*dir_);
        delete dir_;
    }
    static std::string path(const std::string& name) { return *dir_ + "/" + name; }
    static Comparison compare(const std::string& base, const std::string& changed) {
        return compareRuns(findRunReports(path(base)), findRunReports(path(changed)));
    }

    static std::string* dir_;
};

std::string* ComparisonTest::dir_ = nullptr;

TEST_F(ComparisonTest, AWiderMlpIsFlaggedInItsLinearLayersTimeAndMemoryAndInThePeak) {
    const Comparison c = compare("mlp256", "mlp512");
    const std::vector<GateViolation> violations = gateViolations(c, GateLimits{});
    EXPECT_EQ(c.matched_operations, 4);
    EXPECT_EQ(c.added_operations + c.removed_operations, 0);
    EXPECT_TRUE(c.notes.empty());

    for (const std::string linear : {"lin_0 · aten::linear #1", "lin_1 · aten::linear #1"}) {
        SCOPED_TRACE(linear);
        const ComparedItem& op = itemNamed(c, ItemKind::Operation, linear);
        // Four times the multiply-adds: forward slower in every measured iteration.
        const FigureChange& forward = figureOf(op, Figure::ForwardTime);
        EXPECT_GT(forward.delta(), 0);
        EXPECT_TRUE(forward.significant())
            << forward.base_spread->max_ms << " vs " << forward.new_spread->min_ms;
        EXPECT_TRUE(flagged(violations, linear, Figure::ForwardTime));
        // Its output is twice as wide when it is lin_0 (d -> 4d), and so on: bytes are exact.
        const FigureChange& activations = figureOf(op, Figure::ActivationBytes);
        EXPECT_EQ(*activations.changed, 2 * *activations.base);
        EXPECT_TRUE(flagged(violations, linear, Figure::ActivationBytes));
    }
    const ComparedItem& weight = itemNamed(c, ItemKind::Weight, "lin_0.weight");
    EXPECT_EQ(*figureOf(weight, Figure::WeightBytes).base, 256.0 * 1024 * 4);
    EXPECT_EQ(*figureOf(weight, Figure::WeightBytes).changed, 512.0 * 2048 * 4);
    const ComparedItem& module = itemNamed(c, ItemKind::Module, "lin_0");
    EXPECT_EQ(*figureOf(module, Figure::GradientBytes).changed, (512.0 * 2048 + 2048) * 4);

    const ComparedItem& iteration = itemNamed(c, ItemKind::Total, "iteration");
    const FigureChange& peak = figureOf(iteration, Figure::PeakBytes);
    EXPECT_GT(peak.delta(), 0);
    EXPECT_TRUE(flagged(violations, "iteration", Figure::PeakBytes));
    // The peak's parts change by what they hold: the weights exactly as the parameters do.
    EXPECT_EQ(figureOf(itemNamed(c, ItemKind::Total, "peak_weights"), Figure::PeakWeights).delta(),
              figureOf(itemNamed(c, ItemKind::Total, "weights"), Figure::WeightBytes).delta());

    // The operations come sorted by the size of their time change: the linear layers first.
    std::vector<std::string> operations;
    for (const ComparedItem& item : c.items)
        if (item.kind == ItemKind::Operation)
            operations.push_back(item.name);
    ASSERT_EQ(operations.size(), 4u);
    EXPECT_NE(operations[0].find("aten::linear"), std::string::npos);
    EXPECT_NE(operations[1].find("aten::linear"), std::string::npos);
}

TEST_F(ComparisonTest, ARunComparedWithItselfShowsNoDifference) {
    const Comparison c = compare("mlp256", "mlp256");
    EXPECT_EQ(c.matched_operations, 4);
    for (const ComparedItem& item : c.items) {
        EXPECT_EQ(item.presence, Presence::Both) << item.name;
        for (const FigureChange& f : item.figures) {
            EXPECT_TRUE(f.compared()) << item.name << " " << figureKey(f.figure);
            EXPECT_EQ(f.delta(), 0) << item.name << " " << figureKey(f.figure);
            EXPECT_FALSE(f.significant());
        }
    }
    EXPECT_TRUE(gateViolations(c, GateLimits{0.0, 0.0}).empty());
}

TEST_F(ComparisonTest, OperationsOutsideModulesAreMatchedByTheirSourceLine) {
    const Comparison c = compare("mlp256", "mlp512");
    // The activation is a functional call in mlp.py's forward, in no submodule.
    const ComparedItem* gelu = nullptr;
    for (const ComparedItem& item : c.items)
        if (item.kind == ItemKind::Operation && item.operation == "aten::gelu")
            gelu = &item;
    ASSERT_NE(gelu, nullptr);
    EXPECT_EQ(gelu->module_path, "");
    EXPECT_EQ(gelu->location.rfind("mlp.py:", 0), 0u) << gelu->location;
    EXPECT_EQ(gelu->name, "@" + gelu->location + " · aten::gelu #1");
    EXPECT_EQ(gelu->presence, Presence::Both);
    EXPECT_GT(gelu->base_entry, 0);
    EXPECT_EQ(gelu->entry_kind, EntryKind::RunTime);
}

TEST_F(ComparisonTest, AnAddedLayerIsListedAsAdded) {
    RunPlan two = test::smallTransformerPlan(path("blocks2"));
    RunPlan three = test::smallTransformerPlan(path("blocks3"));
    three.config.params["n_layers"] = "3";
    runAndWrite(two);
    runAndWrite(three);
    const Comparison c = compare("blocks2", "blocks3");
    EXPECT_GT(c.added_operations, 0);
    EXPECT_EQ(c.removed_operations, 0);
    EXPECT_EQ(itemNamed(c, ItemKind::Module, "blocks_2").presence, Presence::Added);
    EXPECT_EQ(itemNamed(c, ItemKind::Module, "blocks_1").presence, Presence::Both);
    int added = 0;
    for (const ComparedItem& item : c.items) {
        if (item.kind == ItemKind::Operation && item.presence == Presence::Added) {
            EXPECT_EQ(item.module_path.rfind("blocks_2", 0), 0u) << item.name;
            EXPECT_EQ(item.base_entry, 0);
            EXPECT_GT(item.new_entry, 0);
            EXPECT_FALSE(figureOf(item, Figure::ForwardTime).compared());
            ++added;
        }
        if (item.kind == ItemKind::Weight && item.name.rfind("blocks_2.", 0) == 0) {
            EXPECT_EQ(item.presence, Presence::Added) << item.name;
        }
    }
    EXPECT_EQ(added, c.added_operations);
    // The other way round, the same layer is removed.
    const Comparison back = compare("blocks3", "blocks2");
    EXPECT_EQ(back.removed_operations, c.added_operations);
    EXPECT_EQ(itemNamed(back, ItemKind::Module, "blocks_2").presence, Presence::Removed);
}

TEST_F(ComparisonTest, ARerunOfTheSameConfigurationPassesTheDefaultGateTenTimesOfTen) {
#ifdef __SANITIZE_ADDRESS__
    // Under AddressSanitizer every allocation goes through its quarantine and shadow memory,
    // and two runs of the same model differed by more than 10% in the sanitizer CI job: the
    // claim is about the product's build, which the plain test run checks.
    GTEST_SKIP() << "times under AddressSanitizer are not the product's";
#endif
    // As a CI job runs it: each run a process of its own (trainscope-cli profile). Runs in one
    // process are not independent: its first run starts LibTorch's threads and allocator, and
    // later ones differed from it by more than their spreads here. A small model of about 17 ms
    // an iteration, measured over 20: on this shared machine whole runs of a 1 ms model were
    // up to 40% apart while each run's own iterations stayed within a few percent, so that a
    // rerun could lie wholly outside the other's spread. Five warm-up iterations: with one, a
    // linear layer ran more than 25% slower in every iteration of one run in ten.
    // One intra-op thread, as docs/comparison.md advises for a gate: with one a core, single
    // linear layers moved more than 25% between the runs of a pair here (2026-11-23).
    const auto profile = [&](const std::string& name) {
        const std::string command =
            "OMP_NUM_THREADS=1 " + std::string(TRAINSCOPE_CLI) +
            " profile -q -f --model builtin:mlp --param d_model=256 --input 2x512x256 "
            "--warmup 5 --iterations 20 -o " +
            path(name) + " >/dev/null";
        ASSERT_EQ(std::system(command.c_str()), 0) << command;
    };
    // Each attempt profiles its pair back to back, as the README's CI job does (the base, then
    // the merge request's run): a base profiled once before all ten reruns was compared with
    // runs minutes later, and a slower spell of this shared machine then made three reruns in
    // a row slower in every linear layer (a .ci/run on 2026-11-22).
    for (int attempt = 1; attempt <= 10; ++attempt) {
        profile("base");
        profile("rerun");
        const Comparison c = compare("base", "rerun");
        const std::vector<GateViolation> violations = gateViolations(c, GateLimits{});
        std::string listed;
        for (const GateViolation& v : violations)
            listed += v.item->name + " " + figureKey(v.change.figure) + "; ";
        EXPECT_TRUE(violations.empty()) << "attempt " << attempt << ": " << listed;
    }
}

TEST_F(ComparisonTest, ReportFilesCompareAloneAndTheMissingSideIsNoted) {
    // A run time report alone on each side: times, no memory.
    const Comparison times = compareRuns(findRunReports(path("mlp256.time.sqlite")),
                                         findRunReports(path("mlp512.time.sqlite")));
    EXPECT_EQ(times.matched_operations, 4);
    EXPECT_EQ(itemNamed(times, ItemKind::Operation, "lin_0 · aten::linear #1")
                  .figure(Figure::ActivationBytes),
              nullptr);
    // A whole run against a run time report: memory cannot be compared, and the note says so.
    const Comparison mixed =
        compareRuns(findRunReports(path("mlp256")), findRunReports(path("mlp512.time.sqlite")));
    ASSERT_EQ(mixed.notes.size(), 1u);
    EXPECT_NE(mixed.notes[0].find("no memory report"), std::string::npos) << mixed.notes[0];
}

TEST_F(ComparisonTest, RunsThatCannotBeComparedAreRefusedWithOneLine) {
    const auto refused = [](const std::string& base, const std::string& changed) -> std::string {
        try {
            compareRuns(findRunReports(base), findRunReports(changed));
        } catch (const Error& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_NE(refused(path("missing"), path("mlp256")).find("no such report"), std::string::npos);
    // Different kinds of report: nothing of the same kind to compare.
    EXPECT_NE(refused(path("mlp256.memory.sqlite"), path("mlp512.time.sqlite"))
                  .find("nothing to compare"),
              std::string::npos);
    // Two built-in models.
    RunPlan resnet;
    resnet.config.model = "builtin:resnet";
    resnet.config.params = {{"depth", "10"}, {"width", "4"}, {"image_size", "8"}};
    resnet.config.inputs = {parseInputSpec("1x3x8x8")};
    resnet.config.warmup = 0;
    resnet.config.iterations = 1;
    resnet.measure = Measure::Time;
    resnet.output = path("resnet.time.sqlite");
    runAndWrite(resnet);
    const std::string different = refused(path("mlp256"), path("resnet.time.sqlite"));
    EXPECT_NE(different.find("different models"), std::string::npos) << different;
    EXPECT_NE(different.find("builtin:resnet"), std::string::npos) << different;
}

}  // namespace
