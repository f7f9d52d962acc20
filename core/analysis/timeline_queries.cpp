// SPDX-License-Identifier: Apache-2.0
// The queries that the timeline views ask of a loaded timeline (trainscope/timeline_data.h):
// binary searches over the lanes' sorted rows, so that they stay fast at a million calls.
#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "trainscope/timeline_data.h"

namespace trainscope {

const std::string& TimelineData::text(int32_t index) const {
    static const std::string none;
    return index >= 0 && size_t(index) < strings.size() ? strings[size_t(index)] : none;
}

size_t firstSpanEndingAfter(const TimelineLane& lane, int depth, int64_t time_ns) {
    if (depth < 0 || depth >= lane.depths()) {
        return lane.spans.size();
    }
    const auto begin = lane.spans.begin() + std::ptrdiff_t(lane.depth_begin[size_t(depth)]);
    const auto end = lane.spans.begin() + std::ptrdiff_t(lane.depth_begin[size_t(depth) + 1]);
    // Spans of one depth do not overlap, so their ends rise with their starts.
    const auto it = std::lower_bound(
        begin, end, time_ns, [](const TimelineSpan& span, int64_t t) { return span.end_ns < t; });
    return size_t(it - lane.spans.begin());
}

SpanRef spanAt(const TimelineData& data, int lane_index, int depth, int64_t time_ns) {
    if (lane_index < 0 || size_t(lane_index) >= data.lanes.size()) {
        return {};
    }
    const TimelineLane& lane = data.lanes[size_t(lane_index)];
    const size_t i = firstSpanEndingAfter(lane, depth, time_ns);
    if (i >= lane.depth_begin[size_t(depth) + 1] || lane.spans[i].start_ns > time_ns) {
        return {};
    }
    return {lane_index, int32_t(i)};
}

std::vector<SpanRef> linkedSpans(const TimelineData& data, SpanRef ref) {
    std::vector<SpanRef> linked;
    if (!ref.valid()) {
        return linked;
    }
    const int64_t connection = data.span(ref).connection;
    if (connection < 0) {
        return linked;
    }
    auto links = std::equal_range(data.links.begin(), data.links.end(),
                                  std::make_pair(connection, INT64_MIN),
                                  [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto link = links.first; link != links.second; ++link) {
        auto spans =
            std::equal_range(data.by_connection.begin(), data.by_connection.end(),
                             std::make_pair(link->second, SpanRef{}),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
        for (auto span = spans.first; span != spans.second; ++span) {
            if (span->second != ref) {
                linked.push_back(span->second);
            }
        }
    }
    // By start, then by place: a total order, so that unique() meets every repeat.
    std::sort(linked.begin(), linked.end(), [&](SpanRef a, SpanRef b) {
        return std::make_tuple(data.span(a).start_ns, a.lane, a.index) <
               std::make_tuple(data.span(b).start_ns, b.lane, b.index);
    });
    linked.erase(std::unique(linked.begin(), linked.end()), linked.end());
    return linked;
}

SpanRef allocatingCall(const TimelineData& data, const MemoryBlock& block) {
    for (size_t l = 0; l < data.lanes.size(); ++l) {
        const TimelineLane& lane = data.lanes[l];
        if (lane.kind != LaneKind::Thread) {
            continue;
        }
        for (int depth = lane.depths() - 1; depth >= 0; --depth) {
            const SpanRef ref = spanAt(data, int(l), depth, block.allocated_ns);
            if (ref.valid() && data.span(ref).name == block.name) {
                return ref;
            }
        }
    }
    return {};
}

std::vector<LiveBlockGroup> liveBlocksAt(const TimelineData& data, int64_t time_ns) {
    // Blocks are in allocation order: those allocated later are not alive yet.
    const auto allocated_after = std::upper_bound(
        data.blocks.begin(), data.blocks.end(), time_ns,
        [](int64_t t, const MemoryBlock& block) { return t < block.allocated_ns; });
    std::map<std::pair<int32_t, int32_t>, LiveBlockGroup> groups;
    for (auto it = data.blocks.begin(); it != allocated_after; ++it) {
        if (it->released_ns <= time_ns) {
            continue;
        }
        const SpanRef call = allocatingCall(data, *it);
        const int32_t module = call.valid() ? data.span(call).module : kNoString;
        LiveBlockGroup& group = groups[{it->name, module}];
        group.operation = it->name;
        group.module = module;
        group.bytes += it->size;
        group.blocks.push_back({size_t(it - data.blocks.begin()), call});
    }
    std::vector<LiveBlockGroup> result;
    for (auto& entry : groups) {
        LiveBlockGroup& group = entry.second;
        std::stable_sort(group.blocks.begin(), group.blocks.end(),
                         [&](const LiveBlock& a, const LiveBlock& b) {
                             return data.blocks[a.block].size > data.blocks[b.block].size;
                         });
        result.push_back(std::move(group));
    }
    std::stable_sort(
        result.begin(), result.end(),
        [](const LiveBlockGroup& a, const LiveBlockGroup& b) { return a.bytes > b.bytes; });
    return result;
}

SpanRef topLevelForwardCall(const TimelineData& data, int64_t ordinal) {
    if (data.lanes.empty() || ordinal < 0) {
        return {};
    }
    // The forward thread's lane is the first: its calls come first in the file.
    const TimelineLane& lane = data.lanes.front();
    int64_t seen = 0;
    for (size_t i = 0; lane.depths() > 0 && i < lane.depth_begin[1]; ++i) {
        if (lane.spans[i].category == SpanCategory::Forward && seen++ == ordinal) {
            return {0, int32_t(i)};
        }
    }
    return {};
}

namespace {

// The ordinal of the top-level forward call holding `ref` on the forward thread's lane, or -1.
int64_t enclosingForwardOrdinal(const TimelineData& data, SpanRef ref) {
    if (ref.lane != 0) {
        return -1;
    }
    const SpanRef top = spanAt(data, 0, 0, data.span(ref).start_ns);
    if (!top.valid() || data.span(top).category != SpanCategory::Forward) {
        return -1;
    }
    const TimelineLane& lane = data.lanes.front();
    return std::count_if(lane.spans.begin(), lane.spans.begin() + top.index,
                         [](const TimelineSpan& s) { return s.category == SpanCategory::Forward; });
}

}  // namespace

int64_t forwardCallOrdinal(const TimelineData& data, SpanRef ref) {
    if (!ref.valid() || data.lanes.empty() || data.lanes.front().depths() == 0) {
        return -1;
    }
    const int64_t ordinal = enclosingForwardOrdinal(data, ref);
    if (ordinal >= 0) {
        return ordinal;
    }
    // A backward node (on the autograd thread, or on the forward thread after the forward
    // pass): its forward call's.
    for (const SpanRef linked : linkedSpans(data, ref)) {
        const int64_t linked_ordinal = enclosingForwardOrdinal(data, linked);
        if (linked_ordinal >= 0) {
            return linked_ordinal;
        }
    }
    return -1;
}

std::pair<int64_t, int64_t> forwardCallsIn(const TimelineData& data, int64_t start_ns,
                                           int64_t end_ns) {
    std::pair<int64_t, int64_t> found{-1, -1};
    if (data.lanes.empty() || data.lanes.front().depths() == 0) {
        return found;
    }
    const TimelineLane& lane = data.lanes.front();
    int64_t ordinal = 0;
    for (size_t i = 0; i < lane.depth_begin[1]; ++i) {
        const TimelineSpan& span = lane.spans[i];
        if (span.category != SpanCategory::Forward) {
            continue;
        }
        if (span.end_ns >= start_ns && span.start_ns <= end_ns) {
            found.first = found.first < 0 ? ordinal : found.first;
            found.second = ordinal;
        }
        ++ordinal;
    }
    return found;
}

std::vector<bool> namesContaining(const TimelineData& data, const std::string& needle) {
    auto lower = [](std::string text) {
        for (char& c : text) {
            c = char(std::tolower(static_cast<unsigned char>(c)));
        }
        return text;
    };
    const std::string wanted = lower(needle);
    std::vector<bool> matches(data.strings.size());
    for (size_t i = 0; i < data.strings.size(); ++i) {
        matches[i] = !wanted.empty() && lower(data.strings[i]).find(wanted) != std::string::npos;
    }
    return matches;
}

std::vector<SpanRef> findSpans(const TimelineData& data, const std::string& needle) {
    // Which names match, decided once per distinct string.
    const std::vector<bool> matches = namesContaining(data, needle);
    std::vector<SpanRef> found;
    for (size_t l = 0; l < data.lanes.size(); ++l) {
        const std::vector<TimelineSpan>& spans = data.lanes[l].spans;
        for (size_t i = 0; i < spans.size(); ++i) {
            if (spans[i].name >= 0 && matches[size_t(spans[i].name)]) {
                found.push_back({int32_t(l), int32_t(i)});
            }
        }
    }
    std::stable_sort(found.begin(), found.end(), [&](SpanRef a, SpanRef b) {
        return data.span(a).start_ns < data.span(b).start_ns;
    });
    return found;
}

}  // namespace trainscope
