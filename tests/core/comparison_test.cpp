// SPDX-License-Identifier: Apache-2.0
// Two runs compared (trainscope/comparison.h): real runs of the built-in models, written and
// read back through the reports. Where a test judges times, it gives the runs known times
// (support/known_times.h): live timings on a shared machine make any verdict on them a matter
// of luck; bench/compare_gate judges the gate on live runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "support/known_times.h"
#include "support/report_reader.h"
#include "support/small_transformer.h"
#include "trainscope/comparison.h"
#include "trainscope/error.h"
#include "trainscope/run.h"

using namespace trainscope;
using trainscope::test::copyWithKnownTimes;
using trainscope::test::timeWithin;
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
        // Three measured iterations: enough for a spread; no test here judges these times.
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
    // Real runs with known times: each linear layer 2 ms, four times that at twice the width
    // (four times the multiply-adds), every other operation 0.1 ms in both; each iteration
    // within 5% of the median. The verdict on the times is then certain (bench/compare_gate
    // checks it on live times).
    const auto times = [](double linear_ms) {
        return [linear_ms](const std::string& operation) {
            return timeWithin(operation == "aten::linear" ? linear_ms : 0.1, 5.0);
        };
    };
    copyWithKnownTimes(path("mlp256"), path("known256"), times(2.0));
    copyWithKnownTimes(path("mlp512"), path("known512"), times(8.0));
    const Comparison c = compare("known256", "known512");
    const std::vector<GateViolation> violations = gateViolations(c, GateLimits{});
    EXPECT_EQ(c.matched_operations, 4);
    EXPECT_EQ(c.added_operations + c.removed_operations, 0);
    EXPECT_TRUE(c.notes.empty());

    for (const std::string linear : {"lin_0 · aten::linear #1", "lin_1 · aten::linear #1"}) {
        SCOPED_TRACE(linear);
        const ComparedItem& op = itemNamed(c, ItemKind::Operation, linear);
        const FigureChange& forward = figureOf(op, Figure::ForwardTime);
        EXPECT_DOUBLE_EQ(forward.delta(), 6.0);
        EXPECT_TRUE(forward.significant())
            << forward.base_spread->max_ms << " vs " << forward.new_spread->min_ms;
        EXPECT_TRUE(flagged(violations, linear, Figure::ForwardTime));
        // Its output is twice as wide when it is lin_0 (d -> 4d), and so on: bytes are exact.
        const FigureChange& activations = figureOf(op, Figure::ActivationBytes);
        EXPECT_EQ(*activations.changed, 2 * *activations.base);
        EXPECT_TRUE(flagged(violations, linear, Figure::ActivationBytes));
    }
    // The operations whose times did not change are not flagged for time.
    for (const ComparedItem& item : c.items) {
        if (item.kind == ItemKind::Operation && item.operation != "aten::linear") {
            EXPECT_FALSE(flagged(violations, item.name, Figure::ForwardTime)) << item.name;
            EXPECT_FALSE(figureOf(item, Figure::ForwardTime).significant()) << item.name;
        }
    }
    // Copies: GCC 13 warns of a dangling reference to the result of a call with a temporary.
    const ComparedItem weight = itemNamed(c, ItemKind::Weight, "lin_0.weight");
    EXPECT_EQ(*figureOf(weight, Figure::WeightBytes).base, 256.0 * 1024 * 4);
    EXPECT_EQ(*figureOf(weight, Figure::WeightBytes).changed, 512.0 * 2048 * 4);
    const ComparedItem module = itemNamed(c, ItemKind::Module, "lin_0");
    EXPECT_EQ(*figureOf(module, Figure::GradientBytes).changed, (512.0 * 2048 + 2048) * 4);

    const ComparedItem iteration = itemNamed(c, ItemKind::Total, "iteration");
    const FigureChange& peak = figureOf(iteration, Figure::PeakBytes);
    EXPECT_GT(peak.delta(), 0);
    EXPECT_TRUE(flagged(violations, "iteration", Figure::PeakBytes));
    EXPECT_TRUE(flagged(violations, "iteration", Figure::IterationTime));
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

