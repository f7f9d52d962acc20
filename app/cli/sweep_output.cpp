// SPDX-License-Identifier: Apache-2.0
#include "cli/sweep_output.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "trainscope/summary_text.h"

namespace trainscope::cli {
namespace {

std::string bytes(double value) {
    return formatBytes(static_cast<int64_t>(std::llround(value)));
}

std::string column(std::string text, size_t width) {
    if (text.size() < width)
        text.resize(width, ' ');
    return text + " ";
}

// How far a prediction is from the measurement, in percent of the measurement.
std::string error(double predicted, double measured) {
    return measured != 0 ? format("%+.1f%%", 100.0 * (predicted - measured) / measured) : "-";
}

// The predicted throughput at `batch`, or why there is none.
std::string throughput(const SweepReport& r, int64_t batch) {
    if (const auto predicted = r.predictedThroughput(batch)) {
        return format("%.1f", *predicted);
    }
    if (!(r.iteration.slope > 0)) {
        return "no throughput predicted (the iteration time did not grow with the batch)";
    }
    return "no throughput predicted (the line fitted to the iteration times is at or below 0 ms "
           "at batch " +
           std::to_string(batch) + ")";
}

}  // namespace

void printSweep(std::ostream& out, const SweepReport& r) {
    out << "Batch sizes measured:\n  " << column("batch", 8) << column("peak", 11)
        << column("(predicted)", 12) << column("activations", 12) << column("iteration", 12)
        << column("samples/s", 11) << "(predicted)\n";
    for (const SweepPoint& p : r.points) {
        out << "  " << column(std::to_string(p.batch_size), 8);
        if (p.out_of_memory) {
            out << "out of memory: the edge of what fits\n";
            continue;
        }
        out << column(bytes(static_cast<double>(p.peak_bytes)), 11)
            << column(bytes(r.predictedPeak(p.batch_size)), 12)
            << column(bytes(static_cast<double>(p.activation_bytes)), 12)
            << column(format("%.2f ms", p.iteration_ms), 12)
            << column(format("%.1f", p.samplesPerSecond()), 11)
            << (r.throughputPredictable() ? throughput(r, p.batch_size) : "-") << "\n";
    }
    const auto line = [&](const char* name, const LinearFit& fit, bool time) {
        const std::string intercept =
            time ? format("%.3f ms", fit.intercept) : bytes(fit.intercept);
        const std::string slope = time ? format("%.3f ms", fit.slope) : bytes(fit.slope);
        const std::string residual =
            time ? format("%.3f ms", fit.max_residual) : bytes(fit.max_residual);
        out << "  " << column(name, 12) << column(intercept + " + " + slope + " x batch", 36)
            << "R² " << format("%.6f", fit.r_squared) << ", largest residual " << residual << "\n";
    };
    out << "Lines fitted to " << r.peak.points << " batch sizes:\n";
    line("peak", r.peak, false);
    line("activations", r.activations, false);
    line("iteration", r.iteration, true);
    out << "Memory budget: " << bytes(static_cast<double>(r.budget_bytes)) << " (" << r.budget_bytes
        << " bytes, " << r.budget_source << ")\n";
    if (!r.largest_batch) {
        out << "Largest batch within it: none (a batch of 1 is predicted to need "
            << bytes(r.predictedPeak(1)) << ")\n";
        return;
    }
    const int64_t largest = *r.largest_batch;
    out << "Largest batch within it: " << largest << " (predicted peak "
        << bytes(r.predictedPeak(largest)) << ", " << throughput(r, largest)
        << (r.throughputPredictable() ? " samples/s" : "")
        << (r.extrapolates(largest) ? "; extrapolated beyond the measured batch sizes" : "")
        << ")\n";
    if (const auto& v = r.verified) {
        if (v->out_of_memory) {
            out << "Verified at batch " << v->batch_size
                << ": out of memory (the prediction was too optimistic)\n";
        } else {
            out << "Verified at batch " << v->batch_size << ": peak "
                << bytes(static_cast<double>(v->peak_bytes)) << " (predicted "
                << error(r.predictedPeak(v->batch_size), static_cast<double>(v->peak_bytes))
                << "), " << format("%.1f", v->samplesPerSecond()) << " samples/s";
            if (const auto predicted = r.predictedThroughput(v->batch_size)) {
                out << " (predicted " << error(*predicted, v->samplesPerSecond()) << ")";
            }
            out << "\n";
        }
    }
}

}  // namespace trainscope::cli
