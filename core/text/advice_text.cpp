// SPDX-License-Identifier: Apache-2.0
#include "trainscope/advice_text.h"

#include "trainscope/summary_text.h"

namespace trainscope {
namespace {

std::string stepMs(double value) {
    return format("%.1f ms", value);
}

// (predicted - measured) / measured, or "exact" where they are equal.
template <typename T>
std::string error(T predicted, T measured) {
    if (predicted == measured) {
        return "exact";
    }
    if (measured == 0) {
        return "-";
    }
    return format("%+.2f %%", (static_cast<double>(predicted) - static_cast<double>(measured)) /
                                  static_cast<double>(measured) * 100.0);
}

template <typename T, typename Format>
void printFigure(std::ostream& out, const char* what, T predicted, const std::optional<T>& measured,
                 Format text) {
    out << "  " << padded(what, 13) << "predicted " << padded(text(predicted), 12);
    if (measured) {
        out << "measured " << padded(text(*measured), 12) << "(" << error(predicted, *measured)
            << ")";
    }
    out << "\n";
}

// The step timed in turns with the step as it is: what a loaded machine leaves readable.
void printStepRatio(std::ostream& out, const StepRatio& ratio) {
    out << "  " << padded("step ratio", 13) << format("%.2f", ratio.median)
        << " x the step as it is, timed in turns (" << format("%.2f", ratio.low) << " to "
        << format("%.2f", ratio.high) << " x over " << ratio.pairs << " pairs)";
    if (!ratio.readable()) {
        out << ": no difference readable within the machine's noise";
    }
    out << "\n";
}

// A batch size's peak against the budget, in bytes (a MiB rounds away the byte that decides).
void printBudget(std::ostream& out, int64_t budget, const WhatIf& w) {
    auto verdict = [&](int64_t peak) {
        return std::string(peak <= budget ? "within it" : "above it") + " (" +
               std::to_string(peak) + " B)";
    };
    out << "  " << padded("budget", 13) << formatBytes(budget) << " (" << budget
        << " B): predicted " << verdict(w.predicted.peak_bytes);
    if (w.measured) {
        out << ", measured " << verdict(w.measured->peak_bytes);
    }
    out << "\n";
}

}  // namespace

void printAdvice(std::ostream& out, const AdviceReport& report) {
    out << "Measured: peak " << formatBytes(report.baseline.peak_bytes) << ", activations "
        << formatBytes(report.baseline.activation_bytes) << ", step "
        << stepMs(report.baseline.step_ms) << "\n";
    if (report.what_ifs.empty()) {
        out << "No what-if applies to this step (no GELU or SiLU module keeps its input for "
               "backward, and no list of blocks to checkpoint).\n";
    }
    for (const WhatIf& w : report.what_ifs) {
        out << w.change << " at " << w.target << ":\n";
        auto measured = [&](auto member) {
            using Value = std::decay_t<decltype(w.predicted.*member)>;
            return w.measured ? std::optional<Value>((*w.measured).*member) : std::nullopt;
        };
        printFigure(out, "peak", w.predicted.peak_bytes, measured(&StepFigures::peak_bytes),
                    formatBytes);
        printFigure(out, "activations", w.predicted.activation_bytes,
                    measured(&StepFigures::activation_bytes), formatBytes);
        if (w.step_predicted) {
            printFigure(out, "step", w.predicted.step_ms, measured(&StepFigures::step_ms), stepMs);
        } else {
            out << "  " << padded("step", 13) << padded("not predicted", 22);
            if (w.measured) {
                out << "measured " << stepMs(w.measured->step_ms);
            }
            out << "\n";
        }
        if (!w.not_predicted.empty()) {
            out << "  not predicted: " << w.not_predicted << "\n";
        }
        if (w.step_ratio) {
            printStepRatio(out, *w.step_ratio);
        }
        // A batch size predicted ("batch size 8 -> 3183"), not one that could not be.
        if (report.budget_bytes && w.target == "the inputs" &&
            w.change.rfind("batch size ", 0) == 0) {
            printBudget(out, *report.budget_bytes, w);
        }
        if (!w.source_file.empty()) {
            out << "  your line: " << w.source_file << ":" << w.source_line << "\n";
        }
        if (!w.measured) {
            out << "  not run: " << w.why_not << "\n";
        }
        if (const MemoryEffect effect = memoryEffect(w, report.baseline); effect.worse) {
            out << "  worse: " << (effect.measured ? "measured" : "predicted") << ", ";
            if (effect.peak_change > 0) {
                out << "the peak " << formatBytes(effect.peak_change) << " higher";
            }
            if (effect.activation_change > 0) {
                out << (effect.peak_change > 0 ? " and " : "") << "activations "
                    << formatBytes(effect.activation_change) << " more";
            }
            out << " than the step as it is: not advised\n";
        }
    }
}

}  // namespace trainscope
