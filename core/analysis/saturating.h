// SPDX-License-Identifier: Apache-2.0
// Sums and differences of a report's times that stop at int64's ends rather than wrap: a
// damaged file's timestamps may be anything.
#pragma once

#include <cstdint>
#include <limits>

namespace trainscope {

inline int64_t saturatedSum(int64_t a, int64_t b) {
    int64_t sum = 0;
    return __builtin_add_overflow(a, b, &sum)
               ? (b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min())
               : sum;
}

// a - b
inline int64_t saturatedDifference(int64_t a, int64_t b) {
    int64_t difference = 0;
    return __builtin_sub_overflow(a, b, &difference)
               ? (b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min())
               : difference;
}

// a * b for b > 0 (a count of elements times their size): a hostile count stops at int64's end.
inline int64_t saturatedProduct(int64_t a, int64_t b) {
    int64_t product = 0;
    return __builtin_mul_overflow(a, b, &product) ? std::numeric_limits<int64_t>::max() : product;
}

}  // namespace trainscope
