// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "analysis/device_breakdown.h"
#include "analysis/median.h"
#include "analysis/saturating.h"
#include "trainscope/cluster.h"
#include "trainscope/error.h"
#include "trainscope/memory_curve.h"

namespace trainscope {
namespace {

using Interval = std::pair<int64_t, int64_t>;  // [start, end) in the file's ns

double msOf(int64_t ns) {
    return static_cast<double>(ns) / 1e6;
}

// The union of `intervals` as sorted, disjoint intervals (the memory curve's merging).
std::vector<Interval> merged(const std::vector<Interval>& intervals) {
    std::vector<TimeSpan> spans;
    for (const Interval& i : intervals)
        spans.push_back({i.first, i.second});
    std::vector<Interval> result;
    for (const TimeSpan& span : mergedSpans(std::move(spans)))
        result.emplace_back(span.start_ns, span.end_ns);
    return result;
}

int64_t length(const std::vector<Interval>& disjoint) {
    int64_t total = 0;
    for (const Interval& i : disjoint)
        total = saturatedSum(total, saturatedDifference(i.second, i.first));
    return total;
}

// How long two unions of disjoint intervals overlap.
int64_t overlap(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    int64_t total = 0;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const int64_t start = std::max(a[i].first, b[j].first);
        const int64_t end = std::min(a[i].second, b[j].second);
        total = saturatedSum(total, std::max<int64_t>(0, saturatedDifference(end, start)));
        (a[i].second < b[j].second ? i : j)++;
    }
    return total;
}

// The step whose calls the file holds: TrainScope's memory step, else the first step, else the
// whole recording.
Interval brokenDownStep(const TimelineData& data) {
    for (const TimelineStep& step : data.steps)
        if (step.memory_step) {
            return {step.start_ns, step.end_ns};
        }
    if (!data.steps.empty()) {
        return {data.steps.front().start_ns, data.steps.front().end_ns};
    }
    return {data.first_ns, data.last_ns};
}

void sortCollectives(RankFacts& facts) {
    std::sort(
        facts.collectives.begin(), facts.collectives.end(),
        [](const RankCollective& a, const RankCollective& b) { return a.start_ns < b.start_ns; });
    facts.figures.collectives = facts.collectives.size();
}

// A GPU trace's rank (its timeline has device streams and no collectives among its calls): the
// broken-down step as its device ran it, each instant once (analysis/device_breakdown.h):
// computation its kernels, copies and sets, communication its collectives' kernels (NCCL's, which
// run until every rank has arrived: their durations are what the waits compare). False where no
// collective's kernel ran within the step (a device of another runtime: CANN's).
bool breakDownOnDevice(const TimelineData& data, Interval step, RankFacts& result) {
    std::vector<DeviceTaskSpan> tasks;
    for (const TimelineLane& lane : data.lanes) {
        if (lane.kind != LaneKind::Device) {
            continue;
        }
        for (const TimelineSpan& span : lane.spans) {
            if (span.end_ns <= step.first || span.start_ns >= step.second) {
                continue;
            }
            const std::string& name = data.text(span.name);
            const DeviceTaskSpan::Kind kind = deviceTaskKind(name);
            tasks.push_back({span.start_ns, span.end_ns,
                             kind == DeviceTaskSpan::Kind::Communication
                                 ? kind
                                 : DeviceTaskSpan::Kind::Computation});
            if (kind == DeviceTaskSpan::Kind::Communication) {
                result.collectives.push_back(
                    {span.start_ns, saturatedDifference(span.end_ns, span.start_ns), name, name});
            }
        }
    }
    if (result.collectives.empty()) {  // no NCCL kernel: the device's other runtimes (CANN's)
        return false;
    }
    const DeviceBreakdown b = deviceBreakdown(tasks, step.first, step.second);
    RankBreakdown& r = result.figures;
    r.on_device = true;
    r.computation_ms = msOf(b.computation_ns);
    r.communication_ms = msOf(saturatedSum(b.communication_ns, b.overlapped_ns));
    r.overlap_ms = msOf(b.overlapped_ns);
    r.idle_ms = msOf(b.idle_ns);
    return true;
}

}  // namespace