// The noise rule and the limit, on a rerun of the same run whose linear layers took `rerun_ms`
// where the base took 2 ms (each iteration within `spread_pct`% of the median on both sides).
class RerunGate : public ComparisonTest {
  protected:
    std::vector<GateViolation> linearViolations(double rerun_ms, double spread_pct,
                                                const GateLimits& limits = {}) {
        const auto times = [spread_pct](double linear_ms) {
            return [=](const std::string& operation) {
                return timeWithin(operation == "aten::linear" ? linear_ms : 0.1, spread_pct);
            };
        };
        copyWithKnownTimes(path("mlp256"), path("base"), times(2.0));
        copyWithKnownTimes(path("mlp256"), path("rerun"), times(rerun_ms));
        comparison_ = compare("base", "rerun");
        std::vector<GateViolation> linear;
        for (const GateViolation& v : gateViolations(comparison_, limits))
            if (v.item->operation == "aten::linear")
                linear.push_back(v);
        return linear;
    }
    const FigureChange& lin0Forward() const {
        return figureOf(itemNamed(comparison_, ItemKind::Operation, "lin_0 · aten::linear #1"),
                        Figure::ForwardTime);
    }

    Comparison comparison_;
};

TEST_F(RerunGate, ASlowerRerunWithinTheBasesSpreadIsNoise) {
    // 2.3 ms against 2 ms (+15%), iterations within 10%: the rerun's fastest (2.07 ms) was
    // faster than the base's slowest (2.2 ms).
    EXPECT_TRUE(linearViolations(2.3, 10.0).empty());
    EXPECT_FALSE(lin0Forward().significant());
    EXPECT_NEAR(*lin0Forward().percent(), 15.0, 1e-9);
    // Not noise under a gate that asks for no increase at all, since the spreads overlap.
    EXPECT_TRUE(linearViolations(2.3, 10.0, GateLimits{0.0, 0.0}).empty());
}

TEST_F(RerunGate, ASignificantIncreaseUnderTheLimitPassesAndOneOverItIsFlagged) {
    // Iterations within 1%: +20% is beyond the noise, yet under the default 25% limit.
    EXPECT_TRUE(linearViolations(2.4, 1.0).empty());
    EXPECT_TRUE(lin0Forward().significant());
    // +30% is over it: each linear layer's forward and backward time is flagged.
    const std::vector<GateViolation> over = linearViolations(2.6, 1.0);
    ASSERT_EQ(over.size(), 4u);
    for (const std::string linear : {"lin_0 · aten::linear #1", "lin_1 · aten::linear #1"}) {
        EXPECT_TRUE(flagged(over, linear, Figure::ForwardTime)) << linear;
        EXPECT_TRUE(flagged(over, linear, Figure::BackwardTime)) << linear;
    }
    // A limit of 35% lets it pass; a limit of 10% flags the +20%.
    EXPECT_TRUE(linearViolations(2.6, 1.0, GateLimits{35.0, 0.0}).empty());
    EXPECT_EQ(linearViolations(2.4, 1.0, GateLimits{10.0, 0.0}).size(), 4u);
}

TEST_F(RerunGate, AChangeBelowOnePercentOfTheIterationIsNotCounted) {
    // The iteration takes about 8.2 ms (two linear layers, forward and backward, and the
    // rest): 1% of it is about 0.08 ms. 2.05 ms against 2 ms with no spread at all differs by
    // 0.05 ms, under that floor: not significant, however tight the spreads.
    EXPECT_TRUE(linearViolations(2.05, 0.0, GateLimits{0.0, 0.0}).empty());
    EXPECT_GT(lin0Forward().min_change, 0.05);
    EXPECT_FALSE(lin0Forward().significant());
    // 2.2 ms is over the floor and is counted.
    EXPECT_FALSE(linearViolations(2.2, 0.0, GateLimits{0.0, 0.0}).empty());
}

TEST_F(RerunGate, AFasterRerunIsNeverAViolation) {
    EXPECT_TRUE(linearViolations(1.0, 1.0, GateLimits{0.0, 0.0}).empty());
    EXPECT_TRUE(lin0Forward().significant());
    EXPECT_LT(lin0Forward().delta(), 0);
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
