// SPDX-License-Identifier: Apache-2.0
// What the timeline and the memory curve share so that they line up: the gutter at the left,
// the mapping between aligned ns and x, the ruler's ticks and the colours of call categories.
#pragma once

#include <QColor>
#include <QString>
#include <QVector>
#include <cstdint>
#include <optional>

#include "trainscope/timeline_data.h"

class QPainter;

namespace trainscope::ui {

class TimelineViewState;

constexpr int kGutterWidth = 170;  // lane labels; the memory curve's axis labels

struct TimeAxis {
    int64_t start = 0, end = 1;  // aligned ns at x = left and x = left + width
    int left = kGutterWidth;
    int width = 1;

    TimeAxis(const TimelineViewState& state, int widget_width);
    double nsPerPixel() const { return double(end - start) / double(width); }
    double toX(int64_t ns) const { return left + double(ns - start) / nsPerPixel(); }
    int64_t fromX(double x) const { return start + int64_t((x - left) * nsPerPixel()); }
};

struct Tick {
    int64_t ns;
    QString label;
};
// Ruler ticks at 1, 2 or 5 × 10^k ns, at least `spacing` pixels apart; the one at 0 reads "0".
QVector<Tick> ticksOf(const TimeAxis& axis, int spacing = 90);
// "12.345 ms", "850.000 µs", "120 ns": a duration in the unit that reads best, with three
// decimals as the other tabs' times have.
QString formatDuration(int64_t ns);
// "2 ms", "2.5 ms": a round tick of the ruler, as short as it is.
QString tickLabel(int64_t ns);

// What draws the eye: the peak, the moment, the partners of the selection, the slowest rank.
QColor markColor();

// The ruler's ticks: a mark from y = mark_from to mark_to at each, its label at label_y unless
// the right edge would cut it.
void drawTicks(QPainter& painter, const TimeAxis& axis, double mark_from, double mark_to,
               double label_y);
// The chosen moment, when there is one in view: a dashed line from y = top to bottom.
void drawMoment(QPainter& painter, const TimeAxis& axis, const std::optional<int64_t>& moment,
                double top, double bottom);

}  // namespace trainscope::ui
