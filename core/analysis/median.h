// SPDX-License-Identifier: Apache-2.0
// The median of a list of figures (the mean of the middle two for an even count; 0 for none):
// the run time report's per-operation times and the ranks' summary use the same.
#pragma once

#include <algorithm>
#include <vector>

namespace trainscope {

inline double median(std::vector<double> values) {
    if (values.empty()) {
        return 0.0;
    }
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

}  // namespace trainscope
