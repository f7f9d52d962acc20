// SPDX-License-Identifier: Apache-2.0
// How the checks of an untrusted report cut a table's rowids into ranges to scan side by side.
// Apart from the checks, so that its arithmetic can be tested on any span of rowids: a hostile
// file may hold rowids anywhere in the 64-bit integers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace trainscope::ui {

struct RowidRange {
    int64_t first, last;  // both included
};

// [first, last] cut into ranges of at most about a million rowids, as many as a multiple of
// `threads` (at most 64: a hostile file may claim any rowid), so that the scans spread evenly
// over the threads: 3M rows on 2 threads are 4 ranges, not 3 (the last of which ran alone),
// and 1M rows are 2, not 1. The ranges cover [first, last] exactly, in order, without overlap.
// `last` < `first` (MIN and MAX of a damaged b-tree) gives the whole of the integers, one range.
std::vector<RowidRange> splitRowids(int64_t first, int64_t last, size_t threads);

}  // namespace trainscope::ui
