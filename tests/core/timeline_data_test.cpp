// SPDX-License-Identifier: Apache-2.0
// loadTimelineData() and the queries over it, on our own timeline of the built-in transformer
// and on a database in torch_npu's format (tests/fixtures/make_ascend_db.py): what the views
// draw must equal what SQL computes from the same file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "support/bounded_command.h"
#include "support/report_reader.h"
#include "support/small_transformer.h"
#include "trainscope/cluster.h"
#include "trainscope/error.h"
#include "trainscope/run.h"
#include "trainscope/timeline_data.h"

using namespace trainscope;
namespace fs = std::filesystem;
using test::ReportReader;

namespace {

int64_t integer(const ReportReader& db, const std::string& sql) {
    return std::stoll(db.scalar(sql));
}

// Every span of depth d > 0 starts inside a span of depth d - 1 on its lane; with `contained`,
// it also ends inside it (calls on a thread nest; torch_npu's device tasks may overlap).
void expectNested(const TimelineData& data, bool contained) {
    for (const TimelineLane& lane : data.lanes) {
        ASSERT_EQ(lane.depth_begin.back(), lane.spans.size());
        for (int depth = 1; depth < lane.depths(); ++depth) {
            for (size_t i = lane.depth_begin[size_t(depth)];
                 i < lane.depth_begin[size_t(depth) + 1]; ++i) {
                const TimelineSpan& span = lane.spans[i];
                const size_t parent = firstSpanEndingAfter(lane, depth - 1, span.start_ns + 1);
                ASSERT_LT(parent, lane.depth_begin[size_t(depth)]) << lane.label;
                EXPECT_LE(lane.spans[parent].start_ns, span.start_ns) << data.text(span.name);
                if (contained) {
                    EXPECT_GE(lane.spans[parent].end_ns, span.end_ns) << data.text(span.name);
                }
            }
        }
    }
}

size_t spanCount(const TimelineData& data, LaneKind kind) {
    size_t count = 0;
    for (const TimelineLane& lane : data.lanes)
        count += lane.kind == kind ? lane.spans.size() : 0;
    return count;
}

// What the ranks' summary reads of a file (its calls, steps and rank) gives the same figures
// as the whole file, and leaves out what the summary does not need.
void expectTheRanksPartsGiveTheWholeFilesFacts(const std::string& path) {
    const TimelineData whole = loadTimelineData(path);
    const TimelineData part = loadTimelineData(path, TimelineParts::CallsAndSteps);
    EXPECT_TRUE(part.links.empty() && part.by_connection.empty());
    if (!whole.steps.empty()) {
        EXPECT_TRUE(part.memory.empty() && part.blocks.empty());
        EXPECT_FALSE(whole.memory.empty());
    }
    const RankFacts a = rankFactsOf(whole), b = rankFactsOf(part);
    EXPECT_EQ(part.rank, whole.rank);
    EXPECT_EQ(b.steps.size(), a.steps.size());
    EXPECT_EQ(b.figures.step_ms, a.figures.step_ms);
    EXPECT_EQ(b.figures.computation_ms, a.figures.computation_ms);
    EXPECT_EQ(b.figures.communication_ms, a.figures.communication_ms);
    EXPECT_EQ(b.figures.overlap_ms, a.figures.overlap_ms);
    EXPECT_EQ(b.figures.idle_ms, a.figures.idle_ms);
    ASSERT_EQ(b.collectives.size(), a.collectives.size());
    for (size_t i = 0; i < a.collectives.size(); ++i) {
        EXPECT_EQ(b.collectives[i].kind, a.collectives[i].kind);
        EXPECT_EQ(b.collectives[i].duration_ns, a.collectives[i].duration_ns);
    }
    EXPECT_GT(a.figures.computation_ms, 0.0);
}

class OwnTimeline : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new std::string(test::makeTempDir());
        const RunPlan plan = test::smallTransformerPlan(*dir_ + "/run");
        path_ = new std::string(runAndWrite(plan).paths.back());  // memory, time, timeline
        data_ = new TimelineData(loadTimelineData(*path_));
    }
    static void TearDownTestSuite() {
        fs::remove_all(*dir_);
        delete data_;
        delete path_;
        delete dir_;
    }
    static std::string* dir_;
    static std::string* path_;
    static TimelineData* data_;
};
std::string* OwnTimeline::dir_ = nullptr;
std::string* OwnTimeline::path_ = nullptr;
TimelineData* OwnTimeline::data_ = nullptr;

