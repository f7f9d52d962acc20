// SPDX-License-Identifier: Apache-2.0
// The batch-size sweep: the line fit on synthetic points, the parsing of its options, and real
// sweeps of the built-in MLP (exact memory lines, the largest batch, --verify, the out-of-memory
// edge, bad input, cancel).
#include <ATen/Parallel.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "support/bounded_command.h"
#include "support/report_reader.h"
#include "trainscope/error.h"
#include "trainscope/sweep.h"

using namespace trainscope;
namespace fs = std::filesystem;

namespace {

TEST(LinearFit, PointsOnALineGiveItExactly) {
    const LinearFit fit = fitLine({1, 2, 4, 8}, {13, 23, 43, 83});
    EXPECT_DOUBLE_EQ(fit.slope, 10.0);
    EXPECT_DOUBLE_EQ(fit.intercept, 3.0);
    EXPECT_DOUBLE_EQ(fit.r_squared, 1.0);
    EXPECT_NEAR(fit.max_residual, 0.0, 1e-12);
    EXPECT_EQ(fit.points, 4);
    EXPECT_DOUBLE_EQ(fit.at(16), 163.0);
}

TEST(LinearFit, ANoisyLineGivesTheLeastSquaresFitAndItsQuality) {
    // y = 2x + 1 with residuals +1, -1, -1, +1 at x = 0..3: the least-squares line is still
    // y = 2x + 1 (the residuals are symmetric), R² = 1 - 4 / Σ(y - ȳ)².
    const std::vector<double> x = {0, 1, 2, 3}, y = {2, 2, 4, 8};
    const LinearFit fit = fitLine(x, y);
    EXPECT_NEAR(fit.slope, 2.0, 1e-12);
    EXPECT_NEAR(fit.intercept, 1.0, 1e-12);
    EXPECT_NEAR(fit.max_residual, 1.0, 1e-12);
    double mean = 4.0, total = 0;
    for (double v : y)
        total += (v - mean) * (v - mean);
    EXPECT_NEAR(fit.r_squared, 1.0 - 4.0 / total, 1e-12);
    EXPECT_THROW(fitLine({2, 2}, {1, 5}), Error);  // one batch size: no line
}

TEST(LinearFit, TheLargestBatchIsTheLastOneUnderTheBudget) {
    const LinearFit peak{100.0, 10.0, 1.0, 0.0, 3};  // 100 B + 10 B per sample
    EXPECT_EQ(largestBatchWithin(peak, 1000), 90);
    EXPECT_EQ(largestBatchWithin(peak, 1009), 90);
    EXPECT_EQ(largestBatchWithin(peak, 1010), 91);
    EXPECT_EQ(largestBatchWithin(peak, 109), std::nullopt);  // not even 1
}

// Throughput is predicted only from an iteration time that grows with the batch: a falling
// line (noise larger than the batch's share of a tiny model's time: 20.05, 12.10, 12.31 ms at
// 1, 2, 4) would give batch / time, which runs to infinity where the line crosses zero.
TEST(LinearFit, ThroughputIsPredictedOnlyFromATimeThatGrowsWithTheBatch) {
    SweepReport falling;
    falling.iteration = fitLine({1, 2, 4}, {20.05, 12.10, 12.31});
    ASSERT_LT(falling.iteration.slope, 0);
    EXPECT_FALSE(falling.throughputPredictable());
    EXPECT_FALSE(falling.predictedThroughput(8));
    SweepReport growing;
    growing.iteration = fitLine({1, 2, 4}, {10, 12, 16});
    EXPECT_TRUE(growing.throughputPredictable());
    ASSERT_TRUE(growing.predictedThroughput(8));
    EXPECT_DOUBLE_EQ(*growing.predictedThroughput(8), 1000.0 * 8 / 24);
    SweepReport negative_at_one;  // rising, but below zero at batch 1
    negative_at_one.iteration = fitLine({2, 4}, {1, 5});
    EXPECT_FALSE(negative_at_one.throughputPredictable());
    // A time that grew faster than the batch (48 ms at 8, 454 ms at 64: the sweep's CLI said it
    // "did not grow"): its line is below zero at batch 1 and positive over the batches measured,
    // where it predicts the throughput.
    SweepReport faster;
    faster.iteration = fitLine({8, 16, 64}, {48, 99, 454});
    for (int64_t batch : {8, 16, 64}) {
        SweepPoint point;
        point.batch_size = batch;
        faster.points.push_back(point);
    }
    ASSERT_LT(faster.iteration.at(1.0), 0);
    EXPECT_TRUE(faster.throughputPredictable());
    ASSERT_TRUE(faster.predictedThroughput(64));
    EXPECT_DOUBLE_EQ(*faster.predictedThroughput(64), 1000.0 * 64 / faster.iteration.at(64));
    EXPECT_FALSE(faster.predictedThroughput(1));
}

TEST(SweepOptions, BatchSizesAndBudgetsAreParsedOrRefusedWithTheirText) {
    EXPECT_EQ(parseBatchSizes("16,4,8,4"), (std::vector<int64_t>{4, 8, 16}));
    for (const char* bad : {"4", "4,4", "0,2", "-1,2", "2,x", "", "2,,4", "1.5,2"}) {
        try {
            parseBatchSizes(bad);
            ADD_FAILURE() << bad;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("--batch-sizes"), std::string::npos) << bad;
        }
    }
    EXPECT_EQ(parseByteSize("24GiB"), int64_t{24} << 30);
    EXPECT_EQ(parseByteSize("512 MiB"), int64_t{512} << 20);
    EXPECT_EQ(parseByteSize("8GB"), int64_t{8000000000});
    EXPECT_EQ(parseByteSize("1.5KiB"), 1536);
    EXPECT_EQ(parseByteSize("1000000"), 1000000);
    for (const char* bad : {"", "GiB", "-1GiB", "0", "12 parsecs", "1e30GiB", "nanGiB"})
        EXPECT_THROW(parseByteSize(bad), Error) << bad;
    EXPECT_EQ(defaultBatchSizes(8), (std::vector<int64_t>{4, 8, 16}));
    EXPECT_EQ(defaultBatchSizes(1), (std::vector<int64_t>{1, 2, 4}));
    std::string source;
    EXPECT_GT(memoryBudget(Device::Cpu, &source), 0);
    EXPECT_EQ(source, "available RAM");
}

