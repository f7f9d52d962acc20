// SPDX-License-Identifier: Apache-2.0
#include "analysis/fsdp_blocks.h"

#include <algorithm>
#include <map>
#include <string_view>

namespace trainscope {
namespace {

struct FsdpScope {
    int64_t start = 0, end = 0;
    FsdpBlock block;
};

struct Span {
    int64_t start = 0, end = 0;
};

// FSDP2's scope names (torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py): the label,
// then the unit's path in brackets unless it is the root, then " [pg=N]" with several groups.
bool fsdpScope(std::string_view name, FsdpBlock& block) {
    constexpr std::string_view gather = "FSDP::all_gather", copy_out = "_copy_out",
                               reduce = "FSDP::post_backward_reduce";
    std::string_view rest;
    if (name.substr(0, gather.size()) == gather) {
        rest = name.substr(gather.size());
        block.kind = FsdpBlock::Kind::AllGatherBuffer;
        if (rest.substr(0, copy_out.size()) == copy_out) {
            rest = rest.substr(copy_out.size());
            block.kind = FsdpBlock::Kind::UnshardedParameters;
        }
    } else if (name.substr(0, reduce.size()) == reduce) {
        rest = name.substr(reduce.size());
        block.kind = FsdpBlock::Kind::ReduceScatter;
    } else {
        return false;
    }
    if (!rest.empty() && rest.substr(0, 2) != " (" && rest.substr(0, 2) != " [") {
        return false;  // another scope whose name begins alike
    }
    block.unit.clear();
    if (rest.substr(0, 2) == " (") {
        const size_t close = rest.find(')');
        if (close != std::string_view::npos) {
            block.unit = std::string(rest.substr(2, close - 2));
        }
    }
    return true;
}

// "FSDP::forward_prefetch for blocks.1", "FSDP::backward_prefetch for blocks.0": an all-gather
// that one unit issues ahead for another.
bool prefetchScope(std::string_view name) {
    return name.substr(0, 6) == "FSDP::" && name.find("_prefetch for ") != std::string_view::npos;
}

bool within(const std::vector<Span>& spans, int64_t time) {
    return std::any_of(spans.begin(), spans.end(),
                       [&](const Span& s) { return s.start <= time && time <= s.end; });
}

void addCall(FsdpUnitCollectives& to, const std::string& name, int64_t bytes, double ms) {
    if (("," + to.name + ",").find("," + name + ",") == std::string::npos) {
        to.name += (to.name.empty() ? "" : ",") + name;
    }
    ++to.count;
    to.bytes = bytes < 0 || to.bytes < 0 ? -1 : to.bytes + bytes;
    to.ms += ms;
}

// A collective whose call began inside a unit's FSDP::all_gather or FSDP::post_backward_reduce
// scope is that unit's: the backend may run it on a thread of its own (Gloo's worker), so the
// scope is looked for on every thread. Its bytes are the observer's record of it: the records
// and the timeline's calls, each in start order, are the same calls when their names agree.
void addUnitCollectives(std::vector<FsdpUnitEntry>& units,
                        const std::map<std::string, size_t>& unit_index,
                        const std::vector<FsdpScope>& scopes, const TimelineRecord& timeline,
                        const std::vector<CollectiveRecord>* records) {
    struct Call {
        int64_t start, end;
        const std::string* name;
    };
    std::vector<Call> calls;
    for (const auto& thread : timeline.threads) {
        for (size_t i = 0; i < thread->events.size(); ++i) {
            const TimelineEvent& event = thread->events[i];
            if (event.user_scope && event.name < thread->names.size() &&
                isCollectiveName(thread->names[event.name])) {
                calls.push_back(
                    {event.start, std::max(event.start, event.end), &thread->names[event.name]});
            }
        }
    }
    std::stable_sort(calls.begin(), calls.end(),
                     [](const Call& a, const Call& b) { return a.start < b.start; });
    std::vector<CollectiveRecord> sorted = records ? *records : std::vector<CollectiveRecord>{};
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const CollectiveRecord& a, const CollectiveRecord& b) {
                         return a.start_ms < b.start_ms;
                     });
    bool joined = sorted.size() == calls.size();
    for (size_t i = 0; joined && i < calls.size(); ++i)
        joined = sorted[i].name == *calls[i].name;
    const double ms_per_tick = timeline.clock.ns_per_tick / 1e6;
    for (size_t i = 0; i < calls.size(); ++i) {
        const FsdpScope* owner = nullptr;
        for (const FsdpScope& scope : scopes) {
            if (scope.block.kind != FsdpBlock::Kind::UnshardedParameters &&
                scope.start <= calls[i].start && calls[i].start <= scope.end &&
                (!owner || scope.start > owner->start)) {
                owner = &scope;
            }
        }
        if (!owner) {
            continue;  // not FSDP's: the loop's own all-reduce of the loss, say
        }
        FsdpUnitEntry& unit = units[unit_index.at(owner->block.unit)];
        addCall(
            owner->block.kind == FsdpBlock::Kind::ReduceScatter ? unit.reducing : unit.gathering,
            *calls[i].name, joined ? sorted[i].bytes : -1,
            static_cast<double>(calls[i].end - calls[i].start) * ms_per_tick);
    }
}

}  // namespace

