// SPDX-License-Identifier: Apache-2.0
// The ranges that an untrusted report's checks scan side by side cover every rowid of a table
// once, for any span a file may claim and any number of threads. A fuzzer found a span (all 64
// bits, one thread) for which the old arithmetic overflowed and divided by zero.
#include <gtest/gtest.h>

#include <limits>

#include "reading/rowid_ranges.h"

namespace trainscope::ui {
namespace {

constexpr int64_t kLeast = std::numeric_limits<int64_t>::min();
constexpr int64_t kMost = std::numeric_limits<int64_t>::max();

struct Span {
    int64_t first, last;
};

class RowidRangesTest : public ::testing::TestWithParam<size_t> {};

TEST_P(RowidRangesTest, EveryRowidOfAnySpanIsInExactlyOneRange) {
    const Span spans[] = {{0, 0},
                          {1, 1},
                          {1, 1000000},
                          {1, 3000000},
                          {-1, 0},
                          {kLeast, kMost},
                          {kLeast, 0},
                          {0, kMost},
                          {kLeast, kLeast + 5},
                          {kMost - 5, kMost},
                          {kLeast + 1, kMost - 1},
                          {-(int64_t(1) << 40), int64_t(1) << 40}};
    for (const Span& span : spans) {
        SCOPED_TRACE(testing::Message() << "[" << span.first << ", " << span.last << "]");
        const std::vector<RowidRange> ranges = splitRowids(span.first, span.last, GetParam());
        ASSERT_FALSE(ranges.empty());
        EXPECT_LE(ranges.size(), 64u);
        EXPECT_EQ(ranges.front().first, span.first);
        EXPECT_EQ(ranges.back().last, span.last);
        for (size_t i = 0; i < ranges.size(); ++i) {
            EXPECT_LE(ranges[i].first, ranges[i].last) << "range " << i;
            if (i > 0) {
                EXPECT_EQ(ranges[i].first - 1, ranges[i - 1].last) << "range " << i;
            }
        }
    }
}

TEST_P(RowidRangesTest, LargeTablesAreCutIntoAMultipleOfTheThreads) {
    const size_t threads = GetParam();
    EXPECT_EQ(splitRowids(1, 3000000, threads).size() % threads, 0u);
    EXPECT_EQ(splitRowids(1, 1000000, threads).size() % threads, 0u);
    EXPECT_EQ(splitRowids(kLeast, kMost, threads).size(), 64u);
}

INSTANTIATE_TEST_SUITE_P(Threads, RowidRangesTest, ::testing::Values(1, 2, 3, 4, 8),
                         [](const auto& info) { return std::to_string(info.param) + "Threads"; });

TEST(RowidRanges, SmallTablesGetOneRangeAThread) {
    EXPECT_EQ(splitRowids(1, 3000000, 2).size(), 4u);  // not 3, the last of which ran alone
    EXPECT_EQ(splitRowids(1, 1000000, 2).size(), 2u);
    EXPECT_EQ(splitRowids(1, 10, 1).size(), 1u);
}

TEST(RowidRanges, AMaximumBelowTheMinimumStillCoversEveryRowid) {
    // MIN(rowid) and MAX(rowid) read off the edges of a damaged b-tree may disagree.
    const std::vector<RowidRange> ranges = splitRowids(10, 5, 2);
    ASSERT_EQ(ranges.size(), 1u);
    EXPECT_EQ(ranges[0].first, kLeast);
    EXPECT_EQ(ranges[0].last, kMost);
}

}  // namespace
}  // namespace trainscope::ui
