// SPDX-License-Identifier: Apache-2.0
// The state that every view of a timeline follows (hotspot's FilterAndZoomStack is the model):
// the visible time range, the selected call and the chosen moment. Views change it through its
// setters and repaint on its signals, so the timeline and the memory curve stay on one axis.
//
// Times are "aligned": ns since the rank's alignment point (its first step's start), so that
// several ranks line up at the step.
#pragma once

#include <QObject>
#include <QVector>
#include <memory>
#include <optional>

#include "trainscope/timeline_data.h"

namespace trainscope::ui {

// The timelines shown together: one per rank (one file each).
using TimelineRanks = QVector<std::shared_ptr<const TimelineData>>;

struct RankedSpan {
    int rank = -1;
    SpanRef span;
    bool valid() const { return rank >= 0 && span.valid(); }
    bool operator==(const RankedSpan& o) const { return rank == o.rank && span == o.span; }
    bool operator!=(const RankedSpan& o) const { return !(*this == o); }
};

class TimelineViewState : public QObject {
    Q_OBJECT
  public:
    explicit TimelineViewState(QObject* parent = nullptr);

    // Each rank is shown expanded (its calls, memory and blocks: its whole file) or collapsed
    // (its title alone: its data holds its steps and extent, so that a job of many ranks holds
    // one or a few whole). `expanded` empty: every rank is.
    void setRanks(const TimelineRanks& ranks, const QVector<bool>& expanded = {});
    const TimelineRanks& ranks() const { return ranks_; }
    bool isExpanded(int rank) const { return expanded_.value(rank); }
    // One rank's data replaced: its whole file when expanded, its outline when collapsed. The
    // visible range stays; a selection in that rank is dropped.
    void setRank(int rank, std::shared_ptr<const TimelineData> data, bool expanded);
    int64_t toAligned(int rank, int64_t epoch_ns) const;

    // The range of every rank's data, aligned.
    int64_t fullStart() const { return full_start_; }
    int64_t fullEnd() const { return full_end_; }
    int64_t viewStart() const { return view_start_; }
    int64_t viewEnd() const { return view_end_; }
    // Clamped to the data and to a smallest width of 100 ns.
    void setVisibleRange(int64_t start, int64_t end);
    // Zooms by `factor` (> 1: in) keeping `anchor` where it is on screen.
    void zoom(double factor, int64_t anchor);
    void fit() { setVisibleRange(full_start_, full_end_); }
    // Shows the call with a margin, keeping the zoom when it fits.
    void reveal(const RankedSpan& span);
    // Zooms to the call, with a tenth of its duration on each side.
    void zoomTo(const RankedSpan& span);

    const RankedSpan& selection() const { return selection_; }
    void select(const RankedSpan& span);
    // The calls linked to the selection (forward/backward partners, device work).
    const QVector<RankedSpan>& partners() const { return partners_; }

    const std::optional<int64_t>& moment() const { return moment_; }
    void setMoment(std::optional<int64_t> aligned_ns);
    // The moment of the highest allocated total (of the first rank with memory records).
    std::optional<int64_t> peakMoment() const;

    // Calls whose name lacks `text` are drawn faded (the run filter's name); empty: none is.
    void setNameFilter(const QString& text);
    bool isFaded(int rank, int32_t name) const {
        return !name_filter_.isEmpty() && name >= 0 && !matching_names_[rank][size_t(name)];
    }

  signals:
    void ranksChanged();  // by setRank(): what the views drew of that rank is gone
    void rangeChanged();
    void selectionChanged();
    void momentChanged();
    void nameFilterChanged();

  private:
    void matchNames();  // for the name filter, per rank
    void measureFullRange();
    TimelineRanks ranks_;
    QVector<bool> expanded_;
    int64_t full_start_ = 0, full_end_ = 1;
    int64_t view_start_ = 0, view_end_ = 1;
    RankedSpan selection_;
    QVector<RankedSpan> partners_;
    std::optional<int64_t> moment_;
    QString name_filter_;
    QVector<std::vector<bool>> matching_names_;  // per rank, per string: when filtered
};

}  // namespace trainscope::ui
