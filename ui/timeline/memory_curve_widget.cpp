// SPDX-License-Identifier: Apache-2.0
#include "timeline/memory_curve_widget.h"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <optional>

#include "reading/sql_table_model.h"
#include "timeline/time_axis.h"

namespace trainscope::ui {
namespace {

constexpr int kTopMargin = 8;
constexpr int kBottomMargin = 18;

const QColor kRankColors[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xe1, 0x57, 0x59),
                              QColor(0x59, 0xa1, 0x4f), QColor(0xb0, 0x7a, 0xa1)};

}  // namespace

MemoryCurveWidget::Highest MemoryCurveWidget::highestOf(const MemorySample& s) {
    return {s.total_allocated, s.total_reserved, s.total_active};
}

void MemoryCurveWidget::Highest::take(const Highest& o) {
    allocated = std::max(allocated, o.allocated);
    reserved = std::max(reserved, o.reserved);
    active = std::max(active, o.active);
}

// The highest totals over the records [begin, end) and the one before them (a total holds
// until the next record).
MemoryCurveWidget::Highest MemoryCurveWidget::highestIn(int rank, size_t begin, size_t end) const {
    const std::vector<MemorySample>& samples = state_->ranks()[rank]->memory;
    const std::vector<Highest>& blocks = blocks_[rank];
    Highest highest = begin > 0 ? highestOf(samples[begin - 1]) : Highest{};
    size_t i = begin;
    for (; i < end && i % kBlock != 0; ++i)
        highest.take(highestOf(samples[i]));
    for (; i + kBlock <= end; i += kBlock)
        highest.take(blocks[i / kBlock]);
    for (; i < end; ++i)
        highest.take(highestOf(samples[i]));
    return highest;
}

MemoryCurveWidget::MemoryCurveWidget(TimelineViewState* state, QWidget* parent)
    : QWidget(parent), state_(state) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(tr("Click or drag to list the blocks alive at that moment"));
    connect(state_, &TimelineViewState::rangeChanged, this, qOverload<>(&QWidget::update));
    connect(state_, &TimelineViewState::momentChanged, this, qOverload<>(&QWidget::update));
    connect(state_, &TimelineViewState::ranksChanged, this, [this] {
        measure();
        update();
    });
    measure();
}

void MemoryCurveWidget::measure() {
    blocks_.clear();
    highest_ = 1;
    for (const auto& data : state_->ranks()) {
        std::vector<Highest>& blocks =
            blocks_.emplace_back((data->memory.size() + kBlock - 1) / kBlock);
        for (size_t i = 0; i < data->memory.size(); ++i) {
            blocks[i / kBlock].take(highestOf(data->memory[i]));
            highest_ = std::max(
                {highest_, data->memory[i].total_reserved, data->memory[i].total_allocated});
        }
    }
}

int MemoryCurveWidget::xOf(int64_t aligned_ns) const {
    return int(std::lround(TimeAxis(*state_, width()).toX(aligned_ns)));
}

void MemoryCurveWidget::paintEvent(QPaintEvent*) {
    QElapsedTimer timer;
    timer.start();
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const TimeAxis axis(*state_, width());
    const QRect plot(axis.left, kTopMargin, axis.width, height() - kTopMargin - kBottomMargin);
    const double bytes_per_pixel = double(highest_) / std::max(1, plot.height());

    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(4, kTopMargin, kGutterWidth - 10, 20), Qt::AlignRight | Qt::AlignTop,
                     formatBytes(highest_));
    painter.drawText(QRect(4, plot.bottom() - 16, kGutterWidth - 10, 18),
                     Qt::AlignRight | Qt::AlignBottom, formatBytes(0));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());
    std::vector<std::optional<QPointF>> peaks;
    for (int rank = 0; rank < state_->ranks().size(); ++rank)
        peaks.push_back(paintCurves(painter, rank, axis, plot, bytes_per_pixel));
    // The peaks over every curve: a later rank's curve would run through an earlier one's label.
    for (int rank = 0; rank < state_->ranks().size(); ++rank)
        if (peaks[rank])
            paintPeak(painter, rank, *peaks[rank], plot);
    painter.setPen(palette().color(QPalette::WindowText));
    drawTicks(painter, axis, plot.bottom(), plot.bottom() + 4, plot.bottom() + 15);

    // Legend.
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(4, plot.top() + 22, kGutterWidth - 10, 60),
                     Qt::AlignRight | Qt::AlignTop,
                     tr("allocated (filled)\nreserved (line)\nactive (dotted)"));
    drawMoment(painter, axis, state_->moment(), 0, height());
    last_paint_ms_ = double(timer.nsecsElapsed()) / 1e6;
}

