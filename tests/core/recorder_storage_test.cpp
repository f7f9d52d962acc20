// SPDX-License-Identifier: Apache-2.0
// How the recorder keeps a large step (issue 55): calls and allocations in chunks that are
// never moved, each distinct stack trace and text once.
#include <gtest/gtest.h>

#include "records/stack_traces.h"
#include "trainscope/chunked_log.h"
#include "trainscope/reports.h"

using namespace trainscope;

TEST(RecorderStorage, AChunkedLogKeepsEveryItemInOrderAcrossItsChunks) {
    ChunkedLog<int64_t> log;
    const size_t count = 3 * ChunkedLog<int64_t>::kChunk + 5;
    const int64_t* first = nullptr;
    for (size_t i = 0; i < count; ++i) {
        int64_t& added = log.push_back(static_cast<int64_t>(i) * 7);
        if (i == 0) {
            first = &added;
        }
    }
    EXPECT_EQ(first, &log[0]);  // never moved by what came after it
    ASSERT_EQ(log.size(), count);
    EXPECT_EQ(log.front(), 0);
    EXPECT_EQ(log.back(), static_cast<int64_t>(count - 1) * 7);
    size_t i = 0;
    for (int64_t value : log)
        ASSERT_EQ(value, static_cast<int64_t>(i++) * 7);
    EXPECT_EQ(i, count);
    EXPECT_EQ(log.at(ChunkedLog<int64_t>::kChunk),
              static_cast<int64_t>(ChunkedLog<int64_t>::kChunk) * 7);
    EXPECT_THROW(log.at(count), std::out_of_range);
    log.clear();
    EXPECT_TRUE(log.empty());
    EXPECT_EQ(log.begin(), log.end());
}

TEST(RecorderStorage, EachDistinctStackTraceIsKeptOnce) {
    StackTraces traces;
    const StackTrace loop_body{{"train.py", 14}, {"torch/nn/modules/module.py", 1841, "/site"}};
    const StackTrace other_line{{"train.py", 15}, {"torch/nn/modules/module.py", 1841, "/site"}};
    const StackTrace other_root{{"train.py", 14}, {"torch/nn/modules/module.py", 1841, "/venv"}};
    const int id = traces.add(loop_body);
    EXPECT_EQ(traces.add(loop_body), id);
    EXPECT_NE(traces.add(other_line), id);
    EXPECT_NE(traces.add(other_root), traces.add(other_line));
    EXPECT_EQ(traces.size(), 3u);
    EXPECT_EQ(traces[id], loop_body);
    EXPECT_EQ(traces.add({}), -1);
    EXPECT_TRUE(traces[-1].empty());
    // Moved, the table still answers (its numbers point into what moved).
    StackTraces moved = std::move(traces);
    EXPECT_EQ(moved[id], loop_body);
    EXPECT_EQ(moved.add(loop_body), id);
}

TEST(RecorderStorage, ATimelinesTextsAreNumberedOnceAndSurviveACopy) {
    TimelineTexts texts;
    EXPECT_EQ(texts[0], "");  // 0: the empty text
    const TextId add = texts.add("aten::add");
    EXPECT_EQ(texts.add("aten::add"), add);
    const TextId shapes = texts.add("4;\r\n4");
    EXPECT_NE(shapes, add);
    const TimelineTexts copy = texts;
    texts.add("aten::mul");  // the copy is its own
    EXPECT_EQ(copy.size(), 3u);
    EXPECT_EQ(copy[add], "aten::add");
    EXPECT_EQ(copy[shapes], "4;\r\n4");
}
