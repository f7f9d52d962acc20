// SPDX-License-Identifier: Apache-2.0
// The batch-size sweep: the same model profiled at several batch sizes, a line fitted to its
// peak memory, activation memory and iteration time, and from those lines the peak and the
// throughput at any batch size and the largest batch within a memory budget (Skyline's
// prediction, with the fit's quality beside it and a measurement to check it).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trainscope/profiler.h"
#include "trainscope/report_writer.h"
#include "trainscope/reports.h"
#include "trainscope/run_config.h"

namespace trainscope {

// y = intercept + slope * x by least squares, with its quality over the points it was fitted
// to: R² (1 for points on the line) and the largest |residual| (in y's unit).
struct LinearFit {
    double intercept = 0.0;
    double slope = 0.0;
    double r_squared = 0.0;
    double max_residual = 0.0;
    int points = 0;
    double at(double x) const { return intercept + slope * x; }
};

// Throws trainscope::Error for fewer than two distinct x.
LinearFit fitLine(const std::vector<double>& x, const std::vector<double>& y);

// One batch size's measurement. An out-of-memory run is kept as the edge, without figures.
struct SweepPoint {
    int64_t batch_size = 0;
    bool out_of_memory = false;
    int64_t peak_bytes = 0;
    int64_t activation_bytes = 0;
    int64_t weight_bytes = 0;
    double iteration_ms = 0.0;
    double samplesPerSecond() const {
        return iteration_ms > 0 ? 1000.0 * static_cast<double>(batch_size) / iteration_ms : 0.0;
    }
};

struct SweepReport {
    std::vector<SweepPoint> points;          // measured, by batch size (out-of-memory ones last)
    LinearFit peak, activations, iteration;  // bytes, bytes and ms against the batch size
    int64_t budget_bytes = 0;
    std::string budget_source;             // "--memory-budget", "available RAM", "CUDA device"
    std::optional<int64_t> largest_batch;  // none: not even a batch of 1 fits the budget
    std::optional<SweepPoint> verified;    // the largest batch measured (--verify)
    RunMetadata metadata;

    double predictedPeak(int64_t batch) const { return peak.at(static_cast<double>(batch)); }
    // Whether the iteration time grew with the batch (the fitted line rises and is positive
    // from batch 1 on): only then is a throughput predicted. Where the machine's noise exceeds
    // the batch's share of the time, the line can fall, and batch / time would run to infinity
    // where it crosses zero.
    bool throughputPredictable() const;
    // samples/s; none when the throughput is not predictable.
    std::optional<double> predictedThroughput(int64_t batch) const;
    // Whether `batch` lies outside the measured batch sizes (the prediction extrapolates).
    bool extrapolates(int64_t batch) const;
};

// The largest batch whose predicted peak is within `budget` (none when not even 1 fits).
std::optional<int64_t> largestBatchWithin(const LinearFit& peak, int64_t budget);

struct SweepPlan {
    RunConfig config;
    // Empty: automatic, from defaultBatchSizes() on, doubling while the line fitted so far
    // predicts the next within a quarter of the memory budget (at most 10 sizes, and
    // automatic_time of measuring), so that the points reach toward the prediction.
    std::vector<int64_t> batch_sizes;
    // How long an automatic sweep may go on measuring larger sizes.
    std::chrono::seconds automatic_time{60};
    std::optional<int64_t> memory_budget;  // bytes; empty: the device's (see memoryBudget)
    bool verify = false;
    std::string output;  // PREFIX: writes PREFIX.sweep.sqlite
    Overwrite overwrite = Overwrite::Refuse;
};

// The batch sizes an automatic sweep starts from: half, the same and twice the configured
// batch (the first dimension of the first input), 1, 2 and 4 when that is 1.
std::vector<int64_t> defaultBatchSizes(int64_t configured);

// "4,8,16" (positive integers, at least two different ones); throws trainscope::Error.
std::vector<int64_t> parseBatchSizes(const std::string& text);
// "24GiB", "512MiB", "2GB", "1000000" (bytes); throws trainscope::Error.
int64_t parseByteSize(const std::string& text);

// The budget when none is given: on CUDA the device memory free before the run (its total
// minus what the runtime and other processes hold), on the CPU the available RAM
// (MemAvailable). `source` says which.
int64_t memoryBudget(Device device, std::string* source);

// Sweep progress: which batch size (1-based of `of`), and the profiler's progress inside it.
struct SweepProgress {
    int64_t batch_size = 0;
    int index = 0;
    int of = 0;
    bool verifying = false;
    Progress run;
};
using SweepProgressCallback = std::function<void(const SweepProgress&)>;

// Profiles each batch size (memory pass, then time pass), fits, finds the largest batch within
// the budget, measures it with `verify`, and writes PREFIX.sweep.sqlite. Throws
// trainscope::Error for bad input (with the batch size it happened at) and Cancelled when
// `cancel` is set; nothing is written then.
SweepReport runSweep(const SweepPlan& plan, const SweepProgressCallback& progress = {},
                     const std::atomic<bool>* cancel = nullptr);

void writeSweepReport(const SweepReport& report, const std::string& path, Overwrite overwrite);

// Metadata of a sweep report: its inputs as the sweep was given them ("2x64x64", several
// separated by spaces; empty: the built-in model's defaults).
inline constexpr char kSweepInputsKey[] = "sweep_inputs";

// The configuration the sweep measured with, from its report's metadata. Throws
// trainscope::Error for a report that does not say (one of another version) or says nonsense.
RunConfig sweepConfig(const SweepReport& report);

// Measures `batch` as the sweep measured its sizes (a memory pass, then a time pass): a
// prediction checked by running it. Out of memory is a point with out_of_memory set; throws
// trainscope::Error as runSweep does, and Cancelled when `cancel` is set.
SweepPoint verifyBatch(const SweepReport& report, int64_t batch,
                       const SweepProgressCallback& progress = {},
                       const std::atomic<bool>* cancel = nullptr);
// Reads a sweep report back (untrusted input, as every report); throws trainscope::Error.
SweepReport readSweepReport(const std::string& path);

// Whether `path` is a regular file with a sweep's tables (false for anything else, unreadable
// files included: the readers of other reports then say what it is).
bool isSweepReport(const std::string& path);

}  // namespace trainscope