FsdpStep fsdpStep(const MemoryRecord& memory, const TimelineRecord* timeline,
                  const std::vector<CollectiveRecord>* collectives) {
    FsdpStep step;
    if (!timeline) {
        return step;
    }
    // Each thread's FSDP scopes in start order (those that tag blocks do not nest in one
    // another), and each unit's entry in the order its first scope began.
    std::vector<std::vector<FsdpScope>> scopes(timeline->threads.size());
    std::map<std::string, size_t> unit_index;
    std::vector<FsdpScope> all;  // by scope number
    for (size_t t = 0; t < timeline->threads.size(); ++t) {
        const ThreadTimeline& thread = *timeline->threads[t];
        std::vector<Span> prefetches;
        for (size_t i = 0; i < thread.events.size(); ++i) {
            const TimelineEvent& event = thread.events[i];
            if (!event.user_scope || event.name >= thread.names.size()) {
                continue;
            }
            const std::string& name = thread.names[event.name];
            FsdpScope scope{event.start, event.end, {}};
            if (prefetchScope(name)) {
                prefetches.push_back({event.start, event.end});
            } else if (fsdpScope(name, scope.block)) {
                auto [it, added] = unit_index.emplace(scope.block.unit, step.units.size());
                if (added) {
                    step.units.emplace_back().unit = scope.block.unit;
                }
                FsdpUnitEntry& unit = step.units[it->second];
                if (scope.block.kind == FsdpBlock::Kind::UnshardedParameters) {
                    ++unit.gathers;
                } else if (scope.block.kind == FsdpBlock::Kind::AllGatherBuffer &&
                           within(prefetches, event.start)) {
                    ++unit.prefetched;
                }
                scope.block.scope = static_cast<int>(all.size());
                all.push_back(scope);
                scopes[t].push_back(std::move(scope));
            }
        }
    }
    if (all.empty()) {
        return step;
    }
    addUnitCollectives(step.units, unit_index, all, *timeline, collectives);
    // The blocks allocated in them, each scope's bytes, and when the last of them was freed.
    std::vector<int64_t> bytes(all.size(), 0), last_free(all.size(), -1),
        first_alloc(all.size(), -1);
    std::unordered_map<const void*, int> live;  // a tagged block's scope, by address
    int64_t last_time = 0;
    for (size_t e = 0; e < memory.events.size(); ++e) {
        const MemoryEvent& event = memory.events[e];
        last_time = std::max(last_time, event.time);
        if (event.bytes <= 0) {
            const auto it = live.find(event.ptr);
            if (it != live.end()) {
                last_free[it->second] = std::max(last_free[it->second], event.time);
                live.erase(it);
            }
            continue;
        }
        live.erase(event.ptr);
        if (event.outer_event < 0) {
            continue;
        }
        const size_t thread = static_cast<size_t>(event.outer_event >> 32);
        if (thread >= scopes.size()) {
            continue;
        }
        const std::vector<FsdpScope>& open = scopes[thread];
        auto after =
            std::upper_bound(open.begin(), open.end(), event.time,
                             [](int64_t time, const FsdpScope& s) { return time < s.start; });
        if (after == open.begin() || event.time > std::prev(after)->end) {
            continue;
        }
        const FsdpBlock& block = std::prev(after)->block;
        step.blocks.emplace(static_cast<int64_t>(e), block);
        bytes[block.scope] += event.bytes;
        if (first_alloc[block.scope] < 0) {
            first_alloc[block.scope] = event.time;
        }
        live[event.ptr] = block.scope;
    }
    for (const auto& [ptr, scope] : live)
        last_free[scope] = last_time;  // still held when the step ended
    const double ms_per_tick = timeline->clock.ns_per_tick / 1e6;
    for (size_t s = 0; s < all.size(); ++s) {
        FsdpUnitEntry& unit = step.units[unit_index.at(all[s].block.unit)];
        switch (all[s].block.kind) {
            case FsdpBlock::Kind::UnshardedParameters:
                unit.unsharded_bytes = std::max(unit.unsharded_bytes, bytes[s]);
                if (first_alloc[s] >= 0 && last_free[s] >= first_alloc[s]) {
                    unit.gathered_ms +=
                        static_cast<double>(last_free[s] - first_alloc[s]) * ms_per_tick;
                }
                break;
            case FsdpBlock::Kind::ReduceScatter:
                unit.reduce_scatter_bytes = std::max(unit.reduce_scatter_bytes, bytes[s]);
                break;
            case FsdpBlock::Kind::AllGatherBuffer:
                break;
        }
    }
    return step;
}

void addUnitWeights(std::vector<FsdpUnitEntry>& units, const std::vector<WeightEntry>& weights,
                    const std::unordered_map<std::string, int64_t>& unsharded_at_peak) {
    for (const WeightEntry& weight : weights) {
        FsdpUnitEntry* owner = nullptr;
        for (FsdpUnitEntry& unit : units) {
            const bool inside =
                unit.unit.empty() || (weight.name.size() > unit.unit.size() &&
                                      weight.name.compare(0, unit.unit.size(), unit.unit) == 0 &&
                                      weight.name[unit.unit.size()] == '.');
            if (inside && (!owner || unit.unit.size() > owner->unit.size())) {
                owner = &unit;
            }
        }
        if (owner) {
            ++owner->parameters;
            owner->sharded_bytes += weight.size_bytes;
        }
    }
    for (FsdpUnitEntry& unit : units) {
        const auto at_peak = unsharded_at_peak.find(unit.unit);
        unit.unsharded_at_peak_bytes = at_peak != unsharded_at_peak.end() ? at_peak->second : 0;
    }
}

}  // namespace trainscope
