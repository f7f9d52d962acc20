// SPDX-License-Identifier: Apache-2.0
#include "analysis/compiled_kernels.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
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
                  static_cast<int64_t>(median(calls)),
                  site.input_shapes};
    return row;
}

// Takes `ms` out of the entry's forward or backward time, not below zero. A backward kernel
// of an entry without backward time ran inside the entry's own call (a compiled step function
// that calls backward() itself): its own time holds it.
void takeOut(RunTimeEntry& entry, double ms, bool backward) {
    double& held = backward && entry.backward_ms ? *entry.backward_ms : entry.forward_ms;
    held -= std::min(held, ms);
}

// Whether Inductor placed a kernel in torch.optim's code: a compiled optimizer step's kernel
// (AdamW's fused update), whose time is the optimizer's whatever region ran it.
bool inTheOptimizer(const CompiledKernelSite& site) {
    return std::any_of(site.frames.begin(), site.frames.end(), [](const StackFrame& frame) {
        return frame.file_path.str().rfind("torch/optim/", 0) == 0;
    });
}

}  // namespace

CompiledRegionSplit splitCompiledRegions(TimeReport& time,
                                         const std::vector<CompiledKernelSite>& sites,
                                         const std::vector<int>& site_operations,
                                         const KernelSteps& steps) {
    CompiledRegionSplit split;
    split.entry_of_site.assign(sites.size(), -1);
    for (size_t i = 0; i < time.entries.size(); ++i)
        split.entry_of_operation.push_back(i);
    std::set<std::string> known;  // compile ids with sites
    for (const CompiledKernelSite& site : sites)
        known.insert(site.compile_id);
    std::map<std::string, int> region_entry;  // each region's first entry
    for (size_t i = 0; i < time.entries.size(); ++i) {
        const std::string& name = time.entries[i].operation_name;
        if (name.rfind(kRegionPrefix, 0) == 0) {
            region_entry.emplace(name.substr(kRegionPrefix.size()), static_cast<int>(i));
        }
    }
    // Each row after the entry it ran in (the memory step's operation, or its backward node's),
    // else its region's first entry, else at the end; in the order the host learnt the sites
    // (Inductor's code order).
    struct SiteRow {
        size_t site;
        KernelRow row;
    };
    std::map<int, std::vector<SiteRow>> after;  // entry index (-1: the end): its rows
    for (size_t s = 0; s < sites.size(); ++s) {
        auto row = rowOf(sites[s], s, steps);
        if (!row) {
            continue;
        }
        int target = s < site_operations.size() ? site_operations[s] : -1;
        if (target < 0 || static_cast<size_t>(target) >= time.entries.size()) {
            const auto it = region_entry.find(sites[s].compile_id);
            target = it != region_entry.end() ? it->second : -1;
        }
        if (inTheOptimizer(sites[s]) && !sites[s].backward) {
            row->entry.part = StepPart::Optimizer;
        }
        if (target >= 0) {
            // A kernel of a region run by the optimizer's step (a compiled optimizer) is
            // optimizer time, as its region is.
            if (row->entry.part != StepPart::Optimizer) {
                row->entry.part = time.entries[target].part;
            }
            takeOut(time.entries[target],
                    row->kernel.backward ? *row->entry.backward_ms : row->entry.forward_ms,
                    row->kernel.backward);
        }
        after[target].push_back({s, std::move(*row)});
    }
    // Regions that no site names and in whose call no kernel ran, compiled before the session:
    // code without provenance. One compiled in the session without sites ran no code of
    // Inductor's (another backend: "eager", "aot_eager"), and has nothing to say.
    std::set<std::string> compiled_here;
    for (const Compilation& compilation : time.compilations)
        compiled_here.insert(compilation.compile_id);
    for (const auto& [id, entry] : region_entry)
        split.regions_without_provenance +=
            known.count(id) == 0 && after.count(entry) == 0 && compiled_here.count(id) == 0;
    if (after.empty()) {
        return split;
    }
    std::vector<RunTimeEntry> entries;
    std::vector<KernelEntry> kernels;
    const auto add = [&](std::vector<SiteRow>& rows, const StackTrace& call_site) {
        for (auto& [site, row] : rows) {
            row.entry.frames.insert(row.entry.frames.end(), call_site.begin(), call_site.end());
            row.kernel.entry = entries.size();
            split.entry_of_site[site] = static_cast<int>(entries.size());
            kernels.push_back(std::move(row.kernel));
            entries.push_back(std::move(row.entry));
        }
    };
    for (size_t i = 0; i < time.entries.size(); ++i) {
        const StackTrace call_site = time.entries[i].frames;
        split.entry_of_operation[i] = entries.size();
        entries.push_back(std::move(time.entries[i]));
        if (const auto it = after.find(static_cast<int>(i)); it != after.end()) {
            add(it->second, call_site);
        }
    }
    if (const auto it = after.find(-1); it != after.end()) {
        add(it->second, {});
    }
    time.entries = std::move(entries);
    time.kernels = std::move(kernels);
    return split;
}

}  // namespace trainscope
