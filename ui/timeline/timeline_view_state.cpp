// SPDX-License-Identifier: Apache-2.0
#include "timeline/timeline_view_state.h"

#include <algorithm>
#include <cmath>

namespace trainscope::ui {
namespace {

constexpr int64_t kSmallestRange = 100;  // ns: below that, nothing more is to be seen

// The linked calls outlined with a selection, the first by start: more than that are not told
// apart on screen, and each costs a search of the rows at every paint.
constexpr size_t kMostPartners = 1000;

}  // namespace

TimelineViewState::TimelineViewState(QObject* parent) : QObject(parent) {}

void TimelineViewState::setRanks(const TimelineRanks& ranks, const QVector<bool>& expanded) {
    ranks_ = ranks;
    expanded_ = expanded.isEmpty() ? QVector<bool>(ranks.size(), true) : expanded;
    expanded_.resize(ranks.size());
    matchNames();
    measureFullRange();
    selection_ = {};
    partners_.clear();
    moment_.reset();
    fit();
    emit selectionChanged();
    emit momentChanged();
}

void TimelineViewState::setRank(int rank, std::shared_ptr<const TimelineData> data, bool expanded) {
    if (rank < 0 || rank >= ranks_.size())
        return;
    ranks_[rank] = std::move(data);
    expanded_[rank] = expanded;
    matching_names_[rank] = namesContaining(*ranks_[rank], name_filter_.toStdString());
    const int64_t view_start = view_start_, view_end = view_end_;
    measureFullRange();
    view_start_ = view_end_ = 0;  // so that the range is set (and clamped) anew
    setVisibleRange(view_start, view_end);
    const bool selected_there =
        selection_.rank == rank ||
        std::any_of(partners_.begin(), partners_.end(),
                    [rank](const RankedSpan& partner) { return partner.rank == rank; });
    if (selected_there) {
        selection_ = {};
        partners_.clear();
    }
    emit ranksChanged();
    if (selected_there)
        emit selectionChanged();
    emit momentChanged();  // the blocks alive then are of the ranks shown
}

void TimelineViewState::measureFullRange() {
    bool any = false;
    for (int rank = 0; rank < ranks_.size(); ++rank) {
        const TimelineData& data = *ranks_[rank];
        if (data.first_ns == 0 && data.last_ns == 0)
            continue;
        const int64_t first = toAligned(rank, data.first_ns), last = toAligned(rank, data.last_ns);
        full_start_ = any ? std::min(full_start_, first) : first;
        full_end_ = any ? std::max(full_end_, last) : last;
        any = true;
    }
    if (full_end_ <= full_start_)
        full_end_ = full_start_ + kSmallestRange;
}

int64_t TimelineViewState::toAligned(int rank, int64_t epoch_ns) const {
    return epoch_ns - ranks_[rank]->alignment_ns();
}

void TimelineViewState::setVisibleRange(int64_t start, int64_t end) {
    if (end - start < kSmallestRange) {
        const int64_t middle = start + (end - start) / 2;
        start = middle - kSmallestRange / 2;
        end = start + kSmallestRange;
    }
    const int64_t width = std::min(end - start, full_end_ - full_start_);
    start = std::clamp(start, full_start_, full_end_ - width);
    end = start + width;
    if (start == view_start_ && end == view_end_)
        return;
    view_start_ = start;
    view_end_ = end;
    emit rangeChanged();
}

void TimelineViewState::zoom(double factor, int64_t anchor) {
    const double left = double(anchor - view_start_) / factor;
    const double right = double(view_end_ - anchor) / factor;
    setVisibleRange(anchor - int64_t(std::llround(left)), anchor + int64_t(std::llround(right)));
}

void TimelineViewState::reveal(const RankedSpan& span) {
    if (!span.valid())
        return;
    const TimelineSpan& s = ranks_[span.rank]->span(span.span);
    const int64_t start = toAligned(span.rank, s.start_ns), end = toAligned(span.rank, s.end_ns);
    const int64_t width = view_end_ - view_start_;
    if (end - start >= width / 2) {
        zoomTo(span);
        return;
    }
    const int64_t middle = start + (end - start) / 2;
    setVisibleRange(middle - width / 2, middle - width / 2 + width);
}

void TimelineViewState::zoomTo(const RankedSpan& span) {
    if (!span.valid())
        return;
    const TimelineSpan& s = ranks_[span.rank]->span(span.span);
    const int64_t start = toAligned(span.rank, s.start_ns), end = toAligned(span.rank, s.end_ns);
    const int64_t margin = (end - start) / 10 + 1;
    setVisibleRange(start - margin, end + margin);
}

void TimelineViewState::select(const RankedSpan& span) {
    if (span == selection_)
        return;
    selection_ = span;
    partners_.clear();
    if (span.valid()) {
        for (const SpanRef partner : linkedSpans(*ranks_[span.rank], span.span)) {
            if (size_t(partners_.size()) == kMostPartners)
                break;
            partners_.push_back({span.rank, partner});
        }
    }
    emit selectionChanged();
}

void TimelineViewState::setMoment(std::optional<int64_t> aligned_ns) {
    if (aligned_ns == moment_)
        return;
    moment_ = aligned_ns;
    emit momentChanged();
}

std::optional<int64_t> TimelineViewState::peakMoment() const {
    for (int rank = 0; rank < ranks_.size(); ++rank) {
        const TimelineData& data = *ranks_[rank];
        if (!data.memory.empty())
            return toAligned(rank, data.memory[data.peak_sample].timestamp_ns);
    }
    return std::nullopt;
}

void TimelineViewState::setNameFilter(const QString& text) {
    if (text == name_filter_)
        return;
    name_filter_ = text;
    matchNames();
    emit nameFilterChanged();
}

void TimelineViewState::matchNames() {
    matching_names_.clear();
    for (const auto& data : ranks_)
        matching_names_ << namesContaining(*data, name_filter_.toStdString());
}

}  // namespace trainscope::ui