TEST_F(OwnTimeline, HoldsEveryCallAndMemoryRecordOfTheFile) {
    const ReportReader db(*path_);
    EXPECT_EQ(int64_t(spanCount(*data_, LaneKind::Thread)),
              integer(db, "SELECT COUNT(*) FROM PYTORCH_API"));
    EXPECT_EQ(int64_t(data_->lanes.size()),
              integer(db, "SELECT COUNT(DISTINCT globalTid) FROM PYTORCH_API"));
    EXPECT_EQ(int64_t(data_->memory.size()), integer(db, "SELECT COUNT(*) FROM MEMORY_RECORD"));
    EXPECT_EQ(data_->memory[data_->peak_sample].total_allocated,
              integer(db, "SELECT MAX(totalAllocated) FROM MEMORY_RECORD"));
    EXPECT_EQ(int64_t(data_->blocks.size()), integer(db, "SELECT COUNT(*) FROM OP_MEMORY"));
    ASSERT_EQ(data_->steps.size(), 1u);
    // Recorded in the memory pass: its step is the memory step, not a timed iteration.
    EXPECT_EQ(
        integer(db, "SELECT COUNT(*) FROM META_DATA WHERE name = 'pass' AND value = 'memory'"), 1);
    EXPECT_TRUE(data_->steps.front().memory_step);
    EXPECT_EQ(data_->first_ns,
              integer(db,
                      "SELECT MIN(t) FROM (SELECT MIN(CAST(startNs AS INTEGER)) AS t FROM "
                      "PYTORCH_API UNION ALL SELECT MIN(timestamp) FROM MEMORY_RECORD)"));
}

TEST_F(OwnTimeline, NestsCallsByDepthAndColoursThePhases) {
    expectNested(*data_, true);
    std::map<SpanCategory, int> categories;
    int deepest = 0;
    for (const TimelineLane& lane : data_->lanes) {
        deepest = std::max(deepest, lane.depths());
        for (const TimelineSpan& span : lane.spans)
            ++categories[span.category];
    }
    EXPECT_GT(deepest, 1);
    EXPECT_GT(categories[SpanCategory::Forward], 0);
    EXPECT_GT(categories[SpanCategory::Backward], 0);
    EXPECT_GT(categories[SpanCategory::Optimizer], 0);
}

TEST_F(OwnTimeline, ForwardCallsFindTheirBackwardNodes) {
    int linked = 0;
    for (size_t l = 0; l < data_->lanes.size(); ++l) {
        const TimelineLane& lane = data_->lanes[l];
        for (size_t i = 0; i < lane.depth_begin[1]; ++i) {
            if (lane.spans[i].category != SpanCategory::Forward)
                continue;
            for (const SpanRef partner : linkedSpans(*data_, {int32_t(l), int32_t(i)})) {
                EXPECT_EQ(data_->span(partner).category, SpanCategory::Backward);
                EXPECT_GT(data_->span(partner).start_ns, lane.spans[i].end_ns);
                ++linked;
            }
        }
    }
    EXPECT_GT(linked, 10);
}

TEST_F(OwnTimeline, BlocksAliveAtThePeakAreWhatSqlFindsWithModulesAndFrames) {
    const int64_t peak = data_->memory[data_->peak_sample].timestamp_ns;
    const std::vector<LiveBlockGroup> groups = liveBlocksAt(*data_, peak);
    int64_t bytes = 0, blocks = 0, with_module = 0, with_frames = 0;
    for (const LiveBlockGroup& group : groups) {
        bytes += group.bytes;
        blocks += int64_t(group.blocks.size());
        for (const LiveBlock& live : group.blocks) {
            with_module += group.module != kNoString;
            with_frames += live.call.valid() && data_->span(live.call).callchain >= 0;
        }
    }
    const ReportReader db(*path_);
    const std::string alive = " FROM OP_MEMORY WHERE allocationTime <= " + std::to_string(peak) +
                              " AND (releaseTime IS NULL OR releaseTime > " + std::to_string(peak) +
                              ")";
    EXPECT_EQ(bytes, integer(db, "SELECT SUM(size)" + alive));
    EXPECT_EQ(blocks, integer(db, "SELECT COUNT(*)" + alive));
    for (size_t i = 1; i < groups.size(); ++i)
        EXPECT_GE(groups[i - 1].bytes, groups[i].bytes);
    EXPECT_GT(with_module, blocks / 2) << "blocks of module code name their module";
    EXPECT_GT(with_frames, blocks / 2) << "and their source lines";
}

