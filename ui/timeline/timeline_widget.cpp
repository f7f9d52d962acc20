// SPDX-License-Identifier: Apache-2.0
#include "timeline/timeline_widget.h"

#include <QElapsedTimer>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <utility>

#include "reading/sql_table_model.h"
#include "settings/theme.h"
#include "timeline/time_axis.h"
#include "trainscope/report_reading.h"

namespace trainscope::ui {
namespace {

constexpr int kRulerHeight = 22;
constexpr int kStepBandHeight = 18;
constexpr int kHeaderHeight = 20;  // a rank's title, when there are several
constexpr int kRowHeight = 18;
constexpr int kLaneGap = 4;

int64_t stepTime(const TimelineData& data) {
    return data.steps.empty() ? data.last_ns - data.first_ns : stepDuration(data.steps.front());
}

}  // namespace

TimelineWidget::TimelineWidget(TimelineViewState* state, QWidget* parent)
    : QWidget(parent), state_(state) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(state_, &TimelineViewState::rangeChanged, this, qOverload<>(&QWidget::update));
    connect(state_, &TimelineViewState::selectionChanged, this, qOverload<>(&QWidget::update));
    connect(state_, &TimelineViewState::nameFilterChanged, this, qOverload<>(&QWidget::update));
    connect(state_, &TimelineViewState::momentChanged, this, qOverload<>(&QWidget::update));
    connect(state_, &TimelineViewState::ranksChanged, this, [this] {
        rebuildRows();
        update();
    });
    rebuildRows();
}

void TimelineWidget::rebuildRows() {
    rows_.clear();
    headers_.clear();
    int y = kRulerHeight + kStepBandHeight;
    const TimelineRanks& ranks = state_->ranks();
    int64_t slowest = -1;
    for (int rank = 0; rank < ranks.size(); ++rank) {
        if (ranks.size() > 1) {
            headers_.push_back({rank, y});
            y += kHeaderHeight;
            if (stepTime(*ranks[rank]) > slowest) {
                slowest = stepTime(*ranks[rank]);
                slowest_rank_ = rank;
            }
        }
        if (!state_->isExpanded(rank))
            continue;
        const std::vector<TimelineLane>& lanes = ranks[rank]->lanes;
        for (int lane = 0; lane < int(lanes.size()); ++lane) {
            for (int depth = 0; depth < std::max(1, lanes[size_t(lane)].depths()); ++depth) {
                rows_.push_back({rank, lane, depth, y});
                y += kRowHeight;
            }
            y += kLaneGap;
        }
    }
    height_ = y;
    updateGeometry();
}

QSize TimelineWidget::sizeHint() const {
    return {900, height_};
}

QSize TimelineWidget::minimumSizeHint() const {
    return {kGutterWidth + 200, height_};
}

const TimelineWidget::Row* TimelineWidget::rowAt(int y) const {
    auto it = std::upper_bound(rows_.begin(), rows_.end(), y,
                               [](int value, const Row& row) { return value < row.y; });
    if (it == rows_.begin())
        return nullptr;
    --it;
    return y < it->y + kRowHeight ? &*it : nullptr;
}

const TimelineWidget::Header* TimelineWidget::headerAt(int y) const {
    if (y < visibleTop() + kRulerHeight + kStepBandHeight)
        return nullptr;  // the ruler and step band, over the titles scrolled under them
    for (const Header& header : headers_)
        if (y >= header.y && y < header.y + kHeaderHeight)
            return &header;
    return nullptr;
}

QPoint TimelineWidget::titlePoint(int rank) const {
    for (const Header& header : headers_)
        if (header.rank == rank)
            return {kGutterWidth / 2, header.y + kHeaderHeight / 2};
    return {};
}

void TimelineWidget::setReading(int rank, bool reading) {
    reading_.removeAll(rank);
    if (reading)
        reading_ << rank;
    update();
}

