// SPDX-License-Identifier: Apache-2.0
// A batch-size sweep's results as data: the measured points, the lines fitted to them and what
// they predict, and the sweep report file that holds them (written by the sweep, read by the
// CLI and the app). The sweep that measures them is in sweep.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trainscope/overwrite.h"
#include "trainscope/reports.h"

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
    // from the smallest batch measured on): only then is a throughput predicted. Where the
    // machine's noise exceeds the batch's share of the time, the line can fall, and batch /
    // time would run to infinity where it crosses zero.
    bool throughputPredictable() const;
    // samples/s; none when the throughput is not predictable, or where the line is at or below
    // zero (a batch below those measured, of a time that grew faster than the batch).
    std::optional<double> predictedThroughput(int64_t batch) const;
    // Whether `batch` lies outside the measured batch sizes (the prediction extrapolates).
    bool extrapolates(int64_t batch) const;
};

// The largest batch whose predicted peak is within `budget` (none when not even 1 fits).
std::optional<int64_t> largestBatchWithin(const LinearFit& peak, int64_t budget);

void writeSweepReport(const SweepReport& report, const std::string& path, Overwrite overwrite);

// Metadata of a sweep report: its inputs as the sweep was given them ("2x64x64", several
// separated by spaces; empty: the built-in model's defaults).
inline constexpr char kSweepInputsKey[] = "sweep_inputs";

// Reads a sweep report back (untrusted input, as every report); throws trainscope::Error.
SweepReport readSweepReport(const std::string& path);

// Whether `path` is a regular file with a sweep's tables (false for anything else, unreadable
// files included: the readers of other reports then say what it is).
bool isSweepReport(const std::string& path);

}  // namespace trainscope
