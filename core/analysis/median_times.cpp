// SPDX-License-Identifier: Apache-2.0
#include "analysis/median_times.h"

#include <algorithm>

#include "analysis/median.h"
#include "analysis/step_matching.h"
#include "records/operation_records.h"
#include "records/stack_traces.h"
#include "trainscope/report_format.h"

namespace trainscope {
namespace {

Spread spreadOf(const std::vector<double>& values) {
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    return values.empty() ? Spread{} : Spread{*low, *high};
}

}  // namespace

TimeReport medianTimes(const std::vector<OperationRecord>& operations, const StackTraces& traces,
                       const std::vector<std::string>& modules,
                       const std::vector<std::vector<OperationTiming>>& runs,
                       const std::vector<double>& iteration_ms, std::vector<std::string>* not_timed,
                       bool device_times) {
    TimeReport report;
    for (size_t i = 0; i < operations.size(); ++i) {
        const OperationRecord& op = operations[i];
        std::vector<double> forward, backward, cpu_forward, cpu_backward;
        bool has_backward = false;
        for (const std::vector<OperationTiming>& run : runs) {
            if (i >= run.size() || !run[i].ran) {
                continue;  // not run in that iteration
            }
            forward.push_back(run[i].forward_ms);
            backward.push_back(run[i].backward_ms);
            cpu_forward.push_back(run[i].cpu_forward_ms);
            cpu_backward.push_back(run[i].cpu_backward_ms);
            has_backward = has_backward || run[i].has_backward;
        }
        if (forward.empty()) {
            // The memory step's time holds the meter's cost and what compiled in it: never an
            // operation's time. Its entry stays (the memory report numbers it), untimed.
            forward.push_back(0.0);
            backward.push_back(0.0);
            cpu_forward.push_back(0.0);
            cpu_backward.push_back(0.0);
            has_backward = op.has_backward;
            if (not_timed) {
                addDistinctNames(*not_timed, {op.name});
            }
        }
        const bool recomputed = op.part == OperationRecord::Part::Recomputed;
        RunTimeEntry entry{
            recomputed ? op.name + std::string(report_format::kRecomputedSuffix) : op.name,
            median(forward), std::nullopt, traces[op.trace],
            i < modules.size() ? modules[i] : std::string()};
        entry.part = op.part;
        entry.forward_spread = spreadOf(forward);
        if (has_backward) {
            entry.backward_ms = median(backward);
            entry.backward_spread = spreadOf(backward);
        }
        if (device_times) {
            entry.cpu = RunTimeEntry::CpuTimes{median(cpu_forward), median(cpu_backward)};
        }
        report.entries.push_back(std::move(entry));
    }
    report.iteration_ms = median(iteration_ms);
    report.iteration_spread = spreadOf(iteration_ms);
    return report;
}

std::vector<CollectiveEntry> medianCollectives(
    const std::vector<CollectiveRecord>& memory_step,
    const std::vector<std::vector<CollectiveRecord>>& timed) {
    std::vector<const std::vector<CollectiveRecord>*> runs;
    for (const std::vector<CollectiveRecord>& run : timed) {
        bool same = run.size() == memory_step.size();
        for (size_t i = 0; same && i < run.size(); ++i)
            same = run[i].name == memory_step[i].name;
        if (same) {
            runs.push_back(&run);
        }
    }
    if (runs.empty()) {
        runs.push_back(&memory_step);
    }
    std::vector<CollectiveEntry> entries;
    for (size_t i = 0; i < memory_step.size(); ++i) {
        std::vector<double> start, duration, overlapped;
        for (const std::vector<CollectiveRecord>* run : runs) {
            start.push_back((*run)[i].start_ms);
            duration.push_back((*run)[i].ms);
            if ((*run)[i].overlapped_ms) {
                overlapped.push_back(*(*run)[i].overlapped_ms);
            }
        }
        const CollectiveRecord& c = memory_step[i];
        entries.push_back({c.name, median(start), median(duration), c.bytes, spreadOf(duration),
                           c.process_group, c.group_size,
                           overlapped.size() == runs.size()
                               ? std::optional<double>(median(overlapped))
                               : std::nullopt});
    }
    return entries;
}

}  // namespace trainscope