std::optional<QPointF> MemoryCurveWidget::paintCurves(QPainter& painter, int rank,
                                                      const TimeAxis& axis, const QRect& plot,
                                                      double bytes_per_pixel) {
    const TimelineData& data = *state_->ranks()[rank];
    const std::vector<MemorySample>& samples = data.memory;
    if (samples.empty())
        return std::nullopt;
    const int64_t offset = data.alignment_ns();
    auto yOf = [&](int64_t bytes) { return plot.bottom() - double(bytes) / bytes_per_pixel; };
    auto column = [&](int x) {
        const int64_t t = axis.fromX(x) + offset;
        return size_t(
            std::lower_bound(samples.begin(), samples.end(), t,
                             [](const MemorySample& s, int64_t v) { return s.timestamp_ns < v; }) -
            samples.begin());
    };
    // Per column: the highest total within it. Columns before the first record stay empty.
    const int first_x =
        std::max(plot.left(), int(std::floor(axis.toX(samples.front().timestamp_ns - offset))));
    const int last_x = std::min(plot.right(), int(std::ceil(axis.toX(data.last_ns - offset))));
    if (last_x < first_x)
        return std::nullopt;
    QPolygonF allocated, reserved, active;
    allocated << QPointF(first_x, plot.bottom());
    size_t begin = column(first_x);
    for (int x = first_x; x <= last_x; ++x) {
        const size_t end = column(x + 1);
        const Highest highest = highestIn(rank, begin, end);
        allocated << QPointF(x, yOf(highest.allocated));
        reserved << QPointF(x, yOf(highest.reserved));
        active << QPointF(x, yOf(highest.active));
        begin = end;
    }
    allocated << QPointF(last_x, plot.bottom());
    const QColor color = kRankColors[rank % 4];
    painter.setPen(Qt::NoPen);
    QColor fill = color;
    fill.setAlpha(state_->ranks().size() > 1 ? 60 : 110);
    painter.setBrush(fill);
    painter.drawPolygon(allocated);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(color.darker(130), 1.5));
    painter.drawPolyline(reserved);
    painter.setPen(QPen(color.darker(160), 1, Qt::DotLine));
    painter.drawPolyline(active);
    // Where the peak is, when it is in view: paintPeak() marks it over every rank's curves.
    const MemorySample& peak = samples[data.peak_sample];
    const double x = axis.toX(peak.timestamp_ns - offset);
    if (x < plot.left() || x > plot.right())
        return std::nullopt;
    return QPointF(x, yOf(peak.total_allocated));
}

// The peak of a rank at `top`: a marker and its figure.
void MemoryCurveWidget::paintPeak(QPainter& painter, int rank, QPointF top, const QRect& plot) {
    const TimelineData& data = *state_->ranks()[rank];
    const int64_t bytes = data.memory[data.peak_sample].total_allocated;
    painter.setPen(QPen(markColor(), 1.5));
    painter.setBrush(markColor());
    painter.drawEllipse(top, 3.5, 3.5);
    // Several ranks' peaks lie close: each label names its rank, one line below the last.
    const int ranks = int(state_->ranks().size());
    const QString label =
        ranks > 1
            ? tr("rank %1: peak %2").arg(data.rank >= 0 ? data.rank : rank).arg(formatBytes(bytes))
            : tr("peak %1").arg(formatBytes(bytes));
    const QFontMetrics metrics = painter.fontMetrics();
    const int text_width = metrics.horizontalAdvance(label);
    const double text_x =
        top.x() + 6 + text_width > plot.right() ? top.x() - 6 - text_width : top.x() + 6;
    const double baseline =
        std::max(double(plot.top() + 12), top.y() + 4) + (ranks > 1 ? rank * metrics.height() : 0);
    // On a backing of the plot's colour: the curve's top edge runs through the label.
    QColor backing = palette().color(QPalette::Base);
    backing.setAlpha(210);
    painter.fillRect(
        QRectF(text_x - 2, baseline - metrics.ascent(), text_width + 4, metrics.height()), backing);
    painter.drawText(QPointF(text_x, baseline), label);
}

void MemoryCurveWidget::chooseMoment(int x) {
    if (x < kGutterWidth)
        return;
    state_->setMoment(TimeAxis(*state_, width()).fromX(x));
}

void MemoryCurveWidget::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton)
        chooseMoment(int(event->position().x()));
}

void MemoryCurveWidget::mouseMoveEvent(QMouseEvent* event) {
    if (event->buttons() & Qt::LeftButton)
        chooseMoment(int(event->position().x()));
}

void MemoryCurveWidget::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || event->position().x() < kGutterWidth)
        return;
    state_->zoom(std::pow(1.25, steps), TimeAxis(*state_, width()).fromX(event->position().x()));
}

}  // namespace trainscope::ui
