// SPDX-License-Identifier: Apache-2.0
// A compiled region's kernels as rows of the run time report: torch.compile runs a region
// ("Torch-Compiled Region: 0/0") as one call to Inductor's generated code, which the operation
// observer sees as one operation. The host times each kernel that code calls and knows, from
// Inductor's provenance, the ATen operations, module and lines behind it; here each kernel
// becomes an entry of its own after its region's, and the region keeps only the time spent
// outside its kernels (guards, buffer allocation, the generated code's own Python).
#pragma once

#include <cstdint>
#include <vector>

#include "records/recorded_steps.h"
#include "trainscope/reports.h"

namespace trainscope {

// Where the entries went: `entry_of_operation[i]`, the index of what was entry i;
// `entry_of_site[s]`, site s's row (-1: none); and how many regions (by compile id), compiled
// before the session (none of `time.compilations`), have no site: their code came without
// provenance.
struct CompiledRegionSplit {
    std::vector<size_t> entry_of_operation;
    std::vector<int> entry_of_site;
    int regions_without_provenance = 0;
};

// Inserts each site that ran in a timed step after the entry it ran in (`site_operations`: the
// memory step's operation it ran in, its forward or its backward node; -1 where unknown), else
// after its region's first entry, else at the end, with its median time over the timed steps
// (forward or backward by its graph; frames: the site's lines above that entry's call site);
// takes its time out of that entry, and lists the rows in `time.kernels`.
CompiledRegionSplit splitCompiledRegions(TimeReport& time,
                                         const std::vector<CompiledKernelSite>& sites,
                                         const std::vector<int>& site_operations,
                                         const KernelSteps& steps);

}  // namespace trainscope