// Run time entry k is the k-th top-level forward call; every call nested in it, and each of
// its backward nodes, leads back to it.
TEST_F(OwnTimeline, EveryCallLeadsToItsTopLevelForwardCall) {
    int64_t forward_calls = 0;
    for (; topLevelForwardCall(*data_, forward_calls).valid(); ++forward_calls) {
        const SpanRef top = topLevelForwardCall(*data_, forward_calls);
        ASSERT_EQ(forwardCallOrdinal(*data_, top), forward_calls);
        for (const SpanRef partner : linkedSpans(*data_, top))
            EXPECT_EQ(forwardCallOrdinal(*data_, partner), forward_calls);
    }
    EXPECT_GT(forward_calls, 10);
    const TimelineLane& lane = data_->lanes.front();
    int nested = 0;
    for (size_t i = lane.depth_begin[1]; i < lane.spans.size(); ++i) {
        const SpanRef ref{0, int32_t(i)};
        const SpanRef top = spanAt(*data_, 0, 0, lane.spans[i].start_ns);
        if (data_->span(top).category != SpanCategory::Forward)
            continue;
        EXPECT_EQ(topLevelForwardCall(*data_, forwardCallOrdinal(*data_, ref)), top);
        ++nested;
    }
    EXPECT_GT(nested, 0);
    EXPECT_EQ(forwardCallOrdinal(*data_, {}), -1);
}

TEST_F(OwnTimeline, ForwardCallsInARangeAreThoseItOverlaps) {
    int64_t count = 0;
    while (topLevelForwardCall(*data_, count).valid())
        ++count;
    EXPECT_EQ(forwardCallsIn(*data_, data_->first_ns, data_->last_ns),
              std::make_pair(int64_t(0), count - 1));
    const TimelineSpan& third = data_->span(topLevelForwardCall(*data_, 3));
    const int64_t middle = (third.start_ns + third.end_ns) / 2;
    EXPECT_EQ(forwardCallsIn(*data_, middle, middle), std::make_pair(int64_t(3), int64_t(3)));
    EXPECT_EQ(forwardCallsIn(*data_, data_->last_ns + 1, data_->last_ns + 2),
              std::make_pair(int64_t(-1), int64_t(-1)));
}

TEST_F(OwnTimeline, FindsCallsByNameIgnoringCase) {
    const std::vector<SpanRef> found = findSpans(*data_, "ATEN::LINEAR");
    const ReportReader db(*path_);
    EXPECT_EQ(int64_t(found.size()),
              integer(db,
                      "SELECT COUNT(*) FROM PYTORCH_API a JOIN STRING_IDS s ON s.id = a.name "
                      "WHERE s.value LIKE '%aten::linear%'"));
    for (size_t i = 1; i < found.size(); ++i)
        EXPECT_LE(data_->span(found[i - 1]).start_ns, data_->span(found[i]).start_ns);
}

TEST_F(OwnTimeline, TheRanksSummaryReadsItsCallsAndStepsAlone) {
    expectTheRanksPartsGiveTheWholeFilesFacts(*path_);
}

