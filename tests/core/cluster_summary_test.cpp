// SPDX-License-Identifier: Apache-2.0
// The summary of a job's ranks on timelines with known calls: every figure follows from the
// spans below, so the expected breakdown, slowest rank and waits are certain.
#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <tuple>

#include "trainscope/cluster.h"
#include "trainscope/error.h"
#include "trainscope/ranks_text.h"

namespace trainscope {
namespace {

constexpr int64_t kMs = 1'000'000;

// A rank's timeline: its clock starts at `origin` (each process has its own), one step of
// 100 ms (the memory step) and `more_steps` further steps, a main thread with top-level
// operations, and a backend thread with collectives.
struct RankTimeline {
    TimelineData data;

    RankTimeline(int rank, int64_t origin, std::vector<std::pair<int64_t, int64_t>> computing,
                 std::vector<std::pair<int64_t, int64_t>> collectives,
                 std::vector<int64_t> step_ms = {100},
                 std::vector<std::string> collective_shapes = {}) {
        data.path = "rank" + std::to_string(rank) + ".timeline.sqlite";
        data.rank = rank;
        data.strings = {"aten::linear", "gloo:all_reduce"};
        int64_t start = origin;
        for (size_t i = 0; i < step_ms.size(); ++i) {
            data.steps.push_back({int64_t(i) + 1, start, start + step_ms[i] * kMs, i == 0});
            start += step_ms[i] * kMs;
        }
        TimelineLane main;
        for (const auto& [from, to] : computing)
            main.spans.push_back(span(origin, from, to, 0, SpanCategory::Forward));
        main.depth_begin = {0, main.spans.size()};
        TimelineLane backend;
        backend.tid = 2;
        for (size_t i = 0; i < collectives.size(); ++i) {
            backend.spans.push_back(span(origin, collectives[i].first, collectives[i].second, 1,
                                         SpanCategory::Communication));
            if (i < collective_shapes.size()) {  // its input's shape, as the file holds it
                backend.spans.back().shapes = int32_t(data.strings.size());
                data.strings.push_back(collective_shapes[i]);
            }
        }
        backend.depth_begin = {0, backend.spans.size()};
        data.lanes = {main, backend};
    }

