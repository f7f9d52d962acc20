// SPDX-License-Identifier: Apache-2.0
#include "cli/file_summary.h"

#include <cstdio>

#include "trainscope/import_notes.h"
#include "trainscope/report_format.h"
#include "trainscope/summary_text.h"

namespace trainscope::cli {
namespace {

std::string bytes(int64_t value) {
    return std::to_string(value) + " B (" + formatBytes(value) + ")";
}

std::string milliseconds(int64_t ns) {
    char text[48];
    std::snprintf(text, sizeof text, "%.3f ms", static_cast<double>(ns) / 1e6);
    return text;
}

// " (2 after backward, 12 of the optimizer)": the operations that are not the forward pass's,
// or nothing.
std::string operationsByPart(const PartTimes& times) {
    std::string text;
    if (times.after_backward_operations > 0) {
        text += std::to_string(times.after_backward_operations) + " after backward";
    }
    if (times.optimizer_operations > 0) {
        text += (text.empty() ? "" : ", ") + std::to_string(times.optimizer_operations) +
                " of the optimizer";
    }
    return text.empty() ? text : " (" + text + ")";
}

void printTimeline(std::ostream& out, const ReportFileSummary& s) {
    // A file without times (an imported snapshot's): its spans are counts of events.
    const auto milliseconds = [&s](int64_t ns) {
        const int64_t events = ns / kUntimedEventNs;
        return s.untimed ? std::to_string(events) + (events == 1 ? " event" : " events")
                         : cli::milliseconds(ns);
    };
    out << "  schema version: " << (s.schema_version.empty() ? "-" : s.schema_version) << "\n";
    if (s.rank >= 0) {
        out << "  rank: " << s.rank << "\n";
    }
    out << "  framework calls: " << s.api_calls << " on " << s.threads << " thread(s)";
    if (s.api_calls > 0) {
        out << ", spanning " << milliseconds(s.last_ns - s.first_ns);
    }
    out << "\n";
    if (s.untimed) {
        out << "  times: none in the file; its events are placed in order, so the spans below "
               "count events\n";
    }
    for (const NamedCount& type : s.calls_by_type) {
        out << "    " << type.name << ": " << type.count << "\n";
    }
    const StepsDigest steps = digestSteps(s.steps);
    for (const TimelineStep& step : steps.listed) {
        out << "  step " << step.id << ": " << milliseconds(stepDuration(step)) << "\n";
    }
    if (steps.others > 0) {
        out << "  ... and " << steps.others << " more steps; all " << s.steps.size()
            << ": shortest " << milliseconds(steps.shortest_ns) << ", median "
            << milliseconds(steps.median_ns) << ", longest " << milliseconds(steps.longest_ns)
            << "\n";
    }
    for (const ComponentPeak& m : s.memory) {
        out << "  memory " << (m.component.empty() ? "-" : m.component) << " (" << m.records
            << " records): peak allocated " << bytes(m.peak_allocated) << ", peak reserved "
            << (m.reservedRecorded() ? bytes(m.peak_reserved) : std::string("not recorded"))
            << ", peak active " << bytes(m.peak_active) << "\n";
    }
    if (s.blocks > 0) {
        out << "  blocks: " << s.blocks << " (" << s.blocks_never_freed
            << " never freed in the recording)\n";
    }
    if (s.device_tasks > 0 || s.cann_calls > 0) {
        out << "  device: " << s.device_tasks << " tasks, " << s.cann_calls << " CANN calls\n";
    }
    if (!s.top_operations.empty()) {
        out << "  top operations by total time (nested calls inside their parents):\n";
        for (const OperationTotal& op : s.top_operations) {
            out << "    " << milliseconds(op.total_ns) << "  " << op.calls << " x " << op.name
                << "\n";
        }
    }
    if (!s.largest_allocations.empty()) {
        out << "  largest allocations:\n";
        for (const LargeAllocation& a : s.largest_allocations) {
            out << "    " << bytes(a.size_bytes) << "  "
                << (a.operation.empty() ? "-" : a.operation)
                << (a.released_ns ? ", freed after " + milliseconds(*a.released_ns - a.allocated_ns)
                                  : std::string(", never freed"))
                << "\n";
        }
    }
}

}  // namespace

void printFileSummary(std::ostream& out, const std::string& path, const ReportFileSummary& s) {
    switch (s.kind) {
        case ReportFileKind::Memory:
            out << path << ": memory report\n";
            out << "  peak: " << (s.peak_bytes ? bytes(*s.peak_bytes) : std::string("-")) << "\n";
            if (s.names_weights) {
                out << "  weights: " << s.weights << ", " << bytes(s.weight_bytes) << "; gradients "
                    << bytes(s.gradient_bytes) << "\n";
            } else {
                out << "  weights: none listed, nor their gradients: the imported file names no "
                       "parameters\n";
            }
            out << (s.lists_blocks_at_peak ? "  blocks alive at the peak, by category and line: "
                                           : "  activations: ")
                << s.activations << ", " << bytes(s.activation_bytes) << "\n";
            if (!s.sharding.empty()) {
                out << "  sharded over the ranks: " << s.sharding << "\n";
            }
            if (!s.memory_note.empty()) {
                out << "  Memory incomplete: " << s.memory_note << "\n";
            }
            break;
        case ReportFileKind::Time: {
            out << path << ": run time report\n";
            if (const std::string recorded = recordedOnText(s.time_metadata); !recorded.empty()) {
                out << "  recorded on: " << recorded << "\n";
            }
            out << "  operations: " << s.operations << operationsByPart(s.times) << "\n"
                << "  "
                << iterationText(s.iteration_wall_ms, s.times,
                                 s.time_metadata.count(report_format::kOperationTimesKey) &&
                                     s.time_metadata.at(report_format::kOperationTimesKey) ==
                                         report_format::kDeviceTimes)
                << "\n";
            if (!s.imported_steps.empty()) {
                out << "  Steps: " << s.imported_steps << "\n";
            }
            if (!s.backward_not_attributed.empty()) {
                out << "  Backward not attributed: " << s.backward_not_attributed << "\n";
            }
            for (const std::string& line : operationTimesText(s.time_metadata)) {
                out << "  " << line << "\n";
            }
            if (const std::string text = communicationText(s.collectives); !text.empty()) {
                out << "  " << text << "\n";
            }
            printCompilations(out, s.compilations, s.compiled_steps);
            printKernels(out, s.kernels);
            break;
        }
        case ReportFileKind::Timeline:
            out << path << ": timeline\n";
            printTimeline(out, s);
            break;
    }
}

}  // namespace trainscope::cli
