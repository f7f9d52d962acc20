// SPDX-License-Identifier: Apache-2.0
#include "reading/rowid_ranges.h"

#include <algorithm>
#include <limits>

namespace trainscope::ui {

std::vector<RowidRange> splitRowids(int64_t first, int64_t last, size_t threads) {
    if (last < first)
        return {{std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}};
    constexpr uint64_t kRangeRows = 1 << 20;
    constexpr uint64_t kMostRanges = 64;
    // Offsets from `first`, unsigned: the span of all 64 bits is 2^64 - 1, which no signed
    // integer holds. No sum below may pass 2^64 - 1 either (a fuzzer found one that did, which
    // made `pieces` 0).
    const uint64_t span = static_cast<uint64_t>(last) - static_cast<uint64_t>(first);
    const uint64_t lanes = std::max<size_t>(threads, 1);
    const uint64_t rounds = span / lanes / kRangeRows + 1;  // ranges a thread
    const uint64_t pieces = std::min<uint64_t>(kMostRanges, lanes * rounds);
    const uint64_t step = span / pieces + 1;  // pieces * step > span: at most `pieces` ranges
    std::vector<RowidRange> ranges;
    for (uint64_t offset = 0;; offset += step) {
        const uint64_t end = span - offset < step ? span : offset + step - 1;
        ranges.push_back({static_cast<int64_t>(static_cast<uint64_t>(first) + offset),
                          static_cast<int64_t>(static_cast<uint64_t>(first) + end)});
        if (end == span)
            return ranges;
    }
}

}  // namespace trainscope::ui
