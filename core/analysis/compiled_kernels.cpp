// SPDX-License-Identifier: Apache-2.0
#include "analysis/compiled_kernels.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "analysis/median.h"

namespace trainscope {
namespace {

// torch.compile's name for the call of a compiled region (its RecordFunction's).
const std::string kRegionPrefix = "Torch-Compiled Region: ";

struct KernelRow {
    RunTimeEntry entry;
    KernelEntry kernel;
};

// Site `s`'s row from the timed steps, or nothing when no step ran it.
std::optional<KernelRow> rowOf(const CompiledKernelSite& site, size_t s, const KernelSteps& steps) {
    std::vector<double> ms;
    std::vector<double> calls;
    for (size_t k = 0; k < steps.ms.size(); ++k) {
        const bool ran = s < steps.ms[k].size() && steps.calls[k][s] > 0;
        ms.push_back(ran ? steps.ms[k][s] : 0.0);
        calls.push_back(ran ? static_cast<double>(steps.calls[k][s]) : 0.0);
    }
    if (std::all_of(calls.begin(), calls.end(), [](double c) { return c == 0.0; })) {
        return std::nullopt;
    }
    KernelRow row;
    const double time = median(ms);
    const Spread spread{*std::min_element(ms.begin(), ms.end()),
                        *std::max_element(ms.begin(), ms.end())};
    row.entry.operation_name = site.kernel;
    row.entry.module_path = site.module_path;
    row.entry.frames = site.frames;
    if (site.backward) {
        row.entry.backward_ms = time;
        row.entry.backward_spread = spread;
    } else {
        row.entry.forward_ms = time;
        row.entry.forward_spread = spread;
    }
    row.kernel = {0,
                  site.compile_id,
                  site.backward,
                  site.fused_ops,
                  site.unattributed,
                  static_cast<int64_t>(median(calls))};
    return row;
}

// Takes `ms` out of `part` of the region's entries, in order, none below zero.
void takeOut(std::vector<RunTimeEntry*>& regions, double ms, bool backward) {
    for (RunTimeEntry* region : regions) {
        if (backward && !region->backward_ms) {
            continue;
        }
        double& held = backward ? *region->backward_ms : region->forward_ms;
        const double taken = std::min(held, ms);
        held -= taken;
        ms -= taken;
    }
}

}  // namespace

void splitCompiledRegions(TimeReport& time, const std::vector<CompiledKernelSite>& sites,
                          const KernelSteps& steps) {
    // The rows of each region, in the order the host learnt its sites (Inductor's code order).
    std::map<std::string, std::vector<KernelRow>> by_region;
    for (size_t s = 0; s < sites.size(); ++s) {
        if (auto row = rowOf(sites[s], s, steps)) {
            by_region[sites[s].compile_id].push_back(std::move(*row));
        }
    }
    if (by_region.empty()) {
        return;
    }
    std::vector<RunTimeEntry> entries;
    std::vector<KernelEntry> kernels;
    const auto add = [&](KernelRow& row, const StackTrace& call_site) {
        row.entry.frames.insert(row.entry.frames.end(), call_site.begin(), call_site.end());
        row.kernel.entry = entries.size();
        kernels.push_back(std::move(row.kernel));
        entries.push_back(std::move(row.entry));
    };
    for (const auto& [compile_id, rows] : by_region) {
        std::vector<RunTimeEntry*> regions;
        for (RunTimeEntry& entry : time.entries)
            if (entry.operation_name == kRegionPrefix + compile_id) {
                regions.push_back(&entry);
            }
        for (const KernelRow& row : rows)
            takeOut(regions, row.kernel.backward ? *row.entry.backward_ms : row.entry.forward_ms,
                    row.kernel.backward);
    }
    for (RunTimeEntry& entry : time.entries) {
        const bool region = entry.operation_name.rfind(kRegionPrefix, 0) == 0;
        const StackTrace call_site = entry.frames;
        entries.push_back(std::move(entry));
        if (!region) {
            continue;
        }
        const auto it = by_region.find(entries.back().operation_name.substr(kRegionPrefix.size()));
        if (it != by_region.end()) {
            for (KernelRow& row : it->second)
                add(row, call_site);
            by_region.erase(it);  // a region called twice: its kernels follow its first call
        }
    }
    for (auto& [compile_id, rows] : by_region)  // a region that no entry names
        for (KernelRow& row : rows)
            add(row, {});
    time.entries = std::move(entries);
    time.kernels = std::move(kernels);
}

}  // namespace trainscope
