// SPDX-License-Identifier: Apache-2.0
#include "analysis/time_report.h"

#include <set>
#include <string>

#include "analysis/compiled_kernels.h"
#include "analysis/frames_note.h"
#include "analysis/median_times.h"
#include "analysis/step_matching.h"
#include "trainscope/report_format.h"

namespace trainscope {
namespace {

// " (aten::set_, aten::to, ...)": the first names of a list, or nothing for none.
std::string namesInParentheses(const std::vector<std::string>& names) {
    constexpr size_t kShown = 6;
    std::string text;
    for (size_t i = 0; i < names.size() && i < kShown; ++i)
        text += (i ? ", " : "") + names[i];
    if (names.size() > kShown) {
        text += ", and " + std::to_string(names.size() - kShown) + " more";
    }
    return names.empty() ? text : " (" + text + ")";
}

// The timed steps the times come from. A timed step that compiled holds the compilation in its
// time: it is left out, unless every one compiled.
struct TimedSteps {
    std::set<size_t> compiled;  // indices into RecordedSteps::steps (0: the memory step)
    bool all_compiled = false;
    bool left_out = false;  // some timed steps, not all, compiled: the rest are kept below
    std::vector<std::vector<OperationTiming>> kept;
    std::vector<double> kept_ms;
    std::vector<std::vector<CollectiveRecord>> kept_collectives;
    KernelSteps kept_kernels;

