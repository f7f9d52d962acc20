// SPDX-License-Identifier: Apache-2.0
#include "trainscope/summary_text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "cut_text.h"
#include "decimal_text.h"
#include "trainscope/import_notes.h"
#include "trainscope/report_format.h"

namespace trainscope {
namespace {

// The most specific project frame and its caller: "mlp.py:15 <- mlp.py:20". An entry with
// only library frames shows its innermost one in brackets: "[torch/nn/functional.py:1457]".
std::string where(const StackTrace& frames) {
    std::string text;
    int shown = 0;
    for (const StackFrame& frame : frames) {
        if (!frame.isLibrary() && shown++ < 2) {
            text += (text.empty() ? "" : " <- ") + frame.file_path + ":" +
                    std::to_string(frame.line_number);
        }
    }
    if (text.empty() && !frames.empty()) {
        text = "[" + frames[0].file_path + ":" + std::to_string(frames[0].line_number) + "]";
    }
    return text.empty() ? "-" : text;
}

}  // namespace

// What torch.compile compiled: how many, how long and when, then each graph break and each
// recompilation with where and why (the first few).
void printCompilations(std::ostream& out, const std::vector<Compilation>& compilations,
                       const std::string& compiled_steps) {
    if (compilations.empty()) {
        return;
    }
    constexpr size_t kListed = 5;
    double ms = 0.0, in_steps_ms = 0.0;
    for (const Compilation& c : compilations) {
        ms += c.ms();
        in_steps_ms += c.step > 0 ? c.ms() : 0.0;
    }
    const auto count = [&](auto member) {
        return std::count_if(compilations.begin(), compilations.end(),
                             [&](const Compilation& c) { return !(c.*member).empty(); });
    };
    out << "  Compiled        " << compilations.size() << " compilations (torch.compile), "
        << format("%.3f s", ms / 1e3) << ", "
        << (in_steps_ms > 0 ? format("%.3f s of it in observed steps", in_steps_ms / 1e3)
                            : std::string("all before the first observed step"))
        << "; graph breaks " << count(&Compilation::graph_break) << ", recompilations "
        << count(&Compilation::recompiled_because) << "\n";
    // Each line once: a function compiled again breaks where it broke before.
    std::vector<std::string> lines;
    for (const Compilation& c : compilations) {
        const std::string place =
            c.function + " (" + c.file_path + ":" + std::to_string(c.line_number) + ")";
        for (const std::string& line :
             {c.graph_break.empty() ? "" : "graph break in " + place + ": " + c.graph_break,
              c.recompiled_because.empty() ? ""
                                           : "recompiled " + place + ": " + c.recompiled_because}) {
            if (!line.empty() && std::find(lines.begin(), lines.end(), line) == lines.end()) {
                lines.push_back(line);
            }
        }
    }
    for (size_t i = 0; i < std::min(kListed, lines.size()); ++i)
        out << "    " << lines[i] << "\n";
    if (lines.size() > kListed) {
        out << "    ... " << lines.size() - kListed << " more in trainscope_compilations\n";
    }
    if (!compiled_steps.empty()) {
        out << "    Note: " << compiled_steps << "\n";
    }
}

namespace {

// The engine's note on why no frame lies in the project, as the summary's last line.
void printFramesNote(std::ostream& out, const RunMetadata& meta) {
    if (const auto note = meta.find(report_format::kFramesNoteKey); note != meta.end()) {
        out << "  No project frames: " << note->second << "\n";
    }
}

}  // namespace

KernelTotals kernelTotals(const TimeReport& time) {
    KernelTotals totals;
    if (const auto note = time.metadata.find(report_format::kCompiledKernelsNoteKey);
        note != time.metadata.end()) {
        totals.note = note->second;
    }
    for (const KernelEntry& k : time.kernels) {
        const RunTimeEntry& e = time.entries[k.entry];
        const bool called_from_project = std::any_of(
            e.frames.begin(), e.frames.end(), [](const StackFrame& f) { return !f.isLibrary(); });
        totals.add(k.backward, e.forward_ms + e.backward_ms.value_or(0.0),
                   !e.frames.empty() && !e.frames.front().isLibrary(),
                   !e.module_path.empty() && called_from_project, k.unattributed);
    }
    return totals;
}

// How much of the kernels' time Inductor's provenance placed on a module and a line of the
// project, and why the rest has none.
void printKernels(std::ostream& out, const KernelTotals& k) {
    if (!k.note.empty()) {
        out << "  Kernels         Note: " << k.note << "\n";
    }
    if (k.kernels == 0) {
        return;
    }
    const double total = k.forward_ms + k.backward_ms;
    out << "  Kernels         " << k.kernels << " of compiled regions, " << format("%.3f ms", total)
        << " (forward " << format("%.3f", k.forward_ms) << ", backward "
        << format("%.3f", k.backward_ms) << "); "
        << format("%.1f%%", total > 0 ? 100.0 * k.placed_ms / total : 100.0)
        << " of it on a module and line of the project";
    if (k.library_ms > 0) {
        out << ", " << format("%.1f%%", 100.0 * k.library_ms / total)
            << " on a module in library code that a line of the project calls";
    }
    out << "\n";
    for (const auto& [why, ms] : k.unplaced)
        out << "    " << format("%.3f ms", ms) << " without: " << why << "\n";
}

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

std::string formatBytes(int64_t bytes) {
    const double b = static_cast<double>(bytes);
    if (bytes >= (int64_t{1} << 30))
        return format("%.2f GiB", b / (1 << 30));
    if (bytes >= (int64_t{1} << 20))
        return format("%.1f MiB", b / (1 << 20));
    if (bytes >= (int64_t{1} << 10))
        return format("%.1f KiB", b / (1 << 10));
    return std::to_string(bytes) + " B";
}

namespace {

bool blocksAtPeak(const MemoryReport& memory) {
    const auto format = memory.metadata.find(report_format::kImportedFormatKey);
    return format != memory.metadata.end() && listsBlocksAtPeak(format->second);
}

// What was allocated at the instant of the peak, and which modules held most of it.
void printPeak(std::ostream& out, const MemoryReport& memory) {
    // An imported file does not say which blocks are parameters and optimizer state.
    const bool weights_known = memory.namesWeights();
    out << "  Peak memory     " << padded(formatBytes(memory.peak_usage_bytes), 12) << "("
        << memory.peak_usage_bytes << " bytes)";
    if (const auto& peak = memory.peak_breakdown) {
        out << ", allocated at that instant:\n";
        const std::pair<const char*, int64_t> parts[] = {{"Weights", peak->weights},
                                                         {"Gradients", peak->gradients},
                                                         {"Optimizer state", peak->optimizer_state},
                                                         {"Activations", peak->activations},
                                                         {"Other", peak->other}};
        for (const auto& [name, bytes] : parts) {
            out << "    " << padded(name, 18);
            const bool unnamed =
                !weights_known && bytes == 0 && (name == parts[0].first || name == parts[2].first);
            // Where they are instead (in Other, or not in the peak) is the memory note's.
            out << (unnamed ? std::string("not named in the imported file") : formatBytes(bytes));
            if (name == parts[0].first && peak->unsharded_parameters) {
                out << " (" << formatBytes(peak->unsharded_parameters)
                    << " of them all-gathered by FSDP for a unit's compute)";
            } else if (name == parts[1].first && peak->reduce_scatter) {
                out << " (" << formatBytes(peak->reduce_scatter)
                    << " of them FSDP's reduce-scatter buffers)";
            }
            out << "\n";
        }
    } else {
        out << "\n";
    }
    std::map<std::string, int64_t> by_module;
    for (const ModulePeakEntry& entry : memory.peak_by_module) {
        if (!entry.module_path.empty()) {
            by_module[entry.module_path] += entry.size_bytes;
        }
    }
    std::vector<std::pair<std::string, int64_t>> ranked(by_module.begin(), by_module.end());
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    if (!ranked.empty()) {
        out << "    Largest modules at the peak:";
        for (size_t i = 0; i < std::min<size_t>(4, ranked.size()); ++i) {
            out << (i ? ", " : " ") << ranked[i].first << " " << formatBytes(ranked[i].second);
        }
        out << "\n";
    }
    if (const auto sharding = memory.metadata.find(report_format::kShardingKey);
        sharding != memory.metadata.end()) {
        out << "  Sharded over the ranks: " << sharding->second << "\n";
    }
    if (!memory.fsdp_units.empty()) {
        out << "  FSDP units (this rank's shards; all-gathered whole; all-gathers in the step; "
               "how long held gathered; at the peak; below, its collectives: calls, bytes, "
               "time):\n";
        for (const FsdpUnitEntry& u : memory.fsdp_units) {
            out << "    " << padded(u.unit.empty() ? "(root)" : u.unit, 16) << u.parameters
                << " parameters, " << formatBytes(u.sharded_bytes) << "; "
                << formatBytes(u.unsharded_bytes) << "; " << u.gathers
                << (u.prefetched ? " (" + std::to_string(u.prefetched) + " prefetched)" : "")
                << "; " << format("%.3f ms", u.gathered_ms) << "; "
                << formatBytes(u.unsharded_at_peak_bytes) << "\n";
            for (const FsdpUnitCollectives* c : {&u.gathering, &u.reducing}) {
                if (c->count > 0) {
                    out << "      " << c->name << " x" << c->count << ", "
                        << (c->bytes < 0 ? std::string("bytes not known") : formatBytes(c->bytes))
                        << ", " << format("%.3f ms", c->ms) << "\n";
                }
            }
        }
    }
    if (blocksAtPeak(memory)) {
        return;  // a snapshot has no iteration: its entries are the peak's blocks (below)
    }
    out << "  Over the iteration: "
        << (weights_known ? "weights " + formatBytes(memory.weightBytes()) + ", gradients " +
                                formatBytes(memory.gradientBytes()) + ", "
                          : std::string())
        << "activations " << formatBytes(memory.activationBytes()) << " ("
        << memory.activationBytes() << " bytes)"
        << (weights_known ? ""
                          : "; no weights listed, nor their gradients: the imported file names no "
                            "parameters")
        << "\n";
}

// A name as a listing shows it: a name of a damaged or hostile file may be megabytes long;
// cut after kShownNameChars UTF-8 characters, and said so.
std::string shownName(const std::string& name) {
    constexpr size_t kShownNameChars = 200;
    const size_t cut = cutAfterCharacters(name, kShownNameChars);
    return cut < name.size()
               ? name.substr(0, cut) + "\u2026 (" + std::to_string(name.size()) + " bytes)"
               : name;
}

// What an entry's forward_ms is the time of, as the list of operations labels it.
std::string ownPartLabel(StepPart part) {
    switch (part) {
        case StepPart::AfterBackward:
            return "after bwd ";
        case StepPart::Optimizer:
            return "optimizer ";
        case StepPart::Forward:
        case StepPart::Recomputed:
            break;
    }
    return "fwd ";
}

std::string moduleOrDash(const std::string& module_path) {
    return module_path.empty() ? "-" : module_path;
}

}  // namespace

std::vector<std::string> operationTimesText(const RunMetadata& meta) {
    std::vector<std::string> lines;
    const auto value = [&](const char* key) {
        const auto found = meta.find(key);
        return found == meta.end() ? std::string() : found->second;
    };
    if (value("device") == "cuda") {
        lines.push_back("Operation times are GPU times, between CUDA events around each operation");
    } else if (value(report_format::kImportedFormatKey) == kProfilerTraceFormat) {
        // A trace recorded on a GPU: the work each operation launched on the device, where the
        // trace joins it to its launches; else its calls' spans, the CPU's.
        lines.push_back(value(report_format::kOperationTimesKey) == report_format::kDeviceTimes
                            ? "Operation times are device times: the kernels, copies and sets "
                              "each operation launched (its CPU times are kept beside them)"
                            : "Operation times are CPU times, each call's span on its thread");
        namespace key = report_format::device_work;
        if (!value(key::kKernels).empty()) {
            const auto counted = [&](const char* k, const char* one, const char* many) {
                const std::string n = value(k);
                return n + " " + (n == "1" ? one : many);
            };
            std::string line = "Device work: " + counted(key::kKernels, "kernel", "kernels") +
                               ", " + counted(key::kCopies, "copy", "copies") + ", " +
                               counted(key::kSets, "set", "sets") + " on " +
                               counted(key::kStreams, "stream", "streams") + "; " +
                               value(key::kJoined) + " joined to the operation that launched them";
            if (const std::string n = value(key::kWithoutLaunch); !n.empty() && n != "0") {
                line += ", " + n +
                        " without their launch in the trace (launched before it began, or a "
                        "CUDA graph's replay)";
            }
            if (const std::string n = value(key::kOutsideOperations); !n.empty() && n != "0") {
                line += ", " + n + " launched outside any operation";
            }
            lines.push_back(line);
            const auto ms = [&](const char* k) {
                return format("%.3f ms", parseDecimal(value(k)).value_or(0) / 1e6);
            };
            if (!value(key::kStepNs).empty()) {
                lines.push_back("Device time of the listed step: " + ms(key::kStepNs) +
                                " from its first task to its last: computation " +
                                ms(key::kComputationNs) + ", communication " +
                                ms(key::kCommunicationNs) + " exposed (" + ms(key::kOverlappedNs) +
                                " more hidden behind computation), copies and sets " +
                                ms(key::kMemoryNs) + ", idle " + ms(key::kIdleNs) +
                                " (each instant once, whatever other streams ran)");
            }
        }
    }
    return lines;
}

std::string iterationText(std::optional<double> wall_ms, const PartTimes& times,
                          bool device_times) {
    const double sum = times.sum();
    std::string text =
        std::string(device_times ? "sum of operations' device time " : "sum of operations ") +
        format("%.3f ms", sum) + " (forward " + format("%.3f ms", times.forward_ms) +
        ", backward " + format("%.3f ms", times.backward_ms);
    // Named where the step had such operations (an archive's step has no optimizer's).
    if (times.after_backward_operations > 0) {
        text += ", after backward " + format("%.3f ms", times.after_backward_ms);
    }
    if (times.optimizer_operations > 0) {
        text += ", optimizer " + format("%.3f ms", times.optimizer_ms);
    }
    text += ")";
    if (!wall_ms) {
        return "Iteration: " + text;
    }
    text = "Iteration (wall) " + format("%.3f ms", *wall_ms) + ", " + text;
    if (*wall_ms > 0 && !device_times) {
        text += ", " + format("%.1f%%", 100.0 * sum / *wall_ms) + " of the iteration";
    }
    return text;
}

std::string communicationText(const std::vector<CollectiveEntry>& collectives) {
    if (collectives.empty()) {
        return {};
    }
    std::vector<std::pair<std::string, int>> counts;  // by first appearance
    int64_t bytes = 0;
    double ms = 0;
    std::optional<double> hidden;  // known where every collective's overlap is
    std::vector<std::string> groups;
    const CollectiveEntry* longest = &collectives.front();
    for (const CollectiveEntry& c : collectives) {
        hidden = c.overlapped_ms && (hidden || &c == &collectives.front())
                     ? std::optional<double>(hidden.value_or(0) + *c.overlapped_ms)
                     : std::nullopt;
        if (!c.process_group.empty() &&
            std::find(groups.begin(), groups.end(), c.process_group) == groups.end()) {
            groups.push_back(c.process_group);
        }
        auto it = std::find_if(counts.begin(), counts.end(),
                               [&](const auto& count) { return count.first == c.operation_name; });
        if (it == counts.end()) {
            counts.emplace_back(c.operation_name, 1);
        } else {
            ++it->second;
        }
        bytes += c.bytes;
        ms += c.duration_ms;
        if (c.duration_ms > longest->duration_ms) {
            longest = &c;
        }
    }
    std::string groupsText;
    for (const std::string& group : groups)
        groupsText += (groupsText.empty() ? "; process group " : ", ") + group;
    std::string kinds;
    for (const auto& [name, count] : counts)
        kinds += (kinds.empty() ? "" : ", ") + name + " x" + std::to_string(count);
    return "Communication   " + std::to_string(collectives.size()) +
           (collectives.size() == 1 ? " collective (" : " collectives (") + kinds + "), " +
           (bytes > 0 ? formatBytes(bytes) : std::string("bytes not recorded")) + ", " +
           format("%.3f ms", ms) +
           (hidden ? " (" + format("%.3f ms", *hidden) + " of it beside computation on the device)"
                   : std::string()) +
           "; the longest " + longest->operation_name + " " +
           format("%.3f ms", longest->duration_ms) + " at " + format("%.1f ms", longest->start_ms) +
           " into the step" + groupsText;
}

std::string padded(std::string text, size_t width) {
    text.append(text.size() < width ? width - text.size() : 1, ' ');
    return text;
}

std::string recordedOnText(const RunMetadata& meta) {
    std::string recorded;
    if (const auto gpu = meta.find(report_format::kDeviceNameKey); gpu != meta.end()) {
        recorded = gpu->second;
        const auto memory = meta.find(report_format::kDeviceMemoryKey);
        if (memory != meta.end() && parseDecimal(memory->second).value_or(0) > 0) {
            recorded += ", " + formatBytes(static_cast<int64_t>(*parseDecimal(memory->second)));
        }
        const auto sms = meta.find(report_format::kDeviceMultiprocessorsKey);
        if (sms != meta.end()) {
            recorded += ", " + sms->second + " SMs";
        }
    }
    if (const auto rank = meta.find(report_format::kRankKey); rank != meta.end()) {
        const auto ranks = meta.find(report_format::kWorldSizeKey);
        recorded += (recorded.empty() ? "" : ", ") + std::string("rank ") + rank->second +
                    (ranks != meta.end() ? " of " + ranks->second : std::string());
    }
    return recorded;
}

void printSummary(std::ostream& out, const MemoryReport* memory, const TimeReport* time,
                  const TimelineReport* timeline) {
    const RunMetadata& meta = memory ? memory->metadata
                              : time ? time->metadata
                                     : timeline->metadata;
    const auto gpu = meta.find(report_format::kDeviceNameKey);
    const auto imported = meta.find(report_format::kImportedFromKey);
    if (imported != meta.end()) {
        const auto format = meta.find(report_format::kImportedFormatKey);
        const std::string recorded = recordedOnText(meta);
        out << "TrainScope: imported "
            << (format != meta.end() ? format->second : std::string("file")) << " "
            << imported->second << (recorded.empty() ? std::string() : " (" + recorded + ")")
            << "\n";
    } else {
        out << "TrainScope " << meta.at("trainscope_version") << ": " << meta.at("model") << " on "
            << meta.at("device") << (gpu != meta.end() ? " (" + gpu->second + ")" : std::string())
            << ", " << meta.at("dtype") << ", inputs " << meta.at("inputs") << ", loss "
            << meta.at("loss") << ", optimizer " << meta.at("optimizer") << "\n";
    }
    if (memory) {
        printPeak(out, *memory);
        if (const auto note = memory->metadata.find(report_format::kMemoryNoteKey);
            note != memory->metadata.end()) {
            out << "  Memory incomplete: " << note->second << "\n";
        }
    }
    if (time) {
        const auto times = time->metadata.find(report_format::kOperationTimesKey);
        out << "  "
            << iterationText(
                   time->iteration_ms, time->partTimes(),
                   times != time->metadata.end() && times->second == report_format::kDeviceTimes)
            << "\n";
        if (const auto steps = time->metadata.find(report_format::kImportedStepsKey);
            steps != time->metadata.end()) {
            out << "  Steps: " << steps->second << "\n";
        }
        if (const auto note = time->metadata.find(kBackwardNotAttributedKey);
            note != time->metadata.end()) {
            out << "  Backward not attributed: " << note->second << "\n";
        }
        for (const std::string& line : operationTimesText(meta)) {
            out << "  " << line << "\n";
        }
        if (const auto differing = time->metadata.find(report_format::kDifferingStepsKey);
            differing != time->metadata.end()) {
            out << "  Steps that differed: " << differing->second << "\n";
        }
        std::vector<const RunTimeEntry*> ranked;
        for (const RunTimeEntry& entry : time->entries) {
            ranked.push_back(&entry);
        }
        auto total = [](const RunTimeEntry* e) {
            return e->forward_ms + e->backward_ms.value_or(0);
        };
        std::stable_sort(ranked.begin(), ranked.end(),
                         [&](auto* a, auto* b) { return total(a) > total(b); });
        out << "  Most expensive operations:\n";
        for (size_t i = 0; i < std::min<size_t>(5, ranked.size()); ++i) {
            const RunTimeEntry& e = *ranked[i];
            out << "    " << padded(shownName(e.operation_name), 24)
                << padded(moduleOrDash(e.module_path), 22)
                << padded(format("%9.3f ms", total(&e)), 14)
                << padded(ownPartLabel(e.part) + format("%.3f", e.forward_ms) + " / bwd " +
                              (e.backward_ms ? format("%.3f", *e.backward_ms) : std::string("-")),
                          28)
                << where(e.frames) << "\n";
        }
        if (const std::string text = communicationText(time->collectives); !text.empty()) {
            out << "  " << text << "\n";
        }
        const auto steps = time->metadata.find(report_format::kCompiledStepsKey);
        printCompilations(out, time->compilations,
                          steps == time->metadata.end() ? std::string() : steps->second);
        printKernels(out, kernelTotals(*time));
    } else if (memory) {
        std::vector<const ActivationEntry*> ranked;
        for (const ActivationEntry& entry : memory->activations) {
            ranked.push_back(&entry);
        }
        std::stable_sort(ranked.begin(), ranked.end(),
                         [](auto* a, auto* b) { return a->size_bytes > b->size_bytes; });
        // A snapshot's entries are its blocks at the peak, named by category (no module).
        const bool blocks = blocksAtPeak(*memory);
        out << (blocks ? "  Largest blocks alive at the peak, by category and line:\n"
                       : "  Largest activations:\n");
        for (size_t i = 0; i < std::min<size_t>(5, ranked.size()); ++i) {
            out << "    " << padded(shownName(ranked[i]->operation_name), 24)
                << (blocks ? std::string() : padded(moduleOrDash(ranked[i]->module_path), 22))
                << padded(formatBytes(ranked[i]->size_bytes), 14) << where(ranked[i]->frames)
                << "\n";
        }
    }
    if (timeline) {
        out << "  Timeline        " << timeline->callCount() << " calls, "
            << timeline->sampleCount() << " memory samples, " << timeline->blockCount()
            << " blocks allocated\n";
    }
    printFramesNote(out, meta);
}

}  // namespace trainscope
