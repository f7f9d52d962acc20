// SPDX-License-Identifier: Apache-2.0
// Memory over time, on the timeline's axis: allocated (filled), reserved and active bytes of
// each rank, with the peak marked. Clicking or dragging chooses the moment whose live blocks
// the page lists. Each pixel column draws the highest total within it, so a million records
// cost one pass over the visible ones.
#pragma once

#include <QPointF>
#include <QWidget>
#include <optional>

#include "timeline/timeline_view_state.h"

namespace trainscope::ui {

struct TimeAxis;

class MemoryCurveWidget : public QWidget {
    Q_OBJECT
  public:
    explicit MemoryCurveWidget(TimelineViewState* state, QWidget* parent = nullptr);

    QSize sizeHint() const override { return {900, 170}; }
    QSize minimumSizeHint() const override { return {400, 110}; }
    // Where the moment `aligned_ns` is drawn (x), for tests.
    int xOf(int64_t aligned_ns) const;
    double lastPaintMs() const { return last_paint_ms_; }

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

  private:
    void measure();  // the ranks' blocks of records and the top of the scale
    // Draws a rank's curves; returns where its peak is, when in view.
    std::optional<QPointF> paintCurves(QPainter& painter, int rank, const TimeAxis& axis,
                                       const QRect& plot, double bytes_per_pixel);
    void paintPeak(QPainter& painter, int rank, QPointF top, const QRect& plot);
    void chooseMoment(int x);

    // The highest totals of each run of kBlock records, per rank: a column spanning many
    // records reads their blocks' maxima instead of every record.
    struct Highest {
        int64_t allocated = 0, reserved = 0, active = 0;
        void take(const Highest& o);
    };
    static constexpr size_t kBlock = 64;
    static Highest highestOf(const MemorySample& sample);
    Highest highestIn(int rank, size_t begin, size_t end) const;

    TimelineViewState* state_;
    QVector<std::vector<Highest>> blocks_;
    int64_t highest_ = 1;  // the top of the scale: the highest reserved total of any rank
    double last_paint_ms_ = 0;
};

}  // namespace trainscope::ui