void TimelineWidget::paintEvent(QPaintEvent* event) {
    QElapsedTimer timer;
    timer.start();
    if (rows_.isEmpty() && !state_->ranks().isEmpty())
        rebuildRows();
    QPainter painter(this);
    painter.fillRect(event->rect(), palette().base());
    const TimeAxis axis(*state_, width());
    const QRect dirty = event->rect();
    for (const Row& row : rows_) {
        if (row.y + kRowHeight < dirty.top() || row.y > dirty.bottom())
            continue;
        paintRow(painter, row, axis);
    }
    if (state_->selection().valid()) {
        for (const RankedSpan& partner : state_->partners())
            outline(painter, partner, axis, markColor());
        outline(painter, state_->selection(), axis, palette().color(QPalette::Highlight));
    }
    const int top = visibleTop();
    drawMoment(painter, axis, state_->moment(), top + kRulerHeight, height());
    paintHeaders(painter);
    painter.save();
    painter.translate(0, top);
    paintRuler(painter, axis);
    painter.restore();
    if (banding_) {
        const int x0 = std::min(press_.x(), band_x_), x1 = std::max(press_.x(), band_x_);
        painter.fillRect(QRect(x0, 0, x1 - x0, height()), QColor(0x4e, 0x79, 0xa7, 50));
    }
    last_paint_ms_ = double(timer.nsecsElapsed()) / 1e6;
}

int TimelineWidget::visibleTop() const {
    return std::max(0, -y());  // in a scroll area, the widget moves up as it scrolls
}

void TimelineWidget::moveEvent(QMoveEvent* event) {
    QWidget::moveEvent(event);
    update();  // the ruler's pixels moved with the rows: drawn again at the new top
}

QString TimelineWidget::laneLabel(const TimelineLane& lane) {
    // The ids that users see in their own tools.
    switch (lane.kind) {
        case LaneKind::Thread:
            return lane.python_stack ? tr("Python stack %1").arg(lane.tid)
                                     : tr("Thread %1").arg(lane.tid);
        case LaneKind::Cann:
            return tr("CANN %1").arg(lane.tid);
        case LaneKind::Device:
            return tr("Device %1 stream %2").arg(lane.device).arg(lane.tid);
    }
    return QString::fromStdString(lane.label);
}

// Calls of one depth, left to right. A call narrower than a pixel is drawn as that pixel, and
// the search resumes at the next pixel: the cost follows the pixels, not the calls.
void TimelineWidget::paintRow(QPainter& painter, const Row& row, const TimeAxis& axis) {
    const TimelineData& data = *state_->ranks()[row.rank];
    const TimelineLane& lane = data.lanes[size_t(row.lane)];
    if (row.depth == 0) {
        painter.setPen(palette().color(QPalette::Text));
        const QString label = laneLabel(lane);
        painter.drawText(QRect(4, row.y, kGutterWidth - 8, kRowHeight),
                         Qt::AlignVCenter | Qt::AlignLeft,
                         painter.fontMetrics().elidedText(label, Qt::ElideRight, kGutterWidth - 8));
    }
    if (lane.depths() == 0)
        return;
    const int64_t offset = data.alignment_ns();
    const size_t end = lane.depth_begin[size_t(row.depth) + 1];
    size_t i = firstSpanEndingAfter(lane, row.depth, axis.start + offset);
    const QFontMetrics metrics = painter.fontMetrics();
    painter.setPen(Qt::NoPen);
    const double right = axis.left + axis.width;
    while (i < end) {
        const TimelineSpan& span = lane.spans[i];
        const double x0 = std::max(double(axis.left), axis.toX(span.start_ns - offset));
        if (x0 >= right)
            break;
        const double x1 = std::min(right, axis.toX(span.end_ns - offset));
        QColor color = categoryColor(span.category);
        if (state_->isFaded(row.rank, span.name))
            color.setAlpha(45);  // left by the run filter: context, not content
        if (x1 - x0 < 1.0) {
            const double pixel = std::floor(x0);
            painter.fillRect(QRectF(pixel, row.y + 1, 1, kRowHeight - 2), color.darker(115));
            const size_t next =
                firstSpanEndingAfter(lane, row.depth, axis.fromX(pixel + 1) + offset);
            i = std::max(i + 1, next);
            continue;
        }
        const QRectF box(x0, row.y + 1, x1 - x0, kRowHeight - 2);
        painter.fillRect(box, color);
        if (box.width() > 30) {
            painter.setPen(color.alpha() < 255 ? palette().color(QPalette::PlaceholderText)
                                               : QColor(Qt::white));
            painter.drawText(box.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                             metrics.elidedText(QString::fromStdString(data.text(span.name)),
                                                Qt::ElideRight, int(box.width()) - 5));
            painter.setPen(Qt::NoPen);
        }
        ++i;
    }
}

