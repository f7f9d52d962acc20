// SPDX-License-Identifier: Apache-2.0
#include "views/icicle_chart.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "reading/sql_table_model.h"
#include "reading/units.h"

namespace trainscope::ui {
namespace {

constexpr double kMinDrawnWidth = 1.0;  // px: narrower modules are left out
constexpr double kMinLabelWidth = 24.0;

}  // namespace

IcicleChart::IcicleChart(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void IcicleChart::setTree(const ModuleTree* tree) {
    tree_ = tree;
    selected_ = -1;
    zoomed_ = ModuleTree::kRoot;
    max_depth_ = 0;
    if (tree_) {
        for (int module = 0; module < tree_->size(); ++module)
            max_depth_ = qMax(max_depth_, depthOf(module));
    }
    updateGeometry();
    layOut();
}

void IcicleChart::setWidthBy(WidthBy by) {
    width_by_ = by;
    layOut();
}

void IcicleChart::setSelected(int module) {
    selected_ = module;
    update();
}

void IcicleChart::zoomTo(int module) {
    if (!tree_ || module < 0 || module >= tree_->size() || module == zoomed_)
        return;
    zoomed_ = module;
    layOut();
    emit zoomChanged(module);
}

double IcicleChart::valueOf(int module) const {
    const ModuleFigures& f = tree_->node(module).inclusive;
    switch (width_by_) {
        case WidthBy::Time:
            return f.totalMs();
        case WidthBy::Activations:
            return double(f.activation_bytes);
        case WidthBy::Weights:
            return double(f.weight_bytes + f.gradient_bytes);
    }
    return 0;
}

int IcicleChart::rowHeight() const {
    return fontMetrics().height() + 6;
}

int IcicleChart::depthOf(int module) const {
    int depth = 0;
    for (int up = tree_->node(module).parent; up >= 0; up = tree_->node(up).parent)
        ++depth;
    return depth;
}

QSize IcicleChart::sizeHint() const {
    return {400, rowHeight() * (max_depth_ + 1)};
}

QSize IcicleChart::minimumSizeHint() const {
    return {100, rowHeight() * qMin(max_depth_ + 1, 4)};
}

void IcicleChart::layOut() {
    rects_.clear();
    if (!tree_) {
        update();
        return;
    }
    rects_.resize(tree_->size());
    const double row = rowHeight();
    const double width = qMax(1, this->width());
    // The zoomed module's ancestors, full width on top.
    const int zoom_depth = depthOf(zoomed_);
    for (int up = tree_->node(zoomed_).parent, depth = zoom_depth - 1; up >= 0;
         up = tree_->node(up).parent, --depth)
        rects_[up] = QRectF(0, depth * row, width, row);
    // The zoomed subtree, each child as wide as its share of its parent.
    QVector<int> todo{zoomed_};
    rects_[zoomed_] = QRectF(0, zoom_depth * row, width, row);
    while (!todo.isEmpty()) {
        const int module = todo.takeLast();
        const QRectF& rect = rects_[module];
        const double value = valueOf(module);
        double x = rect.left();
        for (int child : tree_->node(module).children) {
            const double share = value > 0 ? valueOf(child) / value : 0.0;
            const double child_width = rect.width() * qBound(0.0, share, 1.0);
            if (child_width >= kMinDrawnWidth) {
                rects_[child] = QRectF(x, rect.bottom(), child_width, row);
                todo.push_back(child);
            }
            x += child_width;
        }
    }
    update();
}

int IcicleChart::moduleAt(const QPointF& pos) const {
    for (int module = int(rects_.size()) - 1; module >= 0; --module) {
        if (rects_[module].contains(pos))
            return module;
    }
    return -1;
}

QRectF IcicleChart::rectOf(int module) const {
    return module >= 0 && module < rects_.size() ? rects_[module] : QRectF();
}

QColor IcicleChart::colorOf(int module) const {
    // One hue per top-level module, so that a subtree reads as one family; deeper is lighter.
    const QString path = tree_->node(module).path;
    const QString top = path.section(QLatin1Char('.'), 0, 0);
    const int hue = top.isEmpty() ? 210 : int(qHash(top) % 360);
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const int depth = qMin(depthOf(module), 6);
    return QColor::fromHsl(hue, dark ? 90 : 140, dark ? 70 + depth * 10 : 150 + depth * 12);
}

QString IcicleChart::toolTipOf(int module) const {
    if (!tree_ || module < 0)
        return {};
    const ModuleNode& node = tree_->node(module);
    const ModuleFigures& all = tree_->node(ModuleTree::kRoot).inclusive;
    const ModuleFigures& f = node.inclusive;
    auto share = [](double part, double whole) {
        return whole > 0 ? formatNumber(100.0 * part / whole, 1) : QStringLiteral("–");
    };
    const Unit time = timeUnit(f.totalMs());
    const Unit activations = byteUnit(double(f.activation_bytes));
    const Unit weights = byteUnit(double(f.weight_bytes));
    return tr("%1\nTime: %2 %3 (%4 %), forward %5, backward %6\nActivations: %7 %8 (%9 %)\n"
              "Weights: %10 %11 (%12 %)")
        .arg(node.path.isEmpty() ? tr("(model)") : node.path)
        .arg(inUnit(f.totalMs(), time), time.name, share(f.totalMs(), all.totalMs()))
        .arg(inUnit(f.forward_ms, time), inUnit(f.backward_ms, time))
        .arg(inUnit(double(f.activation_bytes), activations), activations.name,
             share(double(f.activation_bytes), double(all.activation_bytes)))
        .arg(inUnit(double(f.weight_bytes), weights), weights.name,
             share(double(f.weight_bytes), double(all.weight_bytes)));
}

bool IcicleChart::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int module = moduleAt(help->pos());
        if (module >= 0)
            QToolTip::showText(help->globalPos(), toolTipOf(module), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void IcicleChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (!tree_)
        return;
    const QColor border = palette().color(QPalette::Base);
    const int zoom_depth = depthOf(zoomed_);
    for (int module = 0; module < rects_.size(); ++module) {
        const QRectF& r = rects_[module];
        if (r.isEmpty())
            continue;
        QColor fill = colorOf(module);
        if (depthOf(module) < zoom_depth)
            fill = fill.lighter(palette().color(QPalette::Window).lightness() < 128 ? 70 : 115);
        painter.fillRect(r.adjusted(0, 0, -1, -1), fill);
        painter.setPen(border);
        painter.drawLine(r.topRight(), r.bottomRight());
        if (r.width() >= kMinLabelWidth) {
            const ModuleNode& node = tree_->node(module);
            const QString name = module == ModuleTree::kRoot ? tr("(model)") : node.name;
            painter.setPen(fill.lightness() > 128 ? Qt::black : Qt::white);
            painter.drawText(r.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
                             fontMetrics().elidedText(name, Qt::ElideRight, int(r.width()) - 8));
        }
    }
    if (selected_ >= 0 && selected_ < rects_.size() && !rects_[selected_].isEmpty()) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(rects_[selected_].adjusted(1, 1, -1, -1));
    }
}

void IcicleChart::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    layOut();
}

void IcicleChart::mousePressEvent(QMouseEvent* event) {
    const int module = moduleAt(event->position());
    if (event->button() == Qt::LeftButton && module >= 0) {
        setSelected(module);
        emit moduleClicked(module);
    }
}

void IcicleChart::mouseDoubleClickEvent(QMouseEvent* event) {
    const int module = moduleAt(event->position());
    if (event->button() == Qt::LeftButton && module >= 0)
        zoomTo(module);
}

}  // namespace trainscope::ui