TEST(AscendTimeline, ReadsDeviceRowsLinksAndTextTimestamps) {
    const std::string dir = test::makeTempDir();
    const std::string path = dir + "/ascend_pytorch_profiler_1.db";
    ASSERT_EQ(
        std::system(trainscope::test::bounded(std::string(TRAINSCOPE_PYTHON) + " " +
                                              ASCEND_DB_GENERATOR + " " + path + " --calls 300")
                        .c_str()),
        0);
    const TimelineData data = loadTimelineData(path);
    expectTheRanksPartsGiveTheWholeFilesFacts(path);
    const ReportReader db(path);
    EXPECT_EQ(int64_t(spanCount(data, LaneKind::Thread)),
              integer(db, "SELECT COUNT(*) FROM PYTORCH_API"));
    EXPECT_EQ(int64_t(spanCount(data, LaneKind::Cann)),
              integer(db, "SELECT COUNT(*) FROM CANN_API"));
    EXPECT_EQ(int64_t(spanCount(data, LaneKind::Device)), integer(db, "SELECT COUNT(*) FROM TASK"));
    EXPECT_EQ(data.first_ns > int64_t(1e18), true) << "ns since the epoch, parsed from TEXT";
    expectNested(data, false);
    // The Python call stack (the `trace` calls) has a lane of its own, last: the main thread's
    // operations and the device streams come first, as a user looks for them.
    ASSERT_GT(data.lanes.size(), 2u);
    EXPECT_FALSE(data.lanes.front().python_stack);
    EXPECT_EQ(data.lanes.front().label.rfind("Thread ", 0), 0u) << data.lanes.front().label;
    EXPECT_EQ(data.lanes[1].kind, LaneKind::Device) << data.lanes[1].label;
    const TimelineLane& stack = data.lanes.back();
    EXPECT_TRUE(stack.python_stack);
    EXPECT_EQ(stack.label.rfind("Python stack ", 0), 0u) << stack.label;
    EXPECT_EQ(int64_t(stack.spans.size()),
              integer(db, "SELECT COUNT(*) FROM PYTORCH_API WHERE type = 50003"));
    EXPECT_EQ(stack.depths(), 5);
    for (const TimelineSpan& span : stack.spans)
        EXPECT_EQ(span.category, SpanCategory::Other);  // not an operation
    ASSERT_FALSE(data.steps.empty());
    EXPECT_EQ(data.steps.front().id, integer(db, "SELECT MIN(id) FROM STEP_TIME"));
    for (const TimelineStep& step : data.steps)
        EXPECT_FALSE(step.memory_step) << "torch_npu's steps are the training's own";
    EXPECT_EQ(data.memory_component, "PTA");
    EXPECT_EQ(data.memory[data.peak_sample].total_allocated,
              integer(db,
                      "SELECT MAX(totalAllocated) FROM MEMORY_RECORD m JOIN STRING_IDS s ON "
                      "s.id = m.component WHERE s.value = 'PTA'"));
    EXPECT_EQ(int64_t(std::count_if(data.blocks.begin(), data.blocks.end(),
                                    [](const MemoryBlock& b) { return !b.freed(); })),
              integer(db, "SELECT COUNT(*) FROM OP_MEMORY WHERE releaseTime IS NULL"));
    // A framework call reaches its device work through CONNECTION_IDS.
    int device_links = 0;
    for (size_t l = 0; l < data.lanes.size(); ++l) {
        if (data.lanes[l].kind != LaneKind::Thread)
            continue;
        for (size_t i = 0; i < data.lanes[l].spans.size(); ++i)
            for (const SpanRef partner : linkedSpans(data, {int32_t(l), int32_t(i)}))
                device_links += data.lanes[size_t(partner.lane)].kind == LaneKind::Device;
    }
    EXPECT_EQ(device_links, integer(db,
                                    "SELECT COUNT(*) FROM CONNECTION_IDS c JOIN TASK t ON "
                                    "t.connectionId = c.connectionId"));
    // Absolute callchain lines become file, line and function.
    bool absolute = false;
    for (const auto& chain : data.callchains)
        for (const TimelineFrame& frame : chain)
            absolute |=
                frame.file_path.rfind('/', 0) == 0 && frame.line > 0 && !frame.function.empty();
    EXPECT_TRUE(absolute);
    fs::remove_all(dir);
}

TEST(AscendTimeline, RefusesAFileThatIsNoTimeline) {
    const std::string dir = test::makeTempDir();
    const std::string path = dir + "/empty.db";
    ASSERT_EQ(std::system(
                  trainscope::test::bounded(
                      ("sqlite3 " + path + " 'CREATE TABLE t(x);' 2>/dev/null || " +
                       std::string(TRAINSCOPE_PYTHON) + " -c \"import sqlite3; sqlite3.connect('" +
                       path + "').execute('CREATE TABLE t(x)')\""))
                      .c_str()),
              0);
    EXPECT_THROW(loadTimelineData(path), Error);
    fs::remove_all(dir);
}