const TimelineWidget::Row* TimelineWidget::rowOf(const RankedSpan& span) const {
    const int depth = state_->ranks()[span.rank]->span(span.span).depth;
    for (const Row& row : rows_) {
        if (row.rank == span.rank && row.lane == span.span.lane && row.depth == depth)
            return &row;
    }
    return nullptr;
}

void TimelineWidget::outline(QPainter& painter, const RankedSpan& span, const TimeAxis& axis,
                             const QColor& color) {
    const Row* row = rowOf(span);
    if (!row)
        return;
    const TimelineSpan& s = state_->ranks()[span.rank]->span(span.span);
    const double x0 = axis.toX(state_->toAligned(span.rank, s.start_ns));
    const double x1 = axis.toX(state_->toAligned(span.rank, s.end_ns));
    painter.setPen(QPen(color, 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(std::max(x0, double(axis.left)) - 1, row->y,
                            std::max(2.0, std::min(x1, double(width())) - x0) + 2, kRowHeight));
}

void TimelineWidget::paintRuler(QPainter& painter, const TimeAxis& axis) {
    painter.fillRect(QRect(0, 0, width(), kRulerHeight + kStepBandHeight), palette().window());
    painter.setPen(palette().color(QPalette::WindowText));
    drawTicks(painter, axis, kRulerHeight - 6, kRulerHeight, kRulerHeight - 8);
    painter.drawLine(0, kRulerHeight, width(), kRulerHeight);
    // The step band: each rank's steps (aligned, they coincide at their starts). Steps by
    // start; one narrower than a pixel is drawn as that pixel once, and only a step wide
    // enough for its label gets one: the cost follows the pixels, however many steps a file
    // holds.
    const TimelineRanks& ranks = state_->ranks();
    const QColor band_color(0x76, 0xb7, 0xb2, ranks.size() > 1 ? 90 : 160);
    const QFontMetrics metrics = painter.fontMetrics();
    for (int rank = 0; rank < ranks.size(); ++rank) {
        double drawn_up_to = -1;  // the right edge of the last pixel drawn
        for (const TimelineStep& step : ranks[rank]->steps) {
            const double start = axis.toX(state_->toAligned(rank, step.start_ns));
            if (start >= width())
                break;
            const double x0 = std::max({double(axis.left), start, drawn_up_to});
            const double x1 =
                std::min(double(width()), axis.toX(state_->toAligned(rank, step.end_ns)));
            if (x1 <= x0 || (x1 - x0 < 1.0 && std::floor(x0) < drawn_up_to))
                continue;
            const QRectF band(x0, kRulerHeight + 2, std::max(1.0, x1 - x0), kStepBandHeight - 4);
            painter.fillRect(band, band_color);
            drawn_up_to = std::max(x1, std::floor(x0) + 1);
            // The memory step is named as such: its time is not the timed iterations' (the
            // Overview's "Iteration"), since the memory meter ran with it. Several ranks' steps
            // coincide: their labels are drawn once, by number (each rank's title has its time).
            if (band.width() > 30 && (ranks.size() == 1 || rank == 0)) {
                const QString duration = formatDuration(stepDuration(step));
                const QString label =
                    ranks.size() > 1   ? (step.memory_step ? tr("Memory step %1").arg(step.id)
                                                           : tr("Step %1").arg(step.id))
                    : step.memory_step ? tr("Memory step %1 · %2").arg(step.id).arg(duration)
                                       : tr("Step %1 · %2").arg(step.id).arg(duration);
                painter.drawText(band.adjusted(4, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                                 metrics.elidedText(label, Qt::ElideRight, int(band.width()) - 4));
            }
        }
    }
    painter.drawText(QRect(4, 0, kGutterWidth - 8, kRulerHeight), Qt::AlignVCenter,
                     tr("from step start"));
}

void TimelineWidget::paintHeaders(QPainter& painter) {
    const QStringList titles = rankTitles();
    for (const Header& header : headers_) {
        const QRect box(0, header.y, width(), kHeaderHeight);
        painter.fillRect(box, palette().alternateBase());
        QFont bold = painter.font();
        bold.setBold(true);
        painter.save();
        painter.setFont(bold);
        painter.setPen(header.rank == slowest_rank_ ? markColor()
                                                    : palette().color(QPalette::Text));
        painter.drawText(box.adjusted(4, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                         titles.value(header.rank));
        painter.restore();
    }
}

QStringList TimelineWidget::rankTitles() const {
    QStringList titles;
    const TimelineRanks& ranks = state_->ranks();
    for (int rank = 0; ranks.size() > 1 && rank < ranks.size(); ++rank) {
        const TimelineData& data = *ranks[rank];
        const QString name =
            data.rank >= 0 ? tr("Rank %1").arg(data.rank) : tr("File %1").arg(rank + 1);
        QString title = tr("%1 — step %2").arg(name, formatDuration(stepTime(data)));
        if (rank == slowest_rank_)
            title += tr(" (slowest)");
        // A triangle as file trees have: pointing down at what is shown, right at what is not.
        const QString marker =
            state_->isExpanded(rank) ? QStringLiteral("▾ ") : QStringLiteral("▸ ");
        if (reading_.contains(rank))
            title += tr(" — reading its calls…");
        else if (!state_->isExpanded(rank))
            title += tr(" — click to show its calls");
        titles << marker + title;
    }
    return titles;
}

QPoint TimelineWidget::pointOf(const RankedSpan& span) const {
    const Row* row = span.valid() ? rowOf(span) : nullptr;
    if (!row)
        return {};
    const TimeAxis axis(*state_, width());
    const TimelineSpan& s = state_->ranks()[span.rank]->span(span.span);
    const double x0 =
        std::max(double(axis.left), axis.toX(state_->toAligned(span.rank, s.start_ns)));
    const double x1 =
        std::min(double(width() - 1), axis.toX(state_->toAligned(span.rank, s.end_ns)));
    if (x1 < x0)
        return {};
    return QPoint(int((x0 + x1) / 2), row->y + kRowHeight / 2);
}

RankedSpan TimelineWidget::spanAt(const QPoint& point) const {
    if (point.y() < visibleTop() + kRulerHeight + kStepBandHeight)
        return {};  // the ruler and step band, over the rows scrolled under them
    const Row* row = rowAt(point.y());
    if (!row || point.x() < kGutterWidth)
        return {};
    const TimeAxis axis(*state_, width());
    const TimelineData& data = *state_->ranks()[row->rank];
    const int64_t offset = data.alignment_ns();
    const SpanRef under =
        trainscope::spanAt(data, row->lane, row->depth, axis.fromX(point.x()) + offset);
    if (under.valid())
        return {row->rank, under};
    // A call narrower than a pixel: the first one within two pixels of the pointer.
    const TimelineLane& lane = data.lanes[size_t(row->lane)];
    const size_t i = firstSpanEndingAfter(lane, row->depth, axis.fromX(point.x() - 2) + offset);
    if (i < lane.depth_begin[size_t(row->depth) + 1] &&
        lane.spans[i].start_ns < axis.fromX(point.x() + 3) + offset)
        return {row->rank, {row->lane, int32_t(i)}};
    return {};
}

void TimelineWidget::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    press_ = event->position().toPoint();
    press_start_ = state_->viewStart();
    press_end_ = state_->viewEnd();
    dragging_ = false;
    banding_ = event->modifiers() & Qt::ShiftModifier;
    band_x_ = press_.x();
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QPoint at = event->position().toPoint();
    if (banding_) {
        band_x_ = at.x();
        update();
        return;
    }
    if (!dragging_ && (at - press_).manhattanLength() < 4)
        return;
    dragging_ = true;
    setCursor(Qt::ClosedHandCursor);
    const double ns_per_pixel =
        double(press_end_ - press_start_) / std::max(1, width() - kGutterWidth);
    const auto shift = int64_t(double(at.x() - press_.x()) * ns_per_pixel);
    state_->setVisibleRange(press_start_ - shift, press_end_ - shift);
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    unsetCursor();
    if (banding_) {
        banding_ = false;
        const TimeAxis axis(*state_, width());
        const int x0 = std::min(press_.x(), band_x_), x1 = std::max(press_.x(), band_x_);
        if (x1 - x0 > 3)
            state_->setVisibleRange(axis.fromX(x0), axis.fromX(x1));
        update();
        return;
    }
    if (!dragging_) {
        if (const Header* header = headerAt(event->position().toPoint().y())) {
            if (!std::exchange(double_clicked_, false))
                emit rankToggled(header->rank);
        } else {
            state_->select(spanAt(event->position().toPoint()));
        }
    }
    dragging_ = false;
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent* event) {
    // On a title, the first click toggled the rank; the second is no second toggle.
    double_clicked_ = headerAt(event->position().toPoint().y()) != nullptr;
    state_->zoomTo(spanAt(event->position().toPoint()));
}

void TimelineWidget::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || event->position().x() < kGutterWidth) {
        event->ignore();  // the scroll area scrolls the rows
        return;
    }
    const TimeAxis axis(*state_, width());
    state_->zoom(std::pow(1.25, steps), axis.fromX(event->position().x()));
    event->accept();
}