class SweepTest : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = test::makeTempDir(); }
    void TearDown() override { fs::remove_all(dir_); }

    SweepPlan smallMlp(std::vector<int64_t> sizes = {1, 2, 4}) const {
        SweepPlan plan;
        plan.config.model = "builtin:mlp";
        plan.config.params = {{"d_model", "64"}};
        plan.config.inputs = {parseInputSpec("2x64x64")};
        plan.config.warmup = 1;
        plan.config.iterations = 3;
        plan.batch_sizes = std::move(sizes);
        plan.memory_budget = int64_t{64} << 20;
        plan.output = dir_ + "/sweep";
        return plan;
    }

    std::string dir_;
};

// Without sizes given, the sweep doubles from 1, 2, 4 while the line fitted so far keeps the
// next size's peak within a quarter of the budget: its points reach toward the prediction
// instead of three dots at the origin of a chart that runs to the budget.
TEST_F(SweepTest, AnAutomaticSweepDoublesTowardAQuarterOfTheBudget) {
    SweepPlan plan = smallMlp({});
    // No time limit: where the sweep stops must not depend on how fast this machine is.
    plan.automatic_time = std::chrono::hours(24);
    const SweepReport report = runSweep(plan);
    ASSERT_GT(report.points.size(), 3u);
    ASSERT_LE(report.points.size(), 10u);
    for (size_t i = 0; i < report.points.size(); ++i)
        EXPECT_EQ(report.points[i].batch_size, int64_t{1} << i);
    const double quarter = double(*plan.memory_budget) / 4;
    // The last size was measured because the line through the sizes before it predicted its
    // peak within the quarter...
    const std::vector<SweepPoint> before(report.points.begin(), report.points.end() - 1);
    std::vector<double> x, y;
    for (const SweepPoint& p : before) {
        x.push_back(double(p.batch_size));
        y.push_back(double(p.peak_bytes));
    }
    EXPECT_LE(fitLine(x, y).at(double(report.points.back().batch_size)), quarter);
    // ...and it stopped where the next would not be (or at ten sizes).
    const double next = 2.0 * double(report.points.back().batch_size);
    EXPECT_TRUE(report.peak.at(next) > quarter || report.points.size() == 10u)
        << report.peak.at(next) << " of a quarter of " << quarter;
}

