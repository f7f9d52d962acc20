// SPDX-License-Identifier: Apache-2.0
// The ranks of one distributed job side by side, from their timelines (one file per rank): what
// each rank's step spent computing, communicating and idle, how much of its communication
// overlapped computation, which rank is the slowest, and the collectives in which the others
// wait for it. What `trainscope-cli show PREFIX.rank*.timeline.sqlite` and rank 0 of a run
// print.
//
// The ranks' clocks are per process, so nothing compares one rank's timestamps with another's:
// steps are matched by their number (STEP_TIME.id), collectives by what they are and their order
// among those of that kind in the step, and
// a rank's wait in a collective is how much longer its collective took than the shortest rank's
// (all ranks leave a collective together; the last to arrive waits least).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "trainscope/timeline_data.h"

namespace trainscope {

// One rank. The breakdown is of the step whose calls the timeline holds (TrainScope's memory
// step; a torch_npu file's first step), so it includes that step's recording cost. A GPU
// trace's (a timeline with device streams) is its device's over that step: computation its
// kernels, copies and sets, communication its collectives' kernels, each instant once.
struct RankBreakdown {
    int rank = -1;
    bool on_device = false;  // the device's breakdown, not the CPU calls'

    std::string path;
    size_t steps = 0;
    double median_step_ms = 0.0;  // over every step of the file
    double step_ms = 0.0;         // the broken-down step's
    double computation_ms = 0.0;  // top-level calls other than collectives, on any thread
    double communication_ms = 0.0;
    double overlap_ms = 0.0;  // communication while a computation ran
    double idle_ms = 0.0;     // neither
    size_t collectives = 0;
};

// A collective of the broken-down step (the same ordinal on every rank) that the others waited
// in for the rank that arrived last.
struct CollectiveWait {
    size_t ordinal = 0;  // its place among the step's collectives, from 0
    std::string name;
    int last_rank = -1;          // the rank the others waited for
    double longest_wait_ms = 0;  // the longest another rank waited
};

// A step, and the rank the others waited for in its collectives (in each, the last to arrive
// waits least, and the others the difference): the one they waited for most, when they waited
// for it at least a tenth of the step (`last_rank`; -1: none). It is named (`rank`) only when
// that rank arrived last in more of the steps than chance would make it (a binomial test at
// 0.1 %, each of N ranks last with 1/N): where the ranks take turns, no rank held the job up.
struct StepStraggler {
    int64_t id = 0;
    int rank = -1;
    int last_rank = -1;
    double waited_ms = 0.0;  // the median over the other ranks of their longest wait for it
    size_t collectives = 0;  // the step's collectives found on every rank
};

// A step (by number) on every rank that has it.
struct StepAcrossRanks {
    int64_t id = 0;
    std::vector<double> ms;  // per rank, in ClusterSummary::ranks' order; < 0: the rank lacks it
    int slowest_rank = -1;
};

// Over the steps whose collectives were compared on every rank: how many steps each named rank
// held up, and how many each rank was the one the others waited for most (named or not).
struct StepsHeldUp {
    size_t compared = 0;
    std::map<int, size_t> by_rank;
    std::map<int, size_t> waited_for;
    size_t byNone() const;   // compared steps that name no rank
    size_t forNone() const;  // compared steps in which no rank was waited for a tenth of it
};

struct ClusterSummary {
    std::vector<RankBreakdown> ranks;  // by rank
    std::vector<StepAcrossRanks> steps;
    // The rank with the most time outside communication in the broken-down step, and how much
    // more it had than the median of the others: what the others spent waiting for it.
    int slowest_rank = -1;
    double slowest_by_ms = 0.0;
    // How much a rank's step times vary from step to step (the median over the ranks of each
    // one's slowest step less its fastest): a slowest rank only stands out beyond it.
    double step_spread_ms = 0.0;
    bool slowestStandsOut() const { return slowest_by_ms > step_spread_ms; }
    // Whether the breakdowns are the devices' (the ranks' GPU traces), not their CPU calls'.
    bool onDevice() const;
    std::vector<CollectiveWait> waits;  // the longest wait first
    // Step by step (the timed steps too, from each rank's step collectives), by step number.
    std::vector<StepStraggler> stragglers;
    StepsHeldUp heldUp() const;
    std::vector<std::string> notes;  // what could not be matched, in sentences
};

// A collective of a rank's broken-down step.
struct RankCollective {
    int64_t start_ns = 0;
    int64_t duration_ns = 0;
    std::string name;
    std::string kind;  // what it is: its name and its inputs' shapes and types (a kernel: its name)
};

// What the summary needs of one rank's timeline: a job's timelines are read one at a time, so
// that a job's memory grows with one rank's timeline, not with all of them.
struct RankFacts {
    RankBreakdown figures;
    std::vector<TimelineStep> steps;
    std::vector<RankCollective> collectives;  // by start
    std::vector<StepCollective> step_collectives;
};
RankFacts rankFactsOf(const TimelineData& timeline);

// Throws trainscope::Error when fewer than two ranks are given, when one has no rank
// (RANK_DEVICE_MAP -1), or when two give the same rank.
ClusterSummary summarizeRanks(std::vector<RankFacts> ranks);

}  // namespace trainscope
