// SPDX-License-Identifier: Apache-2.0
// Least-squares lines and what the sweep predicts from them.
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "trainscope/error.h"
#include "trainscope/sweep_report.h"

namespace trainscope {

LinearFit fitLine(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size() || std::set<double>(x.begin(), x.end()).size() < 2) {
        throw Error("a line needs points at two or more different batch sizes");
    }
    const double n = static_cast<double>(x.size());
    double mean_x = 0, mean_y = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        mean_x += x[i] / n;
        mean_y += y[i] / n;
    }
    double sxx = 0, sxy = 0, syy = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        sxx += (x[i] - mean_x) * (x[i] - mean_x);
        sxy += (x[i] - mean_x) * (y[i] - mean_y);
        syy += (y[i] - mean_y) * (y[i] - mean_y);
    }
    LinearFit fit;
    fit.points = static_cast<int>(x.size());
    fit.slope = sxy / sxx;
    fit.intercept = mean_y - fit.slope * mean_x;
    double residuals = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        const double residual = y[i] - fit.at(x[i]);
        residuals += residual * residual;
        fit.max_residual = std::max(fit.max_residual, std::abs(residual));
    }
    // All points equal: the line (flat) explains them exactly.
    fit.r_squared = syy > 0 ? 1.0 - residuals / syy : 1.0;
    return fit;
}

std::optional<int64_t> largestBatchWithin(const LinearFit& peak, int64_t budget) {
    const double room = static_cast<double>(budget) - peak.intercept;
    if (peak.at(1.0) > static_cast<double>(budget)) {
        return std::nullopt;
    }
    if (peak.slope <= 0) {
        return std::nullopt;  // no growth: no largest batch to speak of (the caller says so)
    }
    const double largest = std::floor(room / peak.slope);
    return largest > 9e18 ? INT64_MAX : static_cast<int64_t>(largest);
}

bool SweepReport::throughputPredictable() const {
    // At the smallest batch measured (1 without points): a time that grew faster than in
    // proportion to the batch (48 ms at 8, 454 ms at 64) fits a line below zero at batch 1,
    // yet predicts the measured range well.
    std::optional<int64_t> smallest;
    for (const SweepPoint& point : points) {
        if (!point.out_of_memory) {
            smallest = std::min(smallest.value_or(point.batch_size), point.batch_size);
        }
    }
    return iteration.slope > 0 && iteration.at(static_cast<double>(smallest.value_or(1))) > 0;
}

std::optional<double> SweepReport::predictedThroughput(int64_t batch) const {
    if (!throughputPredictable() || batch < 1 || !(iteration.at(static_cast<double>(batch)) > 0)) {
        return std::nullopt;
    }
    return 1000.0 * static_cast<double>(batch) / iteration.at(static_cast<double>(batch));
}

bool SweepReport::extrapolates(int64_t batch) const {
    int64_t smallest = INT64_MAX, largest = 0;
    for (const SweepPoint& point : points) {
        if (!point.out_of_memory) {
            smallest = std::min(smallest, point.batch_size);
            largest = std::max(largest, point.batch_size);
        }
    }
    return batch < smallest || batch > largest;
}

}  // namespace trainscope