TEST(AscendTimeline, DamagedValuesLoadWithoutBreakingTheViewsInvariants) {
    const std::string dir = test::makeTempDir();
    const std::string path = dir + "/damaged.db";
    const std::string script =
        "import sqlite3, sys\n"
        "d = sqlite3.connect(sys.argv[1])\n"
        "d.execute('CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, "
        "name INTEGER, type INTEGER)')\n"
        "rows = [('abc', 'def', 1, 5, 50001), ('100', '50', 1, None, None), "
        "('10', '900', None, 99, 'x'), ('9223372036854775807', '-1', 1 << 40, 1, 50002)]\n"
        "rows += [(str(i), str(1000 - i), 7, 1, 50001) for i in range(300)]\n"
        "d.executemany('INSERT INTO PYTORCH_API VALUES (?, ?, ?, ?, ?)', rows)\n"
        "d.execute('CREATE TABLE MEMORY_RECORD (component, timestamp, totalAllocated, "
        "totalReserved, totalActive)')\n"
        "d.executemany('INSERT INTO MEMORY_RECORD VALUES (?, ?, ?, ?, ?)', [(None, 5, None, "
        "'x', 3), (1, None, 9, 9, 9), (1, 3, -5, 0, 0)])\n"
        "d.execute('CREATE TABLE OP_MEMORY (name, size, allocationTime, releaseTime)')\n"
        "d.execute('INSERT INTO OP_MEMORY VALUES (NULL, -3, 20, 10)')\n"
        "d.execute('CREATE TABLE CONNECTION_IDS (id, connectionId)')\n"
        "d.execute('INSERT INTO CONNECTION_IDS VALUES (1, 1)')\n"
        "d.commit()\n";
    std::ofstream(dir + "/make.py") << script;
    ASSERT_EQ(std::system(trainscope::test::bounded(
                              (std::string(TRAINSCOPE_PYTHON) + " " + dir + "/make.py " + path))
                              .c_str()),
              0);
    const TimelineData data = loadTimelineData(path);
    EXPECT_EQ(spanCount(data, LaneKind::Thread), 304u);
    for (const TimelineLane& lane : data.lanes) {
        ASSERT_EQ(lane.depth_begin.back(), lane.spans.size());
        for (const TimelineSpan& span : lane.spans)
            EXPECT_LE(span.start_ns, span.end_ns);
    }
    // 300 calls each inside the one before: deep, but every row is drawn.
    int deepest = 0;
    for (const TimelineLane& lane : data.lanes)
        deepest = std::max(deepest, lane.depths());
    EXPECT_EQ(deepest, 300);
    EXPECT_EQ(data.memory.size(), 2u);
    const std::vector<LiveBlockGroup> live = liveBlocksAt(data, 15);
    EXPECT_EQ(live.size(), 0u) << "a block released before it was allocated is never alive";
    fs::remove_all(dir);
}

TEST(AscendTimeline, AFileWithoutStepsIsBrokenDownOverItsCallsAndMemoryAlike) {
    // Calls from 100 to 300 ns, memory samples from 50 to 900 ns, no STEP_TIME: the recording's
    // extent (850 ns), memory included, is what both readings break down.
    const std::string dir = test::makeTempDir();
    const std::string path = dir + "/no_steps.db";
    const std::string script =
        "import sqlite3, sys\n"
        "d = sqlite3.connect(sys.argv[1])\n"
        "d.execute('CREATE TABLE META_DATA (name TEXT, value TEXT)')\n"
        "d.execute('CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, "
        "name INTEGER, type INTEGER)')\n"
        "d.executemany('INSERT INTO PYTORCH_API VALUES (?, ?, 1, 1, 50001)', [('100', '200'), "
        "('250', '300')])\n"
        "d.execute('CREATE TABLE MEMORY_RECORD (component, timestamp, totalAllocated, "
        "totalReserved, totalActive)')\n"
        "d.executemany('INSERT INTO MEMORY_RECORD VALUES (1, ?, 8, 8, 8)', [(50,), (900,)])\n"
        "d.commit()\n";
    std::ofstream(dir + "/make.py") << script;
    ASSERT_EQ(std::system(trainscope::test::bounded(
                              (std::string(TRAINSCOPE_PYTHON) + " " + dir + "/make.py " + path))
                              .c_str()),
              0);
    expectTheRanksPartsGiveTheWholeFilesFacts(path);
    EXPECT_DOUBLE_EQ(
        rankFactsOf(loadTimelineData(path, TimelineParts::CallsAndSteps)).figures.step_ms, 850e-6);
    fs::remove_all(dir);
}

}  // namespace

namespace {

TEST(AscendTimeline, AMetaDataTableWithoutNameAndValueIsReadAsNoMetadata) {
    // The loader asks META_DATA whether the file holds times and names its blocks by category:
    // a file whose META_DATA has other columns loads as one without those marks, as its steps
    // are read (timelineSteps), rather than failing on the question.
    const std::string dir = test::makeTempDir();
    const std::string path = dir + "/other_meta.db";
    const std::string script =
        "import sqlite3, sys\n"
        "d = sqlite3.connect(sys.argv[1])\n"
        "d.execute('CREATE TABLE META_DATA (key TEXT, text TEXT)')\n"
        "d.execute('CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, "
        "name INTEGER, type INTEGER)')\n"
        "d.executemany('INSERT INTO PYTORCH_API VALUES (?, ?, 1, 1, 50001)', [('100', '200')])\n"
        "d.commit()\n";
    std::ofstream(dir + "/make.py") << script;
    ASSERT_EQ(std::system(trainscope::test::bounded(
                              (std::string(TRAINSCOPE_PYTHON) + " " + dir + "/make.py " + path))
                              .c_str()),
              0);
    const TimelineData data = loadTimelineData(path);
    EXPECT_FALSE(data.untimed);
    EXPECT_FALSE(data.blocks_by_category);
    EXPECT_EQ(data.first_ns, 100);
    fs::remove_all(dir);
}

}  // namespace