TEST_F(SweepTest, MemoryGrowsOnALineAndTheLargestBatchIsVerified) {
    SweepPlan plan = smallMlp();
    plan.verify = true;
    const SweepReport report = runSweep(plan);
    ASSERT_EQ(report.points.size(), 3u);
    // Activations are exactly proportional to the batch: a line through the points.
    EXPECT_NEAR(report.activations.r_squared, 1.0, 1e-12);
    EXPECT_NEAR(report.peak.r_squared, 1.0, 1e-9);
    // ...byte for byte: each sample adds the same (the loss, a few bytes, is the constant).
    const int64_t per_sample =
        report.points[1].activation_bytes - report.points[0].activation_bytes;
    EXPECT_EQ(report.points[2].activation_bytes - report.points[1].activation_bytes,
              2 * per_sample);
    EXPECT_LT(report.points[0].activation_bytes - per_sample, 16);
    EXPECT_EQ(report.points[0].weight_bytes, report.points[2].weight_bytes);
    ASSERT_TRUE(report.largest_batch);
    EXPECT_LE(report.predictedPeak(*report.largest_batch), double(report.budget_bytes));
    EXPECT_GT(report.predictedPeak(*report.largest_batch + 1), double(report.budget_bytes));
    EXPECT_TRUE(report.extrapolates(*report.largest_batch));
    // --verify: the largest batch measured; the prediction is within 5% of it.
    ASSERT_TRUE(report.verified);
    EXPECT_EQ(report.verified->batch_size, *report.largest_batch);
    const double error = std::abs(report.predictedPeak(report.verified->batch_size) -
                                  double(report.verified->peak_bytes)) /
                         double(report.verified->peak_bytes);
    EXPECT_LT(error, 0.05) << report.verified->peak_bytes;

    // The report holds the same, and reads back.
    const std::string path = plan.output + ".sweep.sqlite";
    test::ReportReader file(path);
    EXPECT_EQ(file.scalar("SELECT COUNT(*) FROM trainscope_sweep_points WHERE outcome = "
                          "'measured'"),
              "3");
    EXPECT_EQ(file.scalar("SELECT value FROM trainscope_metadata WHERE key = 'largest_batch'"),
              std::to_string(*report.largest_batch));
    const SweepReport back = readSweepReport(path);
    ASSERT_EQ(back.points.size(), 3u);
    EXPECT_EQ(back.points[2].peak_bytes, report.points[2].peak_bytes);
    EXPECT_EQ(back.largest_batch, report.largest_batch);
    ASSERT_TRUE(back.verified);
    EXPECT_EQ(back.verified->peak_bytes, report.verified->peak_bytes);
    EXPECT_DOUBLE_EQ(back.peak.slope, report.peak.slope);
    EXPECT_EQ(back.budget_bytes, int64_t{64} << 20);
    EXPECT_EQ(back.metadata.at("model"), "builtin:mlp");

    // Its configuration reads back as the sweep's, so a batch size can be run again as the
    // sweep ran it: the verified batch measured a second time has the same peak (memory is
    // exact).
    const RunConfig config = sweepConfig(back);
    EXPECT_EQ(config.model, plan.config.model);
    EXPECT_EQ(config.params, plan.config.params);
    ASSERT_EQ(config.inputs.size(), plan.config.inputs.size());
    EXPECT_EQ(toString(config.inputs[0]), toString(plan.config.inputs[0]));
    EXPECT_EQ(config.warmup, plan.config.warmup);
    EXPECT_EQ(config.iterations, plan.config.iterations);
    const SweepPoint again = verifyBatch(back, report.verified->batch_size);
    EXPECT_EQ(again.peak_bytes, report.verified->peak_bytes);
    // A report that does not say how its model ran (an earlier version's) is refused in words.
    SweepReport older = back;
    older.metadata.erase(kSweepInputsKey);
    try {
        verifyBatch(older, 2);
        FAIL() << "a report without its inputs was run";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("does not say how its model was run"),
                  std::string::npos)
            << e.what();
    }
}

