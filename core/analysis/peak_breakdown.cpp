// SPDX-License-Identifier: Apache-2.0
#include "analysis/peak_breakdown.h"

#include <map>

namespace trainscope {
namespace {

using LiveSet = std::unordered_map<void*, TrackedBlock>;

bool sameBlock(const LiveSet& set, void* ptr, const TrackedBlock& block) {
    const auto it = set.find(ptr);
    return it != set.end() && it->second.event == block.event;
}

}  // namespace

std::unordered_set<int64_t> activationEvents(const MemoryRecord& record, const FsdpBlocks& fsdp) {
    // The step's own blocks, replayed up to each micro-batch's backward.
    std::unordered_map<void*, TrackedBlock> allocated;
    std::unordered_set<int64_t> activations;
    size_t applied = 0;
    for (const MemoryRecord::MicroBatch& batch : record.micro_batches) {
        if (!batch.backward_began) {
            continue;
        }
        for (; applied < batch.backward; ++applied) {
            applyEvent(allocated, record.events[applied], applied);
        }
        for (const auto& [ptr, block] : allocated) {
            if (block.phase == AllocationPhase::Forward &&
                block.event >= static_cast<int64_t>(batch.forward) &&
                !record.backward_roots.count(block.event) && !fsdp.count(block.event)) {
                activations.insert(block.event);
            }
        }
    }
    return activations;
}

PeakAnalysis analyzePeak(const MemoryRecord& memory, const ParameterBlocks& parameters,
                         const GradientBlocks& gradients,
                         const std::vector<std::string>& operation_modules,
                         const std::unordered_map<int64_t, std::string>& kernel_modules,
                         const FsdpBlocks& fsdp) {
    // The live sets at the peak and at the end, in one replay.
    const ChunkedLog<MemoryEvent>& events = memory.events;
    const std::unordered_set<int64_t> activations = activationEvents(memory, fsdp);
    LiveSet at_end(memory.live_at_start.begin(), memory.live_at_start.end());
    LiveSet at_peak;
    PeakAnalysis analysis;
    // A block whose free the meter did not see by the peak's instant, nor after it.
    auto unseenAfterPeak = [&](void* ptr, const TrackedBlock& block) {
        const auto unit = fsdp.find(block.event);
        if (unit == fsdp.end() || unit->second.kind == FsdpBlock::Kind::UnshardedParameters ||
            parameters.count(ptr) || gradients.count({ptr, block.event})) {
            return;
        }
        const auto then = at_peak.find(ptr);
        if (then != at_peak.end() && then->second.event == block.event) {
            analysis.fsdp_buffers_unseen += block.bytes;
        }
    };
    for (size_t applied = 0;; ++applied) {
        if (applied == memory.events_at_peak) {
            at_peak = at_end;
        }
        if (applied == events.size()) {
            break;
        }
        // A block allocated where another is alive: that one was freed where c10 did not report
        // it to the meter (on a thread the meter does not reach), and the meter's total still
        // counts it.
        if (events[applied].bytes > 0) {
            const auto stale = at_end.find(events[applied].ptr);
            if (stale != at_end.end()) {
                if (applied < memory.events_at_peak) {
                    analysis.freed_unseen += stale->second.bytes;
                } else {
                    unseenAfterPeak(stale->first, stale->second);
                }
            }
        }
        applyEvent(at_end, events[applied], applied);
    }
    for (const auto& [ptr, block] : at_end)
        unseenAfterPeak(ptr, block);

    std::map<std::pair<std::string, std::string>, int64_t> by_module;
    auto add = [&](int64_t& part, const char* kind, const std::string& module, int64_t bytes) {
        part += bytes;
        by_module[{module, kind}] += bytes;
    };
    PeakBreakdown& peak = analysis.breakdown;
    for (const auto& [ptr, block] : at_peak) {
        const auto gradient = gradients.find({ptr, block.event});
        if (gradient != gradients.end()) {
            add(peak.gradients, "gradients", gradient->second, block.bytes);
            continue;
        }
        const auto owner = parameters.find(ptr);
        if (owner != parameters.end() && sameBlock(at_end, ptr, block)) {
            const ParameterBlock& p = owner->second;
            switch (p.kind) {
                case ParameterBlock::Kind::Weight:
                    add(peak.weights, "weights", p.module_path, block.bytes);
                    break;
                case ParameterBlock::Kind::Gradient:
                    add(peak.gradients, "gradients", p.module_path, block.bytes);
                    break;
                case ParameterBlock::Kind::OptimizerState:
                    add(peak.optimizer_state, "optimizer_state", p.module_path, block.bytes);
                    break;
            }
            continue;
        }
        if (const auto unit = fsdp.find(block.event); unit != fsdp.end()) {
            if (unit->second.kind != FsdpBlock::Kind::ReduceScatter) {
                add(peak.weights, "weights", unit->second.unit, block.bytes);
                peak.unsharded_parameters += block.bytes;
                analysis.unsharded_by_unit[unit->second.unit] += block.bytes;
            } else {
                add(peak.gradients, "gradients", unit->second.unit, block.bytes);
                peak.reduce_scatter += block.bytes;
            }
            continue;
        }
        const bool forward = block.phase == AllocationPhase::Forward && block.event >= 0;
        const auto kernel = forward ? kernel_modules.find(block.event) : kernel_modules.end();
        const std::string module =
            kernel != kernel_modules.end() ? kernel->second
            : forward && block.operation >= 0 &&
                    static_cast<size_t>(block.operation) < operation_modules.size()
                ? operation_modules[block.operation]
                : std::string();
        if (forward && activations.count(block.event)) {
            add(peak.activations, "activations", module, block.bytes);
        } else {
            add(peak.other, "other", module, block.bytes);
        }
    }
    if (!memory.allocator_totals) {  // the peak counts them: the meter never saw their free
        add(peak.other, "other", "", analysis.freed_unseen);
    }
    for (const auto& [key, bytes] : by_module) {
        if (bytes > 0) {
            analysis.by_module.push_back({key.first, key.second, bytes});
        }
    }
    return analysis;
}

}  // namespace trainscope
