// SPDX-License-Identifier: Apache-2.0
// A step's table of distinct stack traces (records/stack_traces.h): equal traces share a
// number, and traces that its hash cannot tell apart (paths that differ only before their last
// bytes) still get numbers of their own.
#include <gtest/gtest.h>

#include "records/stack_traces.h"

using namespace trainscope;

TEST(StackTraces, EqualTracesShareANumberAndOthersDoNot) {
    StackTraces traces;
    const StackTrace loop{{"train/model.py", 12}, {"train/main.py", 40}};
    EXPECT_EQ(traces.add(loop), 0);
    EXPECT_EQ(traces.add(StackTrace{{"train/model.py", 12}, {"train/main.py", 40}}), 0);
    // The same length and the same last bytes of each path: only the comparison tells these
    // apart.
    const StackTrace other_folder{{"valid/model.py", 12}, {"train/main.py", 40}};
    EXPECT_EQ(traces.add(other_folder), 1);
    EXPECT_EQ(traces.add(StackTrace{{"train/model.py", 12}, {"train/main.py", 41}}), 2);
    EXPECT_EQ(traces.add(StackTrace{{"model.py", 12, "/usr/lib/a"}, {"train/main.py", 40}}), 3);
    EXPECT_EQ(traces.add(StackTrace{{"model.py", 12, "/usr/lib/b"}, {"train/main.py", 40}}), 4);
    EXPECT_EQ(traces.add(StackTrace{}), -1);
    ASSERT_EQ(traces.size(), 5u);
    EXPECT_EQ(traces[1], other_folder);
    EXPECT_EQ(traces[0], loop);
}
