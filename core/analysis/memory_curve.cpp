// SPDX-License-Identifier: Apache-2.0
#include "trainscope/memory_curve.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "report/run_figures.h"
#include "trainscope/error.h"
#include "trainscope/run_files.h"

namespace trainscope {
namespace {

constexpr char kEvaluateFunction[] = "autograd::engine::evaluate_function: ";

bool withinModule(const std::string& path, const std::string& module) {
    return path == module || (path.size() > module.size() && path[module.size()] == '.' &&
                              path.compare(0, module.size(), module) == 0);
}

bool within(int64_t time_ns, const std::vector<TimeSpan>& disjoint) {
    auto after =
        std::upper_bound(disjoint.begin(), disjoint.end(), time_ns,
                         [](int64_t time, const TimeSpan& span) { return time < span.start_ns; });
    return after != disjoint.begin() && std::prev(after)->end_ns >= time_ns;
}

CurveBlock curveBlock(const MemoryBlock& block) {
    CurveBlock result{block.size, block.allocated_ns, std::nullopt};
    if (block.freed()) {
        result.released_ns = block.released_ns;
    }
    return result;
}

// The span of the engine's evaluate_function calls named for `node` that enclose it on its
// thread (its ancestors), or the node's own span when there is none.
TimeSpan aroundBackwardNode(const TimelineData& data, const TimelineLane& lane,
                            const TimelineSpan& node) {
    const std::string wanted = kEvaluateFunction + data.text(node.name);
    TimeSpan around{std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
    for (int depth = 0; depth < node.depth; ++depth) {
        const auto begin =
            lane.spans.begin() + static_cast<std::ptrdiff_t>(lane.depth_begin[depth]);
        const auto end =
            lane.spans.begin() + static_cast<std::ptrdiff_t>(lane.depth_begin[depth + 1]);
        auto after = std::upper_bound(
            begin, end, node.start_ns,
            [](int64_t start, const TimelineSpan& span) { return start < span.start_ns; });
        if (after == begin) {
            continue;
        }
        const TimelineSpan& parent = *std::prev(after);
        if (parent.end_ns >= node.end_ns && parent.name != kNoString &&
            data.text(parent.name) == wanted) {
            around.start_ns = std::min(around.start_ns, parent.start_ns);
            around.end_ns = std::max(around.end_ns, parent.end_ns);
        }
    }
    return around.start_ns <= around.end_ns ? around : TimeSpan{node.start_ns, node.end_ns};
}

}  // namespace

std::vector<TimeSpan> mergedSpans(std::vector<TimeSpan> spans) {
    std::sort(spans.begin(), spans.end(), [](const TimeSpan& a, const TimeSpan& b) {
        return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
    });
    std::vector<TimeSpan> merged;
    for (const TimeSpan& span : spans) {
        if (!merged.empty() && span.start_ns <= merged.back().end_ns) {
            merged.back().end_ns = std::max(merged.back().end_ns, span.end_ns);
        } else {
            merged.push_back(span);
        }
    }
    return merged;
}

MemoryCurve MemoryCurve::ofRun(const std::string& prefix) {
    const RunReports reports = findRunReports(prefix);
    if (reports.timeline.empty() || reports.time.empty()) {
        throw Error(prefix + ": the run has no " +
                    (reports.timeline.empty() ? "timeline" : "run time") + " report");
    }
    std::vector<std::pair<std::string, double>> forward_ms;
    RunReports time_only;
    time_only.label = reports.label;
    time_only.time = reports.time;
    for (const OperationFigures& op : readRunFigures(time_only).operations)
        forward_ms.emplace_back(op.module_path, op.forward_ms);
    return MemoryCurve(loadTimelineData(reports.timeline), std::move(forward_ms));
}

MemoryCurve::MemoryCurve(TimelineData timeline,
                         std::vector<std::pair<std::string, double>> forward_ms)
    : data_(std::move(timeline)), forward_ms_(std::move(forward_ms)) {}

int64_t MemoryCurve::highest() const {
    int64_t highest = 0;
    for (const MemorySample& sample : data_.memory)
        highest = std::max(highest, sample.total_allocated);
    return highest;
}

int64_t MemoryCurve::highestWith(const std::vector<CurveChange>& changes) const {
    std::vector<std::pair<int64_t, int64_t>> events;  // (time, bytes added from then on)
    for (const CurveChange& change : changes) {
        events.emplace_back(change.start_ns, change.bytes);
        if (change.end_ns) {
            events.emplace_back(*change.end_ns, -change.bytes);
        }
    }
    std::sort(events.begin(), events.end());
    std::optional<int64_t> highest;
    int64_t added = 0;
    size_t next = 0;
    for (const MemorySample& sample : data_.memory) {
        for (; next < events.size() && events[next].first <= sample.timestamp_ns; ++next)
            added += events[next].second;
        highest = std::max(highest.value_or(sample.total_allocated + added),
                           sample.total_allocated + added);
    }
    return highest.value_or(0);
}

std::vector<const TimelineSpan*> MemoryCurve::topLevelSpans() const {
    const TimeSpan step = stepSpan();
    std::vector<const TimelineSpan*> spans;
    for (const TimelineLane& lane : data_.lanes)
        if (lane.kind == LaneKind::Thread && lane.depths() > 0) {
            for (size_t i = lane.depth_begin[0]; i < lane.depth_begin[1]; ++i)
                if (lane.spans[i].start_ns >= step.start_ns &&
                    lane.spans[i].end_ns <= step.end_ns) {
                    spans.push_back(&lane.spans[i]);
                }
        }
    std::stable_sort(spans.begin(), spans.end(), [](const TimelineSpan* a, const TimelineSpan* b) {
        return a->start_ns < b->start_ns;
    });
    return spans;
}

std::vector<std::string> MemoryCurve::topLevelCalls() const {
    std::vector<std::string> names;
    for (const TimelineSpan* span : topLevelSpans())
        names.push_back(data_.text(span->name));
    return names;
}

std::vector<int64_t> MemoryCurve::segmentHighs() const {
    std::vector<int64_t> bounds;
    for (const TimelineSpan* span : topLevelSpans()) {
        bounds.push_back(span->start_ns);
        bounds.push_back(span->end_ns);
    }
    std::sort(bounds.begin(), bounds.end());
    std::vector<int64_t> highs;
    size_t next = 0;
    int64_t carried = data_.memory.empty() ? 0 : data_.memory.front().total_allocated;
    // The segment before each bound, and the one after the last.
    for (size_t b = 0; b <= bounds.size(); ++b) {
        int64_t high = carried;
        for (; next < data_.memory.size() &&
               (b == bounds.size() || data_.memory[next].timestamp_ns < bounds[b]);
             ++next) {
            carried = data_.memory[next].total_allocated;
            high = std::max(high, carried);
        }
        highs.push_back(high);
    }
    return highs;
}

std::optional<std::vector<LinearFit>> MemoryCurve::samplesOverBatch(const MemoryCurve& other,
                                                                    int64_t at,
                                                                    int64_t other_at) const {
    if (at == other_at || data_.memory.empty() || other.data_.memory.empty()) {
        return std::nullopt;
    }
    auto line = [&](int64_t mine, int64_t theirs) {
        LinearFit fit;
        fit.slope = static_cast<double>(theirs - mine) / static_cast<double>(other_at - at);
        fit.intercept = static_cast<double>(mine) - fit.slope * static_cast<double>(at);
        fit.points = 2;
        return fit;
    };
    const std::vector<MemorySample>& mine = data_.memory;
    const std::vector<MemorySample>& theirs = other.data_.memory;
    // Sample by sample where the two steps allocated and freed alike: an allocation in one is
    // one in the other.
    bool alike = mine.size() == theirs.size();
    for (size_t i = 1; alike && i < mine.size(); ++i)
        alike = (mine[i].total_allocated > mine[i - 1].total_allocated) ==
                (theirs[i].total_allocated > theirs[i - 1].total_allocated);
    std::vector<LinearFit> lines;
    if (alike) {
        for (size_t i = 0; i < mine.size(); ++i)
            lines.push_back(line(mine[i].total_allocated, theirs[i].total_allocated));
        return lines;
    }
    // Else call by call, where the two made the same top-level calls: an operation that
    // allocates once per sample (a convolution's columns on the CPU) allocates more often at
    // the larger batch. Each stretch within and between the calls has its highest total.
    const std::vector<std::string> calls = topLevelCalls();
    if (calls.empty() || calls != other.topLevelCalls()) {
        return std::nullopt;
    }
    const std::vector<int64_t> my_highs = segmentHighs(), their_highs = other.segmentHighs();
    for (size_t i = 0; i < my_highs.size(); ++i)
        lines.push_back(line(my_highs[i], their_highs[i]));
    return lines;
}

namespace {

int64_t highestOf(const std::vector<LinearFit>& lines, int64_t batch) {
    double highest = 0;
    for (const LinearFit& line : lines)
        highest = std::max(highest, line.at(static_cast<double>(batch)));
    return static_cast<int64_t>(std::llround(highest));
}

}  // namespace

std::optional<int64_t> MemoryCurve::highestAtBatch(const MemoryCurve& other, int64_t at,
                                                   int64_t other_at, int64_t batch) const {
    const auto lines = samplesOverBatch(other, at, other_at);
    if (!lines) {
        return std::nullopt;
    }
    return highestOf(*lines, batch);
}

std::optional<int64_t> MemoryCurve::largestBatchWithin(const MemoryCurve& other, int64_t at,
                                                       int64_t other_at, int64_t budget) const {
    const auto lines = samplesOverBatch(other, at, other_at);
    if (!lines) {
        return std::nullopt;
    }
    // Each sample that grows bounds the batch from above; the tightest bound is the answer,
    // checked against the rounded totals (a bound may fall a batch either side of it).
    std::optional<double> bound;
    for (const LinearFit& line : *lines)
        if (line.slope > 0) {
            const double most = (static_cast<double>(budget) - line.intercept) / line.slope;
            bound = std::min(bound.value_or(most), most);
        }
    if (!bound) {
        return std::nullopt;
    }
    int64_t largest = static_cast<int64_t>(std::clamp(std::floor(*bound), 0.0, 9e15));
    while (largest > 0 && highestOf(*lines, largest) > budget)
        --largest;
    while (largest < 9e15 && highestOf(*lines, largest + 1) <= budget)
        ++largest;
    return largest;
}

int64_t MemoryCurve::highestOutside(const std::string& phase) const {
    const std::vector<TimeSpan> spans = phaseSpans(phase);
    int64_t highest = 0;
    for (const MemorySample& sample : data_.memory)
        if (!within(sample.timestamp_ns, spans)) {
            highest = std::max(highest, sample.total_allocated);
        }
    return highest;
}

TimeSpan MemoryCurve::stepSpan() const {
    const int64_t first = data_.memory.empty() ? 0 : data_.memory.front().timestamp_ns;
    for (const TimelineStep& step : data_.steps)
        if (first >= step.start_ns && first <= step.end_ns) {
            return {step.start_ns, step.end_ns};
        }
    return {first, data_.memory.empty() ? 0 : data_.memory.back().timestamp_ns};
}

std::vector<TimeSpan> MemoryCurve::phaseSpans(const std::string& phase) const {
    std::vector<TimeSpan> spans;
    for (const TimelinePhase& p : data_.phases)
        if (p.name == phase) {
            spans.push_back({p.start_ns, p.end_ns});
        }
    return mergedSpans(std::move(spans));
}

int64_t MemoryCurve::phaseStart(const std::string& phase) const {
    const std::vector<TimeSpan> spans = phaseSpans(phase);
    return spans.empty() ? stepSpan().end_ns : spans.front().start_ns;
}

bool MemoryCurve::inPhase(int64_t time_ns, const std::string& phase) const {
    for (const TimelinePhase& p : data_.phases)
        if (p.name == phase && time_ns >= p.start_ns && time_ns <= p.end_ns) {
            return true;
        }
    return false;
}

std::vector<TimeSpan> MemoryCurve::calls(const std::string& name, bool prefix) const {
    const TimeSpan step = stepSpan();
    std::vector<TimeSpan> found;
    for (const TimelineLane& lane : data_.lanes) {
        if (lane.kind != LaneKind::Thread) {
            continue;
        }
        for (const TimelineSpan& span : lane.spans) {
            if (span.start_ns < step.start_ns || span.start_ns > step.end_ns ||
                span.name == kNoString) {
                continue;
            }
            const std::string& text = data_.text(span.name);
            if (prefix ? text.compare(0, name.size(), name) == 0 : text == name) {
                found.push_back({span.start_ns, span.end_ns});
            }
        }
    }
    std::stable_sort(found.begin(), found.end(),
                     [](const TimeSpan& a, const TimeSpan& b) { return a.start_ns < b.start_ns; });
    return found;
}

std::vector<TimeSpan> MemoryCurve::moduleCalls(const std::string& module, bool within_module,
                                               bool backward, const std::string& name) const {
    std::vector<TimeSpan> found;
    for (const TimelineLane& lane : data_.lanes) {
        if (lane.kind != LaneKind::Thread) {
            continue;
        }
        for (const TimelineSpan& span : lane.spans) {
            if (span.backward_node != backward ||
                (!name.empty() && (span.name == kNoString || data_.text(span.name) != name))) {
                continue;
            }
            const std::string path =
                span.module == kNoString ? std::string() : data_.text(span.module);
            const bool in = module.empty()  ? path.empty()
                            : within_module ? withinModule(path, module)
                                            : path == module;
            if (in) {
                found.push_back(backward ? aroundBackwardNode(data_, lane, span)
                                         : TimeSpan{span.start_ns, span.end_ns});
            }
        }
    }
    std::sort(found.begin(), found.end(), [](const TimeSpan& a, const TimeSpan& b) {
        return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
    });
    return found;
}

std::vector<CurveBlock> MemoryCurve::blocks() const {
    std::vector<CurveBlock> all;
    all.reserve(data_.blocks.size());
    for (const MemoryBlock& block : data_.blocks)
        all.push_back(curveBlock(block));
    return all;
}

std::vector<CurveBlock> MemoryCurve::blocksMadeIn(const std::string& phase) const {
    std::vector<CurveBlock> made;
    for (const MemoryBlock& block : data_.blocks)
        if (inPhase(block.allocated_ns, phase)) {
            made.push_back(curveBlock(block));
        }
    return made;
}

std::vector<CurveBlock> MemoryCurve::forwardBlocks(int64_t bytes, bool by_release, int64_t start_ns,
                                                   int64_t end_ns) const {
    std::vector<CurveBlock> found;
    for (const MemoryBlock& block : data_.blocks) {
        if (block.size != bytes || !inPhase(block.allocated_ns, "forward")) {
            continue;
        }
        if (by_release && !block.freed()) {
            continue;
        }
        const int64_t time = by_release ? block.released_ns : block.allocated_ns;
        if (time >= start_ns && time <= end_ns) {
            found.push_back(curveBlock(block));
        }
    }
    return found;
}

double MemoryCurve::forwardMs(const std::string& module) const {
    double ms = 0.0;
    for (const auto& [path, forward] : forward_ms_)
        if (module.empty() ? !path.empty() : withinModule(path, module)) {
            ms += forward;
        }
    return ms;
}

}  // namespace trainscope