RankFacts rankFactsOf(const TimelineData& data) {
    RankFacts result;
    result.steps = data.steps;
    result.step_collectives = data.step_collectives;
    RankBreakdown& r = result.figures;
    r.rank = data.rank;
    r.path = data.path;
    r.steps = data.steps.size();
    std::vector<double> step_ms;
    for (const TimelineStep& step : data.steps)
        step_ms.push_back(msOf(saturatedDifference(step.end_ns, step.start_ns)));
    r.median_step_ms = median(step_ms);

    const auto [step_start, step_end] = brokenDownStep(data);
    r.step_ms = msOf(saturatedDifference(step_end, step_start));
    // The collectives as their backend ran them, where the calls hold them (TrainScope's Gloo
    // spans, torch_npu's HCCL calls): those; else (a GPU trace's) the device's NCCL kernels.
    const bool calls_communicate =
        std::any_of(data.lanes.begin(), data.lanes.end(), [](const TimelineLane& lane) {
            return lane.kind == LaneKind::Thread &&
                   std::any_of(lane.spans.begin(), lane.spans.end(), [](const TimelineSpan& s) {
                       return s.category == SpanCategory::Communication;
                   });
        });
    if (!calls_communicate && breakDownOnDevice(data, {step_start, step_end}, result)) {
        sortCollectives(result);
        return result;
    }
    std::vector<Interval> computation, communication;
    for (const TimelineLane& lane : data.lanes) {
        if (lane.kind != LaneKind::Thread || lane.python_stack) {
            continue;
        }
        for (size_t i = 0; i < lane.spans.size(); ++i) {
            const TimelineSpan& span = lane.spans[i];
            const int64_t start = std::max(span.start_ns, step_start);
            const int64_t end = std::min(span.end_ns, step_end);
            if (span.end_ns < step_start || span.start_ns > step_end) {
                continue;  // outside the step
            }
            if (span.category == SpanCategory::Communication) {
                // At any depth: NCCL's span lies inside the c10d operation that launched it.
                communication.emplace_back(start, end);
                const std::string& name = data.text(span.name);
                result.collectives.push_back(
                    {span.start_ns, saturatedDifference(span.end_ns, span.start_ns), name,
                     name + '\x1f' + data.text(span.shapes) + '\x1f' + data.text(span.dtypes)});
            } else if (span.depth == 0 && span.category != SpanCategory::Other) {
                computation.emplace_back(start, end);
            }
        }
    }
    const std::vector<Interval> computing = merged(computation);
    const std::vector<Interval> communicating = merged(communication);
    r.computation_ms = msOf(length(computing));
    r.communication_ms = msOf(length(communicating));
    r.overlap_ms = msOf(overlap(computing, communicating));
    r.idle_ms = std::max(0.0, r.step_ms - r.computation_ms - r.communication_ms + r.overlap_ms);
    sortCollectives(result);
    return result;
}

namespace {

// The collectives matched by what they are (their operation and inputs' shapes and types) and
// their order among those of that kind: the i-th of a kind on one rank is the i-th on every
// other. Not by their order alone: Gloo's worker threads may start two buckets in one order on
// one rank and in the other on the next. Each is named by its place on the lowest rank.
std::vector<CollectiveWait> collectiveWaits(const std::vector<RankFacts>& ranks,
                                            std::vector<std::string>& notes) {
    std::vector<std::map<std::string, std::vector<const RankCollective*>>> by_kind(ranks.size());
    for (size_t r = 0; r < ranks.size(); ++r)
        for (const RankCollective& c : ranks[r].collectives)
            by_kind[r][c.kind].push_back(&c);
    for (size_t r = 1; r < ranks.size(); ++r)
        if (by_kind[r].size() != by_kind[0].size() ||
            !std::equal(by_kind[r].begin(), by_kind[r].end(), by_kind[0].begin(),
                        [](const auto& a, const auto& b) {
                            return a.first == b.first && a.second.size() == b.second.size();
                        })) {
            notes.push_back(
                "The ranks ran different numbers of collectives of a kind (operation, inputs) in "
                "the step; those that every rank ran are compared.");
            break;
        }
    std::vector<CollectiveWait> waits;
    std::map<std::string, size_t> seen;  // on the lowest rank, by kind
    const std::vector<RankCollective>& named = ranks.front().collectives;
    for (size_t k = 0; k < named.size(); ++k) {
        const size_t occurrence = seen[named[k].kind]++;
        int64_t shortest = named[k].duration_ns, longest = shortest;
        int last = ranks.front().figures.rank;
        bool everywhere = true;
        for (size_t r = 0; r < ranks.size() && everywhere; ++r) {
            const auto found = by_kind[r].find(named[k].kind);
            everywhere = found != by_kind[r].end() && occurrence < found->second.size();
            if (!everywhere) {
                break;
            }
            const RankCollective& c = *found->second[occurrence];
            if (c.duration_ns < shortest) {
                shortest = c.duration_ns;
                last = ranks[r].figures.rank;
            }
            longest = std::max(longest, c.duration_ns);
        }
        if (everywhere && longest > shortest) {
            waits.push_back({k, named[k].name, last, msOf(saturatedDifference(longest, shortest))});
        }
    }
    std::stable_sort(waits.begin(), waits.end(), [](const auto& a, const auto& b) {
        return a.longest_wait_ms > b.longest_wait_ms;
    });
    return waits;
}

std::vector<StepAcrossRanks> stepsAcross(const std::vector<RankFacts>& ranks) {
    std::map<int64_t, StepAcrossRanks> by_id;
    for (size_t r = 0; r < ranks.size(); ++r) {
        for (const TimelineStep& step : ranks[r].steps) {
            StepAcrossRanks& across = by_id[step.id];
            across.id = step.id;
            across.ms.resize(ranks.size(), -1.0);
            across.ms[r] = msOf(saturatedDifference(step.end_ns, step.start_ns));
        }
    }
    std::vector<StepAcrossRanks> steps;
    for (auto& [id, across] : by_id) {
        const auto slowest = std::max_element(across.ms.begin(), across.ms.end());
        across.slowest_rank = ranks[static_cast<size_t>(slowest - across.ms.begin())].figures.rank;
        steps.push_back(std::move(across));
    }
    return steps;
}

}  // namespace

