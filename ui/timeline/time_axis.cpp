// SPDX-License-Identifier: Apache-2.0
#include "timeline/time_axis.h"

#include <QFontMetrics>
#include <QLocale>
#include <QObject>
#include <QPainter>
#include <cmath>

#include "timeline/timeline_view_state.h"

namespace trainscope::ui {

TimeAxis::TimeAxis(const TimelineViewState& state, int widget_width)
    : start(state.viewStart()), end(state.viewEnd()), width(std::max(1, widget_width - left)) {}

QVector<Tick> ticksOf(const TimeAxis& axis, int spacing) {
    const double wanted = axis.nsPerPixel() * spacing;
    double step = std::pow(10.0, std::floor(std::log10(std::max(wanted, 1.0))));
    for (const double multiple : {1.0, 2.0, 5.0, 10.0}) {
        if (step * multiple >= wanted) {
            step *= multiple;
            break;
        }
    }
    const auto whole = int64_t(step);
    QVector<Tick> ticks;
    int64_t ns = axis.start >= 0 ? (axis.start + whole - 1) / whole * whole
                                 : -((-axis.start) / whole * whole);
    for (; ns <= axis.end && ticks.size() < 1000; ns += whole)
        ticks.push_back({ns, ns == 0 ? QStringLiteral("0") : tickLabel(ns)});
    return ticks;
}

// A time in ms or µs with `format` and `precision` (QLocale::toString's), or in ns.
QString durationText(int64_t ns, char format, int precision) {
    const double magnitude = std::fabs(double(ns));
    if (magnitude >= 1e6)
        return QObject::tr("%1 ms").arg(QLocale().toString(double(ns) / 1e6, format, precision));
    if (magnitude >= 1e3)
        return QObject::tr("%1 µs").arg(QLocale().toString(double(ns) / 1e3, format, precision));
    return QObject::tr("%1 ns").arg(ns);
}

QString tickLabel(int64_t ns) {
    return durationText(ns, 'g', 6);  // a round tick as short as it is: "2 ms", "2.5 ms"
}

QString formatDuration(int64_t ns) {
    return durationText(ns, 'f', 3);  // three decimals, as the other tabs' times have
}

QColor markColor() {
    return QColor(0xd6, 0x27, 0x28);
}

void drawTicks(QPainter& painter, const TimeAxis& axis, double mark_from, double mark_to,
               double label_y) {
    const double right = axis.left + axis.width;
    for (const Tick& tick : ticksOf(axis)) {
        const double x = axis.toX(tick.ns);
        painter.drawLine(QPointF(x, mark_from), QPointF(x, mark_to));
        // A label that would be cut at the right edge is left out: "1" for "14 ms" misleads.
        if (x + 3 + painter.fontMetrics().horizontalAdvance(tick.label) <= right)
            painter.drawText(QPointF(x + 3, label_y), tick.label);
    }
}

void drawMoment(QPainter& painter, const TimeAxis& axis, const std::optional<int64_t>& moment,
                double top, double bottom) {
    if (!moment)
        return;
    const double x = axis.toX(*moment);
    if (x < axis.left)
        return;
    painter.setPen(QPen(markColor(), 1, Qt::DashLine));
    painter.drawLine(QPointF(x, top), QPointF(x, bottom));
}

}  // namespace trainscope::ui