// Memory is exact, so the prediction's accuracy is a test (the throughput's is a benchmark:
// bench/sweep_accuracy). Swept at 2, 4 and 8; predicted at 16 against a measurement there.
// Not from batch 1: on an AMD EPYC without AVX-512 (2026-11-24) the resnet's peak at batch 1
// lacked about 740 KB that every larger batch held beyond its activations (PyTorch's CPU
// convolution chooses its path by the batch), so its peak is linear in the batch from 2 on:
// 1,099,992, 1,127,736 and 1,183,224 bytes at 2, 4 and 8, against 644,776 at 1.
//
// On the CPU the peak also holds the convolutions' per-thread buffers (im2col columns), one for
// each intra-op thread that a convolution splits its batch over; how many it splits over
// depends on the batch and the grain size, so the peak is not linear in the batch until every
// convolution uses all threads. With 16 threads the resnet's peak at 16 was predicted 11.9%
// off (1,089,793 against 973,752 bytes, Debian's LibTorch 1.13); with 1 or 2 threads within
// 2.5% (on a 16-core machine with PyTorch 2.11 it was 57% off). So the sweep and the
// measurement run with 2 threads, as on this project's 2-core CI machine, whatever the
// machine's cores (docs/manual.md, "Batch size", says this to users).
class SweepAccuracy : public SweepTest, public ::testing::WithParamInterface<const char*> {
  protected:
    void SetUp() override {
        SweepTest::SetUp();
        threads_ = at::get_num_threads();
        at::set_num_threads(2);
    }
    void TearDown() override {
        at::set_num_threads(threads_);
        SweepTest::TearDown();
    }

  private:
    int threads_ = 1;
};

TEST_P(SweepAccuracy, ThePeakAtTwiceTheLargestMeasuredBatchIsPredictedWithin5Percent) {
    SweepPlan plan = smallMlp({2, 4, 8});
    const std::string model = GetParam();
    plan.config.model = "builtin:" + model;
    if (model == "transformer") {
        plan.config.params = {{"d_model", "64"},
                              {"n_heads", "2"},
                              {"n_layers", "2"},
                              {"vocab", "512"},
                              {"seq_len", "32"}};
        plan.config.inputs = {parseInputSpec("1x32:int64:512")};
    } else if (model == "resnet") {
        plan.config.params = {
            {"depth", "10"}, {"width", "8"}, {"image_size", "16"}, {"classes", "10"}};
        plan.config.inputs = {parseInputSpec("1x3x16x16")};
    }
    plan.memory_budget = int64_t{1} << 40;
    const SweepReport report = runSweep(plan);
    RunConfig at16 = plan.config;
    at16.batch_size = 16;
    const double measured = double(Profiler(at16).measureMemory().peak_usage_bytes);
    const double error = std::abs(report.predictedPeak(16) - measured) / measured;
    std::printf("%s: peak at 16 predicted %.0f, measured %.0f, error %.2f%%\n", model.c_str(),
                report.predictedPeak(16), measured, 100 * error);
    EXPECT_LT(error, 0.05);
}

INSTANTIATE_TEST_SUITE_P(Builtins, SweepAccuracy, ::testing::Values("mlp", "transformer", "resnet"),
                         [](const auto& info) { return std::string(info.param); });

TEST_F(SweepTest, AnOutOfMemoryBatchIsTheEdgeNotACrash) {
    // 2^40 samples of 64x64 floats: 16 PiB, which no machine allocates.
    const SweepReport report = runSweep(smallMlp({1, 2, int64_t{1} << 40}));
    ASSERT_EQ(report.points.size(), 3u);
    EXPECT_TRUE(report.points[2].out_of_memory);
    EXPECT_EQ(report.peak.points, 2);
    const SweepReport back = readSweepReport(dir_ + "/sweep.sweep.sqlite");
    ASSERT_EQ(back.points.size(), 3u);
    EXPECT_TRUE(back.points[2].out_of_memory);
}

