// SPDX-License-Identifier: Apache-2.0
#include "trainscope/ranks_text.h"

#include <algorithm>

#include "trainscope/summary_text.h"

namespace trainscope {
namespace {

constexpr size_t kListedSteps = 10;
constexpr size_t kListedWaits = 5;

std::string ms(double value) {
    return format("%.3f ms", value);
}

}  // namespace

void printRanks(std::ostream& out, const ClusterSummary& summary) {
    out << summary.ranks.size()
        << " ranks; steps matched by number, collectives by what they are and their order (each "
        << "rank's clock is its own)\n";
    out << "  " << padded("rank", 6) << padded("steps", 7) << padded("median step", 14)
        << padded("broken-down step", 18) << padded("computation", 14)
        << padded("communication", 15) << padded("overlapped", 13) << "idle\n";
    for (const RankBreakdown& r : summary.ranks) {
        out << "  " << padded(std::to_string(r.rank), 6) << padded(std::to_string(r.steps), 7)
            << padded(ms(r.median_step_ms), 14) << padded(ms(r.step_ms), 18)
            << padded(ms(r.computation_ms), 14) << padded(ms(r.communication_ms), 15)
            << padded(ms(r.overlap_ms), 13) << ms(r.idle_ms) << "\n";
    }
    if (summary.onDevice()) {
        out << "  (the broken-down step is each rank's first, as its GPU ran it: computation its "
               "kernels, copies and sets, communication its NCCL kernels, each instant once)\n";
    } else {
        out << "  (the broken-down step is the one each timeline holds the calls of: "
               "TrainScope's memory step)\n";
    }
    if (summary.slowestStandsOut()) {
        out << "  Slowest rank: " << summary.slowest_rank << ", " << ms(summary.slowest_by_ms)
            << " more time outside communication than the other ranks (their median)\n";
    } else {
        out << "  No rank stands out: rank " << summary.slowest_rank
            << " has the most time outside communication, " << ms(summary.slowest_by_ms)
            << " more than the other ranks (their median), within how much a rank's steps vary ("
            << ms(summary.step_spread_ms) << ")\n";
    }
    if (!summary.waits.empty()) {
        out << "  Collectives the others wait in (longest wait first):\n";
        for (size_t i = 0; i < std::min(kListedWaits, summary.waits.size()); ++i) {
            const CollectiveWait& w = summary.waits[i];
            out << "    #" << w.ordinal + 1 << " " << w.name << ": waited up to "
                << ms(w.longest_wait_ms) << " for rank " << w.last_rank << "\n";
        }
    }
    // Who held each step up: the rank that arrived last in its collectives.
    const StepsHeldUp held = summary.heldUp();
    if (!held.by_rank.empty()) {
        out << "  Held up, step by step (the rank the others waited for in the step's "
               "collectives, at least a tenth of the step, in more steps than chance):";
        for (const auto& [rank, steps] : held.by_rank)
            out << " rank " << rank << " in " << steps << " of " << held.compared << " steps,";
        out << " no rank in " << held.byNone() << "\n";
    } else if (held.compared > 0) {
        out << "  No rank held the steps up: the one the others waited for changed from step to "
               "step (";
        for (const auto& [rank, steps] : held.waited_for)
            out << "rank " << rank << " in " << steps << ", ";
        out << "none in " << held.forNone() << " of " << held.compared << " steps)\n";
    }
    out << "  Steps (ms per rank, in rank order):\n";
    for (size_t i = 0; i < std::min(kListedSteps, summary.steps.size()); ++i) {
        const StepAcrossRanks& step = summary.steps[i];
        out << "    step " << step.id << ":";
        for (double value : step.ms)
            out << " " << (value < 0 ? std::string("-") : format("%.3f", value));
        out << "  (slowest rank " << step.slowest_rank;
        if (i < summary.stragglers.size() && summary.stragglers[i].rank >= 0) {
            out << "; held up by rank " << summary.stragglers[i].rank << ", "
                << ms(summary.stragglers[i].waited_ms);
        }
        out << ")\n";
    }
    if (summary.steps.size() > kListedSteps) {
        out << "    ... " << summary.steps.size() - kListedSteps << " more steps\n";
    }
    for (const std::string& note : summary.notes)
        out << "  Note: " << note << "\n";
}

void printRanksOfFiles(std::ostream& out, const std::vector<std::string>& timeline_paths) {
    // One timeline at a time: what the summary needs of each is a few figures.
    std::vector<RankFacts> ranks;
    for (const std::string& path : timeline_paths)
        ranks.push_back(rankFactsOf(loadTimelineData(path, TimelineParts::CallsAndSteps)));
    printRanks(out, summarizeRanks(std::move(ranks)));
}

}  // namespace trainscope