namespace {

// Whether `hits` of `n` tries is more than chance `p` gives, at 0.1 %: P(X >= hits) < 0.001 for
// X ~ Binomial(n, p).
bool moreThanChance(size_t hits, size_t n, double p) {
    double tail = 0.0;
    for (size_t k = hits; k <= n; ++k) {
        const double kd = static_cast<double>(k), nd = static_cast<double>(n);
        tail += std::exp(std::lgamma(nd + 1) - std::lgamma(kd + 1) - std::lgamma(nd - kd + 1) +
                         kd * std::log(p) + (nd - kd) * std::log1p(-p));
    }
    return n > 0 && tail < 0.001;
}

// Step by step, the rank the others waited for. Each step's collectives are matched across the
// ranks by what they are (name and bytes) and their order among those of that kind; in each,
// the rank whose collective took least arrived last, and every other rank waited the
// difference. The step's is the rank the others waited for most (the median of their longest
// waits for it: a step's collectives may run at once, so their waits are not added).
// Durations only: the ranks' clocks are never compared.
std::vector<StepStraggler> stepStragglers(const std::vector<RankFacts>& ranks,
                                          const std::vector<StepAcrossRanks>& steps) {
    using Kind = std::tuple<std::string, int64_t, int>;  // name, bytes, occurrence
    std::vector<StepStraggler> result;
    for (const StepAcrossRanks& step : steps) {
        std::vector<std::map<Kind, double>> by_kind(ranks.size());
        for (size_t r = 0; r < ranks.size(); ++r) {
            std::map<std::pair<std::string, int64_t>, int> seen;
            for (const StepCollective& c : ranks[r].step_collectives)
                if (c.step == step.id && std::isfinite(c.duration_ms)) {
                    const int occurrence = seen[{c.name, c.bytes}]++;
                    by_kind[r][{c.name, c.bytes, occurrence}] = c.duration_ms;
                }
        }
        StepStraggler straggler;
        straggler.id = step.id;
        std::vector<std::vector<double>> waits(ranks.size(), std::vector<double>(ranks.size()));
        for (const auto& [kind, first_ms] : by_kind[0]) {
            std::vector<double> ms;
            for (size_t r = 0; r < ranks.size(); ++r) {
                const auto it = by_kind[r].find(kind);
                if (it == by_kind[r].end()) {
                    break;
                }
                ms.push_back(it->second);
            }
            if (ms.size() != ranks.size()) {
                continue;  // not on every rank
            }
            ++straggler.collectives;
            const size_t last =
                static_cast<size_t>(std::min_element(ms.begin(), ms.end()) - ms.begin());
            for (size_t r = 0; r < ranks.size(); ++r)  // a step's buckets may overlap
                waits[last][r] = std::max(waits[last][r], ms[r] - ms[last]);
        }
        if (straggler.collectives > 0) {
            // The rank the others waited for most (their median wait for it, over the step).
            size_t last = 0;
            for (size_t candidate = 0; candidate < ranks.size(); ++candidate) {
                std::vector<double> others;
                for (size_t r = 0; r < ranks.size(); ++r)
                    if (r != candidate) {
                        others.push_back(waits[candidate][r]);
                    }
                const double waited = median(others);
                if (candidate == 0 || waited > straggler.waited_ms) {
                    last = candidate;
                    straggler.waited_ms = waited;
                }
            }
            std::vector<double> step_ms;
            for (double ms : step.ms)
                if (ms >= 0) {
                    step_ms.push_back(ms);
                }
            if (straggler.waited_ms >= 0.1 * median(step_ms)) {
                straggler.last_rank = ranks[last].figures.rank;
            }
        }
        result.push_back(straggler);
    }
    return result;
}

}  // namespace