    static TimelineSpan span(int64_t origin, int64_t from_ms, int64_t to_ms, int32_t name,
                             SpanCategory category) {
        TimelineSpan s;
        s.start_ns = origin + from_ms * kMs;
        s.end_ns = origin + to_ms * kMs;
        s.name = name;
        s.category = category;
        return s;
    }
};

// The summary of the ranks' timelines, as the hosts make it: each one's facts, then their sum.
ClusterSummary summaryOf(std::initializer_list<const TimelineData*> timelines) {
    std::vector<RankFacts> ranks;
    for (const TimelineData* data : timelines)
        ranks.push_back(rankFactsOf(*data));
    return summarizeRanks(std::move(ranks));
}

TEST(ClusterSummary, TheBreakdownOfEachRankFollowsFromItsCalls) {
    // Rank 0 computes 0-40 ms and 50-60 ms, communicates 30-90 ms: 50 ms computing, 60 ms
    // communicating, 20 ms of both (30-40, 50-60), idle 40-50 only in communication... so idle
    // is 100 - (50 + 60 - 20) = 10 ms (90-100).
    RankTimeline rank0(0, 5'000 * kMs, {{0, 40}, {50, 60}}, {{30, 90}});
    // Rank 1 computes 0-80 ms, communicates 80-90 ms: no overlap, idle 10 ms.
    RankTimeline rank1(1, 9'000'000 * kMs, {{0, 80}}, {{80, 90}});
    const ClusterSummary summary = summaryOf({&rank1.data, &rank0.data});

    ASSERT_EQ(summary.ranks.size(), 2u);
    const RankBreakdown& r0 = summary.ranks[0];  // in rank order, whatever the order given
    EXPECT_EQ(r0.rank, 0);
    EXPECT_DOUBLE_EQ(r0.step_ms, 100.0);
    EXPECT_DOUBLE_EQ(r0.computation_ms, 50.0);
    EXPECT_DOUBLE_EQ(r0.communication_ms, 60.0);
    EXPECT_DOUBLE_EQ(r0.overlap_ms, 20.0);
    EXPECT_DOUBLE_EQ(r0.idle_ms, 10.0);
    EXPECT_EQ(r0.collectives, 1u);
    const RankBreakdown& r1 = summary.ranks[1];
    EXPECT_DOUBLE_EQ(r1.computation_ms, 80.0);
    EXPECT_DOUBLE_EQ(r1.communication_ms, 10.0);
    EXPECT_DOUBLE_EQ(r1.overlap_ms, 0.0);
    EXPECT_DOUBLE_EQ(r1.idle_ms, 10.0);
}

// A device stream with the given tasks (name, from, to in ms) added to a rank's timeline.
void addDeviceStream(RankTimeline& rank, int64_t origin,
                     std::vector<std::tuple<std::string, int64_t, int64_t>> tasks) {
    TimelineLane stream;
    stream.kind = LaneKind::Device;
    stream.tid = 7;
    for (const auto& [name, from, to] : tasks) {
        stream.spans.push_back(RankTimeline::span(
            origin, from, to, int32_t(rank.data.strings.size()), SpanCategory::Device));
        rank.data.strings.push_back(name);
    }
    stream.depth_begin = {0, stream.spans.size()};
    rank.data.lanes.push_back(stream);
}

TEST(ClusterSummary, AGpuTracesRankIsBrokenDownAsItsDeviceRanTheStep) {
    // No collectives among the calls (a GPU trace's): the device's kernels 0-30 ms and an NCCL
    // kernel 20-60 ms: computation 30 ms, communication 40 ms of which 10 beside computation,
    // idle 100 - 60 = 40 ms, whatever the CPU's calls did.
    RankTimeline rank0(0, 0, {{0, 90}}, {});
    addDeviceStream(rank0, 0, {{"volta_sgemm", 0, 30}, {"ncclKernel_AllReduce_RING_LL", 20, 60}});
    const RankFacts facts = rankFactsOf(rank0.data);
    EXPECT_TRUE(facts.figures.on_device);
    EXPECT_DOUBLE_EQ(facts.figures.computation_ms, 30.0);
    EXPECT_DOUBLE_EQ(facts.figures.communication_ms, 40.0);
    EXPECT_DOUBLE_EQ(facts.figures.overlap_ms, 10.0);
    EXPECT_DOUBLE_EQ(facts.figures.idle_ms, 40.0);
    ASSERT_EQ(facts.collectives.size(), 1u);
    EXPECT_EQ(facts.collectives[0].name, "ncclKernel_AllReduce_RING_LL");
}

TEST(ClusterSummary, CollectivesAmongTheCallsStayTheBreakdownsWhateverTheDeviceRan) {
    // torch_npu's files: HCCL's calls (ENUM_API_TYPE 5500) and the device's tasks (TASK), none
    // of them NCCL's. The breakdown is the calls' (communication 30-90 ms), not the device's.
    RankTimeline rank0(0, 0, {{0, 40}, {50, 60}}, {{30, 90}});
    addDeviceStream(rank0, 0, {{"hcom_allReduce_", 30, 90}, {"MatMul", 0, 40}});
    const RankFacts facts = rankFactsOf(rank0.data);
    EXPECT_FALSE(facts.figures.on_device);
    EXPECT_DOUBLE_EQ(facts.figures.communication_ms, 60.0);
    EXPECT_DOUBLE_EQ(facts.figures.overlap_ms, 20.0);
    EXPECT_EQ(facts.collectives.size(), 1u);
    // A GPU's NCCL kernel beside HCCL's calls changes nothing: the calls hold the collectives.
    addDeviceStream(rank0, 0, {{"ncclKernel_AllReduce_RING_LL", 30, 90}});
    EXPECT_FALSE(rankFactsOf(rank0.data).figures.on_device);
}

TEST(ClusterSummary, TheRankTheOthersWaitForIsTheSlowestAndNamedInTheCollectives) {
    // Three ranks, two collectives each. Rank 2 computes 30 ms longer before the first: the
    // others' first collective lasts 30 ms longer than its own. The second is even.
    RankTimeline rank0(0, 0, {{0, 20}}, {{20, 60}, {70, 75}});
    RankTimeline rank1(1, 77 * kMs, {{0, 20}}, {{20, 60}, {70, 75}});
    RankTimeline rank2(2, 3 * kMs, {{0, 50}}, {{50, 60}, {70, 75}});
    const ClusterSummary summary = summaryOf({&rank0.data, &rank1.data, &rank2.data});

    EXPECT_EQ(summary.slowest_rank, 2);
    // Outside communication: ranks 0 and 1 have 100 - 45 = 55 ms, rank 2 100 - 15 = 85 ms.
    EXPECT_DOUBLE_EQ(summary.slowest_by_ms, 30.0);
    ASSERT_EQ(summary.waits.size(), 1u);  // the second collective has no wait
    EXPECT_EQ(summary.waits[0].ordinal, 0u);
    EXPECT_EQ(summary.waits[0].name, "gloo:all_reduce");
    EXPECT_EQ(summary.waits[0].last_rank, 2);
    EXPECT_DOUBLE_EQ(summary.waits[0].longest_wait_ms, 30.0);
    EXPECT_TRUE(summary.notes.empty());
}

TEST(ClusterSummary, ARankStandsOutOnlyBeyondHowMuchItsStepsVary) {
    // Rank 1 computes 5 ms longer than rank 0 before their collective. With steady steps that
    // stands out; when each rank's steps vary by 20 ms it does not, and the summary says so.
    for (const bool steady : {true, false}) {
        SCOPED_TRACE(steady);
        const std::vector<int64_t> steps =
            steady ? std::vector<int64_t>{100, 100, 100} : std::vector<int64_t>{100, 120, 110};
        RankTimeline rank0(0, 0, {{0, 20}}, {{20, 60}}, steps);
        RankTimeline rank1(1, 0, {{0, 25}}, {{25, 60}}, steps);
        const ClusterSummary summary = summaryOf({&rank0.data, &rank1.data});
        EXPECT_EQ(summary.slowest_rank, 1);
        EXPECT_DOUBLE_EQ(summary.slowest_by_ms, 5.0);
        EXPECT_DOUBLE_EQ(summary.step_spread_ms, steady ? 0.0 : 20.0);
        EXPECT_EQ(summary.slowestStandsOut(), steady);
        std::ostringstream text;
        printRanks(text, summary);
        EXPECT_NE(text.str().find(steady ? "  Slowest rank: 1, 5.000 ms more time outside "
                                         : "  No rank stands out: rank 1 has the most time "
                                           "outside communication, 5.000 ms more than the other "
                                           "ranks (their median), within how much a rank's "
                                           "steps vary (20.000 ms)"),
                  std::string::npos)
            << text.str();
    }
    // Ranks that are copies of one another: none stands out.
    RankTimeline rank0(0, 0, {{0, 20}}, {{20, 60}});
    RankTimeline rank1(1, 0, {{0, 20}}, {{20, 60}});
    EXPECT_FALSE(summaryOf({&rank0.data, &rank1.data}).slowestStandsOut());
}

TEST(ClusterSummary, StepsAreMatchedByNumberNotByClock) {
    RankTimeline rank0(0, 0, {{0, 10}}, {}, {100, 120, 90});
    RankTimeline rank1(1, 123'456 * kMs, {{0, 10}}, {}, {100, 110});
    const ClusterSummary summary = summaryOf({&rank0.data, &rank1.data});

    ASSERT_EQ(summary.steps.size(), 3u);
    EXPECT_EQ(summary.steps[1].id, 2);
    EXPECT_DOUBLE_EQ(summary.steps[1].ms[0], 120.0);
    EXPECT_DOUBLE_EQ(summary.steps[1].ms[1], 110.0);
    EXPECT_EQ(summary.steps[1].slowest_rank, 0);
    EXPECT_DOUBLE_EQ(summary.steps[2].ms[1], -1.0);  // rank 1 has no step 3
    EXPECT_DOUBLE_EQ(summary.ranks[0].median_step_ms, 100.0);
    ASSERT_EQ(summary.notes.size(), 1u);
    EXPECT_NE(summary.notes[0].find("Step 3"), std::string::npos);
}

TEST(ClusterSummary, CollectivesThatDifferAreComparedOnlyWhereTheyAgree) {
    RankTimeline rank0(0, 0, {{0, 10}}, {{10, 30}, {40, 50}});
    RankTimeline rank1(1, 0, {{0, 10}}, {{10, 20}});
    const ClusterSummary summary = summaryOf({&rank0.data, &rank1.data});
    ASSERT_EQ(summary.waits.size(), 1u);
    EXPECT_EQ(summary.waits[0].last_rank, 1);
    EXPECT_DOUBLE_EQ(summary.waits[0].longest_wait_ms, 10.0);
    ASSERT_EQ(summary.notes.size(), 1u);
    EXPECT_NE(summary.notes[0].find("different numbers of collectives"), std::string::npos);
}

TEST(ClusterSummary, CollectivesAreMatchedByWhatTheyAreNotByTheirOrder) {
    // Two buckets, of 1024 and 256 values: rank 0 starts the large one first, rank 1 the small
    // one (Gloo's two worker threads). The large one lasts 20 ms on rank 0 and 35 ms on rank 1:
    // rank 1 waited 15 ms for rank 0 there; the small one 10 ms against 5 ms: rank 0 waited
    // 5 ms for rank 1. Matched by order, each would be compared with the other bucket.
    RankTimeline rank0(0, 0, {{0, 20}}, {{20, 40}, {40, 50}}, {100}, {"1024", "256"});
    RankTimeline rank1(1, 0, {{0, 20}}, {{20, 25}, {25, 60}}, {100}, {"256", "1024"});
    const ClusterSummary summary = summaryOf({&rank0.data, &rank1.data});
    ASSERT_EQ(summary.waits.size(), 2u);
    EXPECT_EQ(summary.waits[0].ordinal, 0u);  // the large bucket, first on rank 0
    EXPECT_EQ(summary.waits[0].last_rank, 0);
    EXPECT_DOUBLE_EQ(summary.waits[0].longest_wait_ms, 15.0);
    EXPECT_EQ(summary.waits[1].ordinal, 1u);
    EXPECT_EQ(summary.waits[1].last_rank, 1);
    EXPECT_DOUBLE_EQ(summary.waits[1].longest_wait_ms, 5.0);
    EXPECT_TRUE(summary.notes.empty());
}

// Four ranks' timelines of `steps` steps of 100 ms whose step collectives `collectives` gives:
// it adds (step, bytes, start_ms, duration_ms) rows for a rank.
using AddCollective = std::function<void(int64_t, int64_t, double, double)>;
std::vector<RankTimeline> fourRanks(int64_t steps,
                                    const std::function<void(int, const AddCollective&)>& fill) {
    std::vector<RankTimeline> ranks;
    for (int rank = 0; rank < 4; ++rank) {
        ranks.emplace_back(rank, rank * 7'000 * kMs, std::vector<std::pair<int64_t, int64_t>>{},
                           std::vector<std::pair<int64_t, int64_t>>{},
                           std::vector<int64_t>(static_cast<size_t>(steps), 100));
        TimelineData& data = ranks.back().data;
        fill(rank, [&](int64_t step, int64_t bytes, double start, double ms) {
            data.step_collectives.push_back({step, "gloo:all_reduce", bytes, start, ms});
        });
    }
    return ranks;
}

TEST(ClusterSummary, EachStepNamesTheRankThatHeldItUpWhenOneDoesMoreThanByChance) {
    // Eight steps, two buckets each (all_reduce of 4 and 8 MB). Rank 3 arrives 40 ms late in
    // steps 1 to 7 (the others' collectives last 40 ms longer, in both buckets); in step 8 rank 2
    // arrives last by 0.2 ms, within a tenth of the step.
    const std::vector<RankTimeline> ranks = fourRanks(8, [](int rank, const AddCollective& add) {
        for (int64_t step = 1; step <= 7; ++step) {
            add(step, 4 << 20, 60, rank == 3 ? 5 : 45);
            add(step, 8 << 20, 65, rank == 3 ? 6 : 46);
        }
        add(8, 4 << 20, 60, rank == 2 ? 5.0 : 5.2);
        add(8, 8 << 20, 65, rank == 2 ? 6.0 : 6.2);
    });
    const ClusterSummary summary =
        summaryOf({&ranks[0].data, &ranks[1].data, &ranks[2].data, &ranks[3].data});
    ASSERT_EQ(summary.stragglers.size(), 8u);
    for (size_t i = 0; i < 7; ++i) {
        EXPECT_EQ(summary.stragglers[i].rank, 3) << "step " << i + 1;
        EXPECT_DOUBLE_EQ(summary.stragglers[i].waited_ms, 40.0);  // in each bucket, not added
        EXPECT_EQ(summary.stragglers[i].collectives, 2u);
    }
    EXPECT_EQ(summary.stragglers[7].rank, -1);
    EXPECT_EQ(summary.stragglers[7].last_rank, -1);
    EXPECT_NEAR(summary.stragglers[7].waited_ms, 0.2, 1e-9);
    std::ostringstream text;
    printRanks(text, summary);
    EXPECT_NE(text.str().find("rank 3 in 7 of 8 steps, no rank in 1"), std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("held up by rank 3, 40.000 ms"), std::string::npos) << text.str();
}

TEST(ClusterSummary, RanksThatTakeTurnsArrivingLastHoldNoStepUp) {
    // Three steps, each held up by another rank (as on a machine with more ranks than cores):
    // the rank each waited for is known, but none held the job up. In step 3 rank 1 is late
    // in the 8 MB bucket only, and starts its 4 MB bucket first where the others start it last.
    const std::vector<RankTimeline> ranks = fourRanks(3, [](int rank, const AddCollective& add) {
        add(1, 4 << 20, 60, rank == 3 ? 5 : 45);
        add(2, 4 << 20, 60, rank == 0 ? 5 : 45);
        if (rank == 1) {
            add(3, 4 << 20, 50, 4);
            add(3, 8 << 20, 80, 5);
        } else {
            add(3, 8 << 20, 50, 35);
            add(3, 4 << 20, 80, 4);
        }
    });
    const ClusterSummary summary =
        summaryOf({&ranks[0].data, &ranks[1].data, &ranks[2].data, &ranks[3].data});
    ASSERT_EQ(summary.stragglers.size(), 3u);
    EXPECT_EQ(summary.stragglers[0].last_rank, 3);
    EXPECT_EQ(summary.stragglers[1].last_rank, 0);
    EXPECT_EQ(summary.stragglers[2].last_rank, 1);
    EXPECT_DOUBLE_EQ(summary.stragglers[2].waited_ms, 30.0);
    for (const StepStraggler& step : summary.stragglers)
        EXPECT_EQ(step.rank, -1);
    std::ostringstream text;
    printRanks(text, summary);
    EXPECT_NE(text.str().find("No rank held the steps up: the one the others waited for changed "
                              "from step to step (rank 0 in 1, rank 1 in 1, rank 3 in 1, none in "
                              "0 of 3 steps)"),
              std::string::npos)
        << text.str();
    EXPECT_EQ(text.str().find("held up by"), std::string::npos) << text.str();
}

TEST(ClusterSummary, TimelinesThatAreNotRanksOfOneJobAreRefusedInOneLine) {
    RankTimeline rank0(0, 0, {{0, 10}}, {});
    RankTimeline again(0, 0, {{0, 10}}, {});
    RankTimeline alone(-1, 0, {{0, 10}}, {});
    EXPECT_THROW(summaryOf({&rank0.data}), Error);
    try {
        summaryOf({&rank0.data, &again.data});
        FAIL() << "two timelines of rank 0 were summed up";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("rank 0 is given twice"), std::string::npos);
    }
    try {
        summaryOf({&rank0.data, &alone.data});
        FAIL() << "a timeline without a rank was summed up";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("no rank"), std::string::npos);
    }
}

}  // namespace
}  // namespace trainscope