    const std::vector<std::vector<OperationTiming>>& runs(const RecordedSteps& s) const {
        return left_out ? kept : s.timed;
    }
    const std::vector<double>& ms(const RecordedSteps& s) const {
        return left_out ? kept_ms : s.timed_ms;
    }
    const std::vector<std::vector<CollectiveRecord>>& collectives(const RecordedSteps& s) const {
        return left_out ? kept_collectives : s.timed_collectives;
    }
    const KernelSteps& kernels(const RecordedSteps& s) const {
        return left_out ? kept_kernels : s.timed_kernels;
    }
};

// torch.compile's compilations, each in the step it ran in (0: before the first observed one).
std::vector<Compilation> placeCompilations(const RecordedSteps& steps, TimedSteps& timed) {
    std::vector<Compilation> compilations = steps.compilations;
    for (Compilation& c : compilations) {
        c.step = 0;
        for (size_t i = 0; i < steps.steps.size(); ++i) {
            if (c.start_ns >= steps.steps[i].start_ns && c.start_ns <= steps.steps[i].end_ns) {
                c.step = steps.steps[i].id;
                timed.compiled.insert(i);
                break;
            }
        }
    }
    return compilations;
}

void chooseTimedSteps(const RecordedSteps& steps, TimedSteps& timed) {
    const size_t compiled_timed = timed.compiled.size() - timed.compiled.count(0);
    timed.all_compiled = !steps.timed.empty() && compiled_timed == steps.timed.size();
    timed.left_out = compiled_timed > 0 && !timed.all_compiled;
    for (size_t i = 0; timed.left_out && i < steps.timed.size(); ++i) {
        if (timed.compiled.count(i + 1) == 0) {
            timed.kept.push_back(steps.timed[i]);
            timed.kept_ms.push_back(steps.timed_ms[i]);
            timed.kept_collectives.push_back(steps.timed_collectives[i]);
            timed.kept_kernels.ms.push_back(steps.timed_kernels.ms[i]);
            timed.kept_kernels.calls.push_back(steps.timed_kernels.calls[i]);
        }
    }
}

void renumberActivations(const CompiledRegionSplit& split,
                         const std::vector<int>& activation_kernels,
                         std::vector<ActivationEntry>& activations) {
    for (size_t i = 0; i < activations.size() && !split.entry_of_operation.empty(); ++i) {
        int64_t& number = activations[i].operation_number;
        if (number <= 0) {
            continue;
        }
        const int site = i < activation_kernels.size() ? activation_kernels[i] : -1;
        number = site >= 0 && split.entry_of_site[site] >= 0
                     ? split.entry_of_site[site] + 1
                     : static_cast<int64_t>(split.entry_of_operation[number - 1]) + 1;
    }
}

void noteCompiledSteps(const RecordedSteps& steps, const TimedSteps& timed, RunMetadata& metadata) {
    if (timed.compiled.empty()) {
        return;
    }
    std::string ids;
    for (size_t i : timed.compiled)
        ids += (ids.empty() ? "" : ", ") + std::to_string(steps.steps[i].id);
    metadata[report_format::kCompiledStepsKey] =
        "torch.compile compiled in observed steps (" + ids + ")" +
        (timed.compiled.count(0) ? ": the memory step's figures include what compiling allocated"
                                 : "") +
        (timed.all_compiled
             ? "; every timed step compiled, so their times include compiling"
             : (timed.left_out ? "; the timed steps that compiled are left out of the times" : ""));
}

void noteDifferingSteps(const RecordedSteps& steps, const std::vector<std::string>& not_timed,
                        RunMetadata& metadata) {
    const StepDifferences& d = steps.differences;
    if (d.steps == 0) {
        return;
    }
    // An imported trace's steps are the file's: the one its reports list is the peak's, the
    // others time it; a file has no memory step.
    const bool imported = metadata.count(report_format::kImportedFromKey) > 0;
    const std::string listed = imported ? "the peak's step" : "the memory step";
    metadata[report_format::kDifferingStepsKey] =
        std::to_string(d.steps) + " of " + std::to_string(steps.timed.size()) +
        (imported ? " other steps" : " timed steps") + " ran other operations than " + listed +
        ": " + std::to_string(d.unmatched_calls) +
        " of their calls matched none of its operations" + namesInParentheses(d.unmatched_names) +
        ", " + std::to_string(d.missing_operations) + " of its operations did not run in them" +
        namesInParentheses(d.missing_names) +
        "; each operation is timed over the steps that ran it" +
        (not_timed.empty() ? std::string()
                           : ", and " + std::to_string(not_timed.size()) + " that ran only in " +
                                 listed + " are not timed" + namesInParentheses(not_timed));
}

}  // namespace

TimeReport assembleTimeReport(const RecordedSteps& steps, RunMetadata metadata,
                              const std::vector<int>& activation_kernels,
                              std::vector<ActivationEntry>& activations) {
    TimedSteps timed;
    std::vector<Compilation> compilations = placeCompilations(steps, timed);
    chooseTimedSteps(steps, timed);
    const auto& runs = timed.runs(steps);
    // Without timed steps, the memory step's own times (which include the meter's cost).
    const std::vector<std::vector<OperationTiming>> memory_step{
        runs.empty() ? timingsOf(steps.operations) : std::vector<OperationTiming>{}};
    const std::vector<double> step_ms =
        runs.empty() ? std::vector<double>{steps.memory_step_ms} : timed.ms(steps);
    std::vector<std::string> not_timed;  // operations that ran only in the memory step
    TimeReport time =
        medianTimes(steps.operations, steps.traces, steps.operation_modules,
                    runs.empty() ? memory_step : runs, step_ms, &not_timed, steps.device_times);
    time.collectives = medianCollectives(steps.collectives, timed.collectives(steps));
    time.compilations = std::move(compilations);
    const CompiledRegionSplit split =
        runs.empty() ? CompiledRegionSplit{}
                     : splitCompiledRegions(time, steps.kernel_sites, steps.kernel_operations,
                                            timed.kernels(steps));
    renumberActivations(split, activation_kernels, activations);
    time.metadata = std::move(metadata);
    time.metadata["timed_steps"] = std::to_string(runs.size());
    if (split.regions_without_provenance > 0) {
        time.metadata[report_format::kCompiledKernelsNoteKey] =
            std::to_string(split.regions_without_provenance) +
            " compiled regions ran code compiled before the session started, without its "
            "kernels' provenance: each is one operation";
    }
    noteCompiledSteps(steps, timed, time.metadata);
    noteDifferingSteps(steps, not_timed, time.metadata);
    std::vector<const StackTrace*> traces;
    for (const RunTimeEntry& entry : time.entries)
        traces.push_back(&entry.frames);
    noteMissingProjectFrames(time.metadata, traces);
    return time;
}

std::vector<StepCollective> stepCollectives(const RecordedSteps& steps) {
    std::vector<StepCollective> result;
    auto add = [&](size_t step, const std::vector<CollectiveRecord>& records) {
        if (step >= steps.steps.size()) {
            return;
        }
        for (const CollectiveRecord& c : records)
            result.push_back({steps.steps[step].id, c.name, c.bytes, c.start_ms, c.ms});
    };
    add(0, steps.collectives);
    for (size_t i = 0; i < steps.timed_collectives.size(); ++i)
        add(i + 1, steps.timed_collectives[i]);
    return result;
}

}  // namespace trainscope