bool TimelineWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const RankedSpan span = spanAt(help->pos());
        if (const Header* header = headerAt(help->pos().y()))
            QToolTip::showText(help->globalPos(),
                               state_->isExpanded(header->rank)
                                   ? tr("Click to hide this rank's calls (its memory is freed)")
                                   : tr("Click to read and show this rank's calls"),
                               this);
        else if (span.valid())
            QToolTip::showText(help->globalPos(), tooltipOf(span), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

QString TimelineWidget::tooltipOf(const RankedSpan& span) const {
    const TimelineData& data = *state_->ranks()[span.rank];
    const TimelineSpan& s = data.span(span.span);
    auto text = [&](int32_t index) {
        // torch_npu separates list items with ';' + CRLF.
        return QString::fromStdString(data.text(index))
            .replace(QStringLiteral("\r\n"), QStringLiteral(" "))
            .toHtmlEscaped();
    };
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(text(s.name));
    lines << tr("Duration: %1").arg(formatDuration(s.end_ns - s.start_ns));
    lines << tr("Starts at %1").arg(formatDuration(state_->toAligned(span.rank, s.start_ns)));
    if (s.module != kNoString)
        lines << tr("Module: %1").arg(text(s.module));
    if (s.shapes != kNoString && !data.text(s.shapes).empty())
        lines << tr("Input shapes: %1").arg(text(s.shapes));
    if (s.dtypes != kNoString && !data.text(s.dtypes).empty())
        lines << tr("Input types: %1").arg(text(s.dtypes));
    if (s.sequence >= 0)
        lines << tr("Sequence number: %1").arg(s.sequence);
    return lines.join(QStringLiteral("<br>"));
}

}  // namespace trainscope::ui
