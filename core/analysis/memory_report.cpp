// SPDX-License-Identifier: Apache-2.0
#include "analysis/memory_report.h"

#include <map>
#include <unordered_map>
#include <utility>

#include "analysis/frames_note.h"
#include "analysis/peak_breakdown.h"
#include "trainscope/report_format.h"

namespace trainscope {
namespace {

void resolveModules(RecordedSteps& steps, const MemoryStepSources& sources) {
    std::vector<OperationRecord>& operations = steps.operations;
    if (sources.module_tree) {
        std::vector<std::string> weight_names;
        for (const ObservedParameter& p : sources.parameters)
            weight_names.push_back(p.name);
        const std::vector<std::string> paths =
            sources.module_tree->resolve(operations, weight_names);
        for (size_t i = 0; i < operations.size(); ++i)
            operations[i].module_path = paths[i];
    }
    steps.operation_modules.clear();
    for (const OperationRecord& op : operations)
        steps.operation_modules.push_back(op.module_path);
}

// Each parameter's entry, its frames those of the first operation that read its weight, and
// its blocks by address (which the peak's breakdown recognises).
void addWeights(RecordedSteps& steps, const MemoryStepSources& sources, MemoryReport& report,
                ParameterBlocks& blocks) {
    const std::vector<ObservedParameter>& parameters = sources.parameters;
    std::vector<int> first_reader(parameters.size(), -1);
    for (size_t op = 0; op < steps.operations.size(); ++op)
        for (int weight : steps.operations[op].weights_read)
            if (first_reader[weight] < 0)
                first_reader[weight] = static_cast<int>(op);
    for (OperationRecord& op : steps.operations)
        std::vector<int>().swap(op.weights_read);  // read once, above: the session keeps the rest
    for (size_t i = 0; i < parameters.size(); ++i) {
        const ObservedParameter& p = parameters[i];
        // A gradient freed before the step ended (set to None) is the one the step made.
        const auto sampled = sources.gradient_bytes->find(p.name);
        const int64_t gradient_bytes = p.gradient.data                            ? p.gradient.bytes
                                       : sampled != sources.gradient_bytes->end() ? sampled->second
                                                                                  : 0;
        WeightEntry entry{p.name, p.weight.bytes, gradient_bytes, {}, p.module_path, p.aliases};
        entry.whole_bytes = p.whole_bytes;
        entry.layout = p.layout;
        for (const TensorBlock& state : p.optimizer_state)
            entry.optimizer_state_bytes += state.bytes;
        if (first_reader[i] >= 0) {
            entry.frames = steps.traces[steps.operations[first_reader[i]].trace];
        }
        using Kind = ParameterBlock::Kind;
        blocks[p.weight.data] = {Kind::Weight, p.module_path};
        if (p.gradient.data) {
            blocks[p.gradient.data] = {Kind::Gradient, p.module_path};
        }
        for (const TensorBlock& state : p.optimizer_state)
            blocks[state.data] = {Kind::OptimizerState, p.module_path};
        report.weights.push_back(std::move(entry));
    }
}

// Activations by the operation that allocated them and, in a compiled region, the kernel that
// wrote them last (its lines above its region's call site, as its run time row).
void addActivations(const RecordedSteps& steps, const MemoryRecord& memory, const FsdpBlocks& fsdp,
                    MemoryStepReport& result) {
    std::map<std::pair<int, int>, int64_t> activation_bytes;
    for (int64_t event : activationEvents(memory, fsdp)) {
        const MemoryEvent& allocation = memory.events[static_cast<size_t>(event)];
        const auto kernel = steps.kernel_of_block.find(event);
        const int site = kernel != steps.kernel_of_block.end() && allocation.operation >= 0
                             ? kernel->second
                             : -1;
        activation_bytes[{allocation.operation, site}] += allocation.bytes;
    }
    std::vector<ActivationEntry>& activations = result.report.activations;
    for (const auto& [key, bytes] : activation_bytes) {
        const auto [op, site] = key;
        if (bytes <= 0) {
            continue;
        }
        if (op < 0 || static_cast<size_t>(op) >= steps.operations.size()) {
            activations.push_back({report_format::kOutsideOperations, bytes, {}, {}, 0});
        } else if (site < 0) {
            const OperationRecord& record = steps.operations[op];
            activations.push_back(
                {record.name, bytes, steps.traces[record.trace], record.module_path, op + 1});
        } else {
            const OperationRecord& region = steps.operations[op];
            const CompiledKernelSite& kernel = steps.kernel_sites[site];
            StackTrace frames = kernel.frames;
            const StackTrace& call_site = steps.traces[region.trace];
            frames.insert(frames.end(), call_site.begin(), call_site.end());
            activations.push_back(
                {kernel.kernel, bytes, std::move(frames),
                 kernel.module_path.empty() ? region.module_path : kernel.module_path, op + 1});
        }
        result.activation_kernels.push_back(site);
    }
}

// What share of its parameters this rank holds where a job shards them (FSDP2), and which
// parameters' memory could not be read (not counted anywhere but "other"): said, never a silent 0.
void addShardingNotes(const std::vector<ObservedParameter>& parameters, MemoryReport& report) {
    std::map<std::string, std::pair<int, std::pair<int64_t, int64_t>>> by_layout;
    std::string unreadable;
    int unreadable_count = 0;
    for (const ObservedParameter& p : parameters) {
        if (p.whole_bytes > 0) {
            auto& [count, bytes] = by_layout[p.layout];
            ++count;
            bytes.first += p.weight.bytes;
            bytes.second += p.whole_bytes;
        }
        if (!p.unreadable.empty() && ++unreadable_count <= 5) {
            unreadable += (unreadable.empty() ? "" : "; ") + p.name + " (" + p.unreadable + ")";
        }
    }
    std::string sharding;
    for (const auto& [layout, figures] : by_layout) {
        const auto& [count, bytes] = figures;
        sharding += (sharding.empty() ? "" : "; ") + std::to_string(count) + " of the " +
                    std::to_string(parameters.size()) + " parameters sharded (" + layout +
                    "): this rank holds " + std::to_string(bytes.first) + " of their " +
                    std::to_string(bytes.second) + " bytes";
    }
    if (!sharding.empty()) {
        report.metadata[report_format::kShardingKey] = sharding;
    }
    if (unreadable_count > 0) {
        if (unreadable_count > 5) {
            unreadable += "; and " + std::to_string(unreadable_count - 5) + " more";
        }
        std::string& note = report.metadata[report_format::kMemoryNoteKey];
        note += std::string(note.empty() ? "" : "; ") +
                "parameters whose memory could not be read are not counted as weights, "
                "gradients or optimizer state (their blocks count as other): " +
                unreadable;
    }
}

void addPeak(const RecordedSteps& steps, const MemoryStepSources& sources,
             const ParameterBlocks& blocks, FsdpStep& fsdp, MemoryReport& report) {
    std::unordered_map<int64_t, std::string> kernel_modules;  // by allocation event
    for (const auto& [event, site] : steps.kernel_of_block)
        if (!steps.kernel_sites[site].module_path.empty()) {
            kernel_modules[event] = steps.kernel_sites[site].module_path;
        }
    PeakAnalysis peak = analyzePeak(*sources.memory, blocks, *sources.gradient_blocks,
                                    steps.operation_modules, kernel_modules, fsdp.blocks);
    report.peak_usage_bytes = sources.memory->peak_bytes;
    if (sources.allocator_peak) {
        report.peak_usage_bytes = *sources.allocator_peak;
        peak.breakdown.other += report.peak_usage_bytes - peak.breakdown.total();
    }
    report.peak_breakdown = peak.breakdown;
    report.peak_by_module = std::move(peak.by_module);
    if (peak.freed_unseen > 0) {
        // A file's events are the file's: their fault is never the meter's.
        std::string& note = report.metadata[report_format::kMemoryNoteKey];
        note += std::string(note.empty() ? "" : "; ") + std::to_string(peak.freed_unseen) +
                (sources.memory->allocator_totals
                     ? " bytes of blocks were allocated again at addresses the file holds "
                       "allocated, with no free between: the file lost the free of the blocks "
                       "there before, which its totals, and so the peak, do not count"
                     : " bytes of blocks were freed before the peak where c10 did not report "
                       "it to the meter (on a thread it does not reach): the peak counts "
                       "them, as other, until their addresses were used again");
    }
    if (peak.fsdp_buffers_unseen > 0) {
        std::string& note = report.metadata[report_format::kMemoryNoteKey];
        note += std::string(note.empty() ? "" : "; ") + "the peak may count " +
                std::to_string(peak.fsdp_buffers_unseen) +
                " bytes of FSDP2's collective buffers whose free c10 did not report to the meter "
                "(FSDP2 lets go of them within the step; a thread the meter does not reach, such "
                "as Gloo's, may free them last)";
    }
    addUnitWeights(fsdp.units, report.weights, peak.unsharded_by_unit);
    report.fsdp_units = std::move(fsdp.units);
}

// What the report lacks, in its note, and whether its entries' frames reach the project.
void addNotes(const RecordedSteps& steps, const MemoryRecord& memory, MemoryReport& report) {
    std::vector<std::string> incomplete;
    if (steps.operations.empty()) {
        incomplete.push_back(
            "no step ran on the observing thread: the memory step ran no operation on the thread "
            "that observes the steps (the one that started the session and marks each step); "
            "either the step does nothing, or it runs on another thread, which is not observed "
            "and this report lacks");
    }
    if (memory.displaced) {
        incomplete.push_back(
            "another profiler (torch's own) took c10's allocation reports from TrainScope's "
            "memory meter, which observes from the session's start to the first observed step's "
            "end: the allocations it took are missing from this report");
    }
    if (!incomplete.empty()) {
        std::string& note = report.metadata[report_format::kMemoryNoteKey];
        for (const std::string& why : incomplete)
            note += (note.empty() ? "" : "; ") + why;
    }
    std::vector<const StackTrace*> entry_frames;
    for (const WeightEntry& entry : report.weights)
        entry_frames.push_back(&entry.frames);
    for (const ActivationEntry& entry : report.activations)
        entry_frames.push_back(&entry.frames);
    noteMissingProjectFrames(report.metadata, entry_frames);
}

}  // namespace

MemoryStepReport assembleMemoryReport(RecordedSteps& steps, const MemoryStepSources& sources) {
    MemoryStepReport result;
    MemoryReport& report = result.report;
    report.metadata = sources.metadata;  // the notes below add to it
    resolveModules(steps, sources);
    ParameterBlocks blocks;
    addWeights(steps, sources, report, blocks);
    FsdpStep fsdp = fsdpStep(*sources.memory, sources.timeline, sources.collectives);
    addActivations(steps, *sources.memory, fsdp.blocks, result);
    addPeak(steps, sources, blocks, fsdp, report);
    addShardingNotes(sources.parameters, report);
    addNotes(steps, *sources.memory, report);
    return result;
}

}  // namespace trainscope
