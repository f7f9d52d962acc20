// SPDX-License-Identifier: Apache-2.0
// The timeline: one block of rows per thread, CANN host row and device stream (several ranks one
// under another, aligned at the step), calls nested by depth and coloured by phase, under a
// ruler and the step band. Painted by hand with level of detail: calls narrower than a pixel
// merge into one pixel column, found by binary search, so a million calls paint in
// milliseconds at any zoom.
//
// Wheel: zoom around the pointer. Drag: pan. Shift+drag: zoom to the range. Click: select (the
// call's partners are outlined). Double-click: zoom to the call. Hover: a tooltip. Of several
// ranks, a click on a rank's title asks to expand or collapse it (rankToggled).
#pragma once

#include <QWidget>

#include "timeline/timeline_view_state.h"

namespace trainscope::ui {

struct TimeAxis;

class TimelineWidget : public QWidget {
    Q_OBJECT
  public:
    // A lane's name in the gutter, in the interface's language ("Thread 30569", "线程 30569").
    static QString laneLabel(const TimelineLane& lane);

    explicit TimelineWidget(TimelineViewState* state, QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // Where a call is drawn (the middle of its visible part), for tests and scrolling; a null
    // point when it is not in the visible range.
    QPoint pointOf(const RankedSpan& span) const;
    RankedSpan spanAt(const QPoint& point) const;
    // The rank with the longest step, when several are shown (-1 otherwise), and each rank's
    // title ("Rank 1 — step 12.3 ms (slowest)").
    int slowestRank() const { return slowest_rank_; }
    QStringList rankTitles() const;
    // Where rank `rank`'s title is drawn (a null point when there is none), for tests.
    QPoint titlePoint(int rank) const;
    // The page is reading the rank's whole file (after rankToggled): its title says so.
    void setReading(int rank, bool reading);

    // How long the last paint took (for the benchmark).
    double lastPaintMs() const { return last_paint_ms_; }

  signals:
    void rankToggled(int rank);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void moveEvent(QMoveEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool event(QEvent* event) override;

  private:
    struct Row {
        int rank = 0;
        int lane = 0;
        int depth = 0;
        int y = 0;
    };
    struct Header {
        int rank = 0;
        int y = 0;
    };
    void rebuildRows();
    // The first row of the widget that the scroll area shows: the ruler and the step band are
    // drawn there, so that they stay in place while the rows scroll under them.
    int visibleTop() const;
    const Row* rowAt(int y) const;
    const Header* headerAt(int y) const;
    const Row* rowOf(const RankedSpan& span) const;  // the row a call is drawn in
    void paintRow(QPainter& painter, const Row& row, const TimeAxis& axis);
    void paintRuler(QPainter& painter, const TimeAxis& axis);
    void paintHeaders(QPainter& painter);
    void outline(QPainter& painter, const RankedSpan& span, const TimeAxis& axis,
                 const QColor& color);
    QString tooltipOf(const RankedSpan& span) const;

    TimelineViewState* state_;
    QVector<Row> rows_;
    QVector<Header> headers_;
    int height_ = 0;
    int slowest_rank_ = -1;
    QVector<int> reading_;
    QPoint press_;
    int64_t press_start_ = 0, press_end_ = 0;
    bool dragging_ = false, banding_ = false;
    bool double_clicked_ = false;  // the release that ends a double-click toggles nothing
    int band_x_ = 0;
    double last_paint_ms_ = 0;
};

}  // namespace trainscope::ui