size_t StepsHeldUp::byNone() const {
    size_t named = 0;
    for (const auto& entry : by_rank)
        named += entry.second;
    return compared - named;
}

size_t StepsHeldUp::forNone() const {
    size_t some = 0;
    for (const auto& entry : waited_for)
        some += entry.second;
    return compared - some;
}

bool ClusterSummary::onDevice() const {
    return std::any_of(ranks.begin(), ranks.end(),
                       [](const RankBreakdown& r) { return r.on_device; });
}

StepsHeldUp ClusterSummary::heldUp() const {
    StepsHeldUp held;
    for (const StepStraggler& step : stragglers)
        if (step.collectives > 0) {
            ++held.compared;
            if (step.rank >= 0) {
                ++held.by_rank[step.rank];
            }
            if (step.last_rank >= 0) {
                ++held.waited_for[step.last_rank];
            }
        }
    return held;
}

ClusterSummary summarizeRanks(std::vector<RankFacts> ranks) {
    if (ranks.size() < 2) {
        throw Error("a summary of ranks needs the timelines of at least two ranks");
    }
    std::stable_sort(ranks.begin(), ranks.end(), [](const RankFacts& a, const RankFacts& b) {
        return a.figures.rank < b.figures.rank;
    });
    std::set<int> seen;
    for (const RankFacts& facts : ranks) {
        const RankBreakdown& r = facts.figures;
        if (r.rank < 0) {
            throw Error(r.path +
                        ": no rank (RANK_DEVICE_MAP): not a rank of a distributed "
                        "job");
        }
        if (!seen.insert(r.rank).second) {
            throw Error(r.path + ": rank " + std::to_string(r.rank) +
                        " is given twice: these are not the timelines of one job's ranks");
        }
    }
    ClusterSummary summary;
    for (const RankFacts& facts : ranks)
        summary.ranks.push_back(facts.figures);
    summary.steps = stepsAcross(ranks);
    for (const StepAcrossRanks& step : summary.steps)
        if (std::count(step.ms.begin(), step.ms.end(), -1.0) > 0) {
            summary.notes.push_back("Step " + std::to_string(step.id) +
                                    " is not in every rank's timeline.");
            break;
        }
    std::vector<double> outside;  // each rank's time outside communication
    for (const RankBreakdown& r : summary.ranks)
        outside.push_back(r.step_ms - r.communication_ms);
    const size_t slowest =
        static_cast<size_t>(std::max_element(outside.begin(), outside.end()) - outside.begin());
    std::vector<double> others = outside;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(slowest));
    summary.slowest_rank = summary.ranks[slowest].rank;
    summary.slowest_by_ms = outside[slowest] - median(others);
    std::vector<double> spreads;
    for (size_t r = 0; r < summary.ranks.size(); ++r) {
        std::vector<double> times;
        for (const StepAcrossRanks& step : summary.steps)
            if (step.ms[r] >= 0) {
                times.push_back(step.ms[r]);
            }
        if (!times.empty()) {
            const auto [fastest, slowest_step] = std::minmax_element(times.begin(), times.end());
            spreads.push_back(*slowest_step - *fastest);
        }
    }
    summary.step_spread_ms = median(spreads);
    summary.waits = collectiveWaits(ranks, summary.notes);
    summary.stragglers = stepStragglers(ranks, summary.steps);
    // Named only for the rank that arrived last in more steps than chance would make it (a
    // binomial test at 0.1 %, each rank being last with 1/ranks): where the ranks take turns (a
    // machine with more ranks than cores), none held the job up.
    const StepsHeldUp held = summary.heldUp();
    for (const auto& [rank, steps] : held.waited_for)
        if (moreThanChance(steps, held.compared, 1.0 / static_cast<double>(ranks.size()))) {
            for (StepStraggler& s : summary.stragglers)
                if (s.last_rank == rank) {
                    s.rank = rank;
                }
        }
    return summary;
}

}  // namespace trainscope
