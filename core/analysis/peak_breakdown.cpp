#include "analysis/peak_breakdown.h"

#include <algorithm>
#include <map>

#include "tracking/memory_observer.h"

namespace trainscope {
namespace {

using LiveSet = std::unordered_map<void*, LiveBlock>;

// Replays the iteration's events from its start, calling `at(position, live)` after the
// first `position` events for each requested position (ascending).
template <typename Visit>
void replay(const MemoryObserver& memory, const std::vector<size_t>& positions, Visit at) {
    LiveSet live(memory.liveAtStart().begin(), memory.liveAtStart().end());
    const std::vector<MemoryEvent>& events = memory.events();
    size_t next = 0;
    for (size_t applied = 0;; ++applied) {
        while (next < positions.size() && positions[next] == applied) {
            at(next++, live);
        }
        if (applied == events.size() || next == positions.size()) {
            return;
        }
        const MemoryEvent& event = events[applied];
        if (event.bytes > 0) {
            live[event.ptr] =
                LiveBlock{event.bytes, event.phase, event.operation, static_cast<int64_t>(applied)};
        } else {
            live.erase(event.ptr);
        }
    }
}

bool sameBlock(const LiveSet& set, void* ptr, const LiveBlock& block) {
    const auto it = set.find(ptr);
    return it != set.end() && it->second.event == block.event;
}

}  // namespace

PeakAnalysis analyzePeak(const MemoryObserver& memory, const ParameterBlocks& parameters,
                         const std::vector<std::string>& operation_modules) {
    // The live sets at the peak, at the start of backward and at the end.
    LiveSet at_peak, at_backward, at_end;
    std::vector<size_t> positions{memory.eventsAtPeak(), memory.eventsAtBackward(),
                                  memory.events().size()};
    std::vector<LiveSet*> targets{&at_peak, &at_backward, &at_end};
    // Positions must ascend for the replay; sort them with their targets.
    std::vector<size_t> order{0, 1, 2};
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return positions[a] < positions[b]; });
    std::vector<size_t> sorted;
    for (size_t i : order) {
        sorted.push_back(positions[i]);
    }
    replay(memory, sorted,
           [&](size_t index, const LiveSet& live) { *targets[order[index]] = live; });

    PeakAnalysis analysis;
    std::map<std::pair<std::string, std::string>, int64_t> by_module;
    auto add = [&](int64_t& part, const char* kind, const std::string& module, int64_t bytes) {
        part += bytes;
        by_module[{module, kind}] += bytes;
    };
    PeakBreakdown& peak = analysis.breakdown;
    for (const auto& [ptr, block] : at_peak) {
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
        const bool forward = block.phase == AllocationPhase::Forward && block.event >= 0;
        const std::string module =
            forward && block.operation >= 0 &&
                    static_cast<size_t>(block.operation) < operation_modules.size()
                ? operation_modules[block.operation]
                : std::string();
        if (forward && sameBlock(at_backward, ptr, block)) {
            add(peak.activations, "activations", module, block.bytes);
        } else {
            add(peak.other, "other", module, block.bytes);
        }
    }
    for (const auto& [key, bytes] : by_module) {
        analysis.by_module.push_back({key.first, key.second, bytes});
    }
    return analysis;
}

}  // namespace trainscope
