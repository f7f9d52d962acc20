// SPDX-License-Identifier: Apache-2.0
// A large step's timeline, written to its file chunk by chunk as the memory step ends while the
// record it is built from is released as it is read (SessionOptions::timeline_path), holds the
// rows that the same step's timeline built whole holds: none lost or written twice where one
// chunk ends and the next begins.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/report_reader.h"
#include "trainscope/report_writer.h"
#include "trainscope/session.h"
#include "trainscope/session_files.h"

using namespace trainscope;

namespace {

// 12,000 operations and their backward nodes: more calls (2^15 a chunk) and memory samples
// (2^16 a chunk) than one chunk holds.
constexpr int kPairs = 6000;

void observeOneStep(Session& session) {
    const torch::Tensor weight = torch::ones({4}, torch::requires_grad());
    session.beginStep();
    torch::Tensor x = torch::ones({4});
    for (int i = 0; i < kPairs; ++i) {
        x = x * weight;
        x = x + 1.0;
    }
    x.sum().backward();
    session.endStep();
}

struct TimelineRows {
    std::vector<test::Row> calls, samples, blocks, connections, phases;
};

TimelineRows rowsOf(const std::string& path) {
    const test::ReportReader file(path);
    return {file.rows("SELECT s.value, a.sequenceNumber IS NULL, a.fwdThreadId = 0, a.type "
                      "FROM PYTORCH_API a JOIN STRING_IDS s ON s.id = a.name "
                      "ORDER BY a.connectionId"),
            file.rows("SELECT totalAllocated, totalReserved FROM MEMORY_RECORD ORDER BY rowid"),
            file.rows("SELECT s.value, o.size, o.releaseTime IS NULL, o.allocationTotalAllocated, "
                      "o.releaseTotalAllocated FROM OP_MEMORY o JOIN STRING_IDS s "
                      "ON s.id = o.name ORDER BY o.rowid"),
            file.rows("SELECT id, connectionId FROM CONNECTION_IDS ORDER BY rowid"),
            file.rows("SELECT name FROM trainscope_phases ORDER BY start_ns")};
}

}  // namespace

TEST(SessionTimelineFile, ALargeStepWrittenChunkByChunkHoldsTheRowsOfItsTimelineBuiltWhole) {
    const std::string dir = test::makeTempDir();
    {
        Session whole(SessionOptions{});
        observeOneStep(whole);
        writeTimelineReport(whole.assemble().timeline, dir + "/whole.timeline.sqlite",
                            Overwrite::Refuse);
    }
    {
        SessionOptions options;
        options.timeline_path = dir + "/chunked.timeline.sqlite";
        Session chunked(options);
        observeOneStep(chunked);
        stageSessionFiles(chunked.assemble(), dir + "/chunked", Overwrite::Refuse)
            ->commit(Overwrite::Refuse);
    }
    const TimelineRows whole = rowsOf(dir + "/whole.timeline.sqlite");
    const TimelineRows chunked = rowsOf(dir + "/chunked.timeline.sqlite");
    std::filesystem::remove_all(dir);
    ASSERT_GT(whole.calls.size(), size_t{1} << 15);
    ASSERT_GT(whole.samples.size(), size_t{1} << 16);
    ASSERT_FALSE(whole.connections.empty());
    EXPECT_EQ(chunked.calls, whole.calls);
    EXPECT_EQ(chunked.samples, whole.samples);
    EXPECT_EQ(chunked.blocks, whole.blocks);
    EXPECT_EQ(chunked.connections, whole.connections);
    EXPECT_EQ(chunked.phases, whole.phases);
}