TEST_F(SweepTest, BadInputGetsAClearMessageAndWritesNothing) {
    const auto refused = [&](SweepPlan plan) -> std::string {
        try {
            runSweep(plan);
        } catch (const Error& e) {
            return e.what();
        }
        return "";
    };
    SweepPlan tiny_budget = smallMlp();
    tiny_budget.memory_budget = 1024;
    EXPECT_NE(refused(tiny_budget).find("smaller than the model's weights"), std::string::npos);
    SweepPlan too_big = smallMlp({int64_t{1} << 40, int64_t{1} << 41});
    EXPECT_NE(refused(too_big).find("a line needs two"), std::string::npos);
    SweepPlan saved = smallMlp();
    saved.config.inputs.clear();
    saved.config.inputs_file = dir_ + "/inputs.pt";
    EXPECT_NE(refused(saved).find("inputs"), std::string::npos);
    // A model whose first input dimension is not the batch (it averages over it).
    SweepPlan pooled = smallMlp();
    pooled.config.model = POOLED_ARCHIVE;
    pooled.config.params.clear();
    pooled.config.inputs = {parseInputSpec("8x16")};
    pooled.config.loss = LossKind::Sum;
    EXPECT_NE(refused(pooled).find("is not the batch"), std::string::npos) << refused(pooled);
    EXPECT_EQ(test::fileNames(dir_), std::vector<std::string>{});
}

TEST_F(SweepTest, AHostileSweepReportIsRefusedWithOneLine) {
    const std::string path = dir_ + "/sweep.sweep.sqlite";
    runSweep(smallMlp());
    const auto damaged = [&](const std::string& sql) -> std::string {
        const std::string copy = dir_ + "/damaged.sweep.sqlite";
        fs::copy_file(path, copy, fs::copy_options::overwrite_existing);
        // Python's sqlite3 module: the tests' Python is there on every machine that runs them.
        const std::string command = std::string(TRAINSCOPE_PYTHON) +
                                    " -c \"import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); "
                                    "d.execute(sys.argv[2]); d.commit()\" '" +
                                    copy + "' \"" + sql + "\"";
        EXPECT_EQ(std::system(trainscope::test::bounded(command).c_str()), 0) << command;
        try {
            readSweepReport(copy);
        } catch (const Error& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_NE(damaged("UPDATE trainscope_sweep_points SET iteration_ms = 1e999 WHERE "
                      "batch_size = 2")
                  .find("not a finite number"),
              std::string::npos);
    EXPECT_NE(damaged("UPDATE trainscope_sweep_points SET batch_size = -3 WHERE batch_size = 2")
                  .find("batch size below 1"),
              std::string::npos);
    EXPECT_NE(damaged("UPDATE trainscope_sweep_points SET peak_bytes = NULL").find("without"),
              std::string::npos);
    EXPECT_NE(damaged("DROP TABLE trainscope_sweep_fits").find("not a sweep report"),
              std::string::npos);
    EXPECT_NE(damaged("ALTER TABLE trainscope_sweep_fits DROP COLUMN r_squared")
                  .find("no column r_squared"),
              std::string::npos);
    EXPECT_NE(damaged("UPDATE trainscope_sweep_fits SET slope = 1e999").find("finite"),
              std::string::npos);
    EXPECT_EQ(damaged("UPDATE trainscope_metadata SET value = '1e999' WHERE key = "
                      "'largest_batch'"),
              "");  // clamped, not undefined
}

TEST_F(SweepTest, CancelStopsBetweenAndInsideBatchSizesAndWritesNothing) {
    std::atomic<bool> cancel{false};
    int second_batch_progress = 0;
    const auto progress = [&](const SweepProgress& p) {
        if (p.index == 2 && ++second_batch_progress == 2)
            cancel = true;  // inside the second batch size
    };
    EXPECT_THROW(runSweep(smallMlp(), progress, &cancel), Cancelled);
    EXPECT_EQ(test::fileNames(dir_), std::vector<std::string>{});
}

}  // namespace
