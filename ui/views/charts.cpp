// SPDX-License-Identifier: Apache-2.0
#include "views/charts.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLocale>
#include <QPieSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

#include "report/sql_table_model.h"
#include "settings/theme.h"
#include "views/export.h"

namespace trainscope::ui {
namespace {

constexpr int kChartMinimumHeight = 160;

// A chart view whose chart takes Qt Charts' light or dark theme, as the palette in force is,
// now and whenever the palette changes (Settings › Theme, the desktop's theme).
class ThemedChartView : public QChartView {
  public:
    using QChartView::QChartView;
    void followPalette() {
        const QChart::ChartTheme theme =
            isDark(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight;
        if (chart()->theme() != theme)
            chart()->setTheme(theme);
    }

  protected:
    void changeEvent(QEvent* event) override {
        QChartView::changeEvent(event);
        if (event->type() == QEvent::PaletteChange)
            followPalette();
    }
};

}  // namespace

QChartView* chartView(QChart* chart) {
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    auto* view = new ThemedChartView(chart);
    view->followPalette();
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(kChartMinimumHeight);
    offerImageExport(view);
    return view;
}

namespace {

QString exactBytes(double bytes) {
    return QObject::tr("%1 bytes").arg(QLocale().toString(qint64(bytes)));
}

QString exactMs(double ms) {
    return QObject::tr("%1 ms").arg(formatNumber(ms, 6));
}

// A bar's label and its tooltip's name: "#28 blocks_0.mlp.lin_0 · aten::linear", the operation's
// number and name as the tables show them. The label drops ATen's "aten::" (every operation has
// it) beside a module: deep module paths (torchvision's "features.11.block.1.0") fill the axis
// already. Entries without a number that share a label get their id, so each is its own bar.
struct BarNames {
    QStringList labels, full;
};

BarNames namesOf(const QVector<TopEntry>& entries) {
    const QString aten = QStringLiteral("aten::");
    BarNames names;
    for (const TopEntry& entry : entries) {
        const QString number =
            entry.number > 0 ? QStringLiteral("#%1 ").arg(entry.number) : QString();
        if (entry.module.isEmpty()) {
            names.labels << number + entry.name;
            names.full << number + entry.name;
            continue;
        }
        const QString name = entry.name.startsWith(aten) ? entry.name.mid(aten.size()) : entry.name;
        names.labels << QStringLiteral("%1%2 · %3").arg(number, entry.module, name);
        names.full << QStringLiteral("%1%2 · %3").arg(number, entry.module, entry.name);
    }
    for (int i = 0; i < entries.size(); ++i) {
        if (entries[i].number == 0 && names.labels.count(names.labels[i]) > 1) {
            names.labels[i] += QStringLiteral(" #%1").arg(entries[i].id);
            names.full[i] += QStringLiteral(" #%1").arg(entries[i].id);
        }
    }
    // Highest first from the top: horizontal bar charts draw the first category at the bottom.
    std::reverse(names.labels.begin(), names.labels.end());
    std::reverse(names.full.begin(), names.full.end());
    return names;
}

// `clicked`: what a click on slice i does (none: slices are not clickable).
QPieSeries* pieOf(const QVector<QPair<QString, double>>& parts, QString (*human)(double),
                  QString (*exact)(double), const std::function<void(int)>& clicked) {
    auto* series = new QPieSeries;
    // Room above and below the pie for the labels of thin slices at its top or bottom, which
    // the default size (0.7 of the chart) pushes out of the plot area.
    series->setPieSize(0.5);
    for (const auto& [name, value] : parts) {
        // append() refuses (returns null for) values that are not finite or are negative.
        QPieSlice* slice = series->append(QStringLiteral("%1 %2").arg(name, human(value)),
                                          std::isfinite(value) ? qMax(0.0, value) : 0.0);
        if (!slice)
            continue;
        slice->setLabelVisible(value > 0);
        if (clicked) {
            QObject::connect(slice, &QPieSlice::clicked, slice,
                             [clicked, part = int(series->count()) - 1] { clicked(part); });
        }
        QObject::connect(slice, &QPieSlice::hovered, slice,
                         [slice, name = name, value = value, exact](bool state) {
                             if (state)
                                 QToolTip::showText(QCursor::pos(),
                                                    QObject::tr("%1: %2").arg(name, exact(value)));
                             else
                                 QToolTip::hideText();
                         });
    }
    return series;
}

QString humanBytes(double bytes) {
    return formatBytes(qint64(bytes));
}

QString humanMs(double ms) {
    return QObject::tr("%1 ms").arg(formatNumber(ms, 1));
}

// Hovering bar i shows `values[i]` (the exact figure behind it) with its category.
void connectBarTooltip(QBarSet* set, const QStringList& categories, const QVector<double>& values,
                       QString (*exact)(double)) {
    QObject::connect(
        set, &QBarSet::hovered, set,
        [label = set->label(), categories, values, exact](bool state, int i) {
            if (state && i >= 0 && i < categories.size() && i < values.size())
                QToolTip::showText(
                    QCursor::pos(),
                    QObject::tr("%1 — %2: %3").arg(categories[i], label, exact(values[i])));
            else
                QToolTip::hideText();
        });
}

// A click on bar i (drawn bottom-up: the last entry first) reports that entry's id.
void connectBarClick(QBarSet* set, const QVector<TopEntry>& entries, const BarClicked& clicked) {
    if (!clicked)
        return;
    QObject::connect(set, &QBarSet::clicked, set, [entries, clicked](int i) {
        if (i >= 0 && i < entries.size())
            clicked(entries[entries.size() - 1 - i].id);
    });
}

// Names each bar above it, across the whole plot width, instead of on the category axis: an
// axis beside the bars gets what width Qt Charts leaves it, which at the default window size
// elided every name to "…" (module paths are long). A name wider than the plot is elided in
// its middle, keeping the operation's number and name; the bar's tooltip has it in full.
void labelBarsAbove(QChart* chart, QBarCategoryAxis* axis, QAbstractBarSeries* series,
                    const QStringList& categories) {
    axis->setLabelsVisible(false);
    axis->setGridLineVisible(false);
    // An empty category on top: the room for the top bar's name, below the chart's title.
    axis->append(QStringLiteral(" "));
    for (QBarSet* set : series->barSets())
        set->append(0.0);
    QVector<QGraphicsSimpleTextItem*> labels;
    for (const QString& category : categories) {
        auto* label = new QGraphicsSimpleTextItem(category, chart);
        label->setData(kBarLabelFullText, category);
        label->setZValue(10);  // over the grid lines
        labels << label;
    }
    auto place = [axis, series, labels](const QRectF& plot) {
        const double slot = plot.height() / double(labels.size() + 1);
        // A name takes the gap above its bar: in a short chart, a smaller font and a thinner
        // bar, down to a floor.
        QFont font = axis->labelsFont();
        const double full_height = QFontMetricsF(font).height();
        const double fitting = qMax(0.62 * slot, 9.0);
        if (full_height > fitting && font.pointSizeF() > 0)
            font.setPointSizeF(qMax(6.5, font.pointSizeF() * fitting / full_height));
        const QFontMetricsF metrics(font);
        const double bar_width = qBound(0.2, 1.0 - (metrics.height() + 2) / slot, 0.5);
        series->setBarWidth(bar_width);
        for (int i = 0; i < labels.size(); ++i) {
            QGraphicsSimpleTextItem* label = labels[i];
            label->setFont(font);
            label->setBrush(axis->labelsBrush());
            label->setText(metrics.elidedText(label->data(kBarLabelFullText).toString(),
                                              Qt::ElideMiddle, plot.width() - 4));
            // Category i is drawn i slots up from the bottom; its bar fills the middle
            // bar_width of the slot, and its name the space above the bar.
            const double bar_top = plot.bottom() - (i + 0.5) * slot - bar_width * slot / 2;
            label->setPos(plot.left() + 2, bar_top - metrics.height());
        }
    };
    QObject::connect(chart, &QChart::plotAreaChanged, chart, place);
}

// `error`: why the entries could not be read (empty when they were). `clickable`: its bars
// lead somewhere (connectBarClick), which the pointer shows.
QChartView* barChart(const QString& title, QAbstractBarSeries* series,
                     const QStringList& categories, const QString& unit, const QString& error,
                     bool clickable) {
    auto* chart = new QChart;
    if (!error.isEmpty() || categories.isEmpty()) {
        // No bars: without values the axes' range would be NaN.
        chart->setTitle(error.isEmpty()
                            ? QObject::tr("%1 (none in this report)").arg(title)
                            : QObject::tr("%1 (could not be read: %2)").arg(title, error));
        delete series;
        return chartView(chart);
    }
    chart->setTitle(title);
    chart->addSeries(series);
    auto* names = new QBarCategoryAxis;
    names->append(categories);
    chart->addAxis(names, Qt::AlignLeft);
    series->attachAxis(names);
    labelBarsAbove(chart, names, series, categories);
    auto* values = new QValueAxis;
    values->setTitleText(unit);
    values->setLabelFormat(QStringLiteral("%.1f"));
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
    values->applyNiceNumbers();
    QChartView* view = chartView(chart);
    if (clickable)
        view->setCursor(Qt::PointingHandCursor);
    return view;
}

}  // namespace

QChartView* memoryBreakdownChart(const MemorySummary& summary, MemoryPartClicked clicked) {
    auto* chart = new QChart;
    std::function<void(int)> slice_clicked;
    if (const auto& peak = summary.at_peak) {
        if (clicked)
            slice_clicked = [clicked](int part) { clicked(static_cast<MemoryPart>(part)); };
        chart->setTitle(
            QObject::tr("Peak memory %1, at that instant").arg(formatBytes(summary.peak)));
        chart->addSeries(pieOf({{QObject::tr("Weights"), double(peak->weights)},
                                {QObject::tr("Gradients"), double(peak->gradients)},
                                {QObject::tr("Optimizer state"), double(peak->optimizer_state)},
                                {QObject::tr("Activations"), double(peak->activations)},
                                {QObject::tr("Other"), double(peak->other)}},
                               humanBytes, exactBytes, slice_clicked));
    } else {
        // Another tool's report: only totals over the iteration, which were not all allocated
        // at once, so they are not shown as parts of the peak.
        chart->setTitle(QObject::tr("Memory over the iteration (no breakdown at the peak)"));
        const MemoryPart parts[] = {MemoryPart::Weights, MemoryPart::Gradients,
                                    MemoryPart::Activations};
        if (clicked)
            slice_clicked = [clicked, parts](int part) { clicked(parts[part]); };
        chart->addSeries(pieOf({{QObject::tr("Weights"), double(summary.weights)},
                                {QObject::tr("Gradients"), double(summary.gradients)},
                                {QObject::tr("Activations"), double(summary.activations)}},
                               humanBytes, exactBytes, slice_clicked));
    }
    chart->legend()->hide();
    QChartView* view = chartView(chart);
    if (clicked)
        view->setCursor(Qt::PointingHandCursor);
    return view;
}

QChartView* iterationSplitChart(const TimeSummary& summary, std::function<void()> clicked) {
    auto* chart = new QChart;
    chart->setTitle(
        QObject::tr("Sum of operations %1 ms").arg(formatNumber(summary.operations_ms(), 1)));
    chart->addSeries(pieOf({{QObject::tr("Forward"), summary.forward_ms},
                            {QObject::tr("Backward"), summary.backward_ms}},
                           humanMs, exactMs,
                           clicked ? std::function<void(int)>([clicked](int) { clicked(); })
                                   : std::function<void(int)>()));
    chart->legend()->hide();
    QChartView* view = chartView(chart);
    if (clicked)
        view->setCursor(Qt::PointingHandCursor);
    return view;
}

QChartView* operationTimeChart(const QString& title, const TopEntries& top, BarClicked clicked) {
    const QVector<TopEntry>& entries = top.rows;
    auto* forward = new QBarSet(QObject::tr("Forward"));
    auto* backward = new QBarSet(QObject::tr("Backward"));
    QVector<double> forward_ms, backward_ms;
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
        forward_ms << it->first;
        backward_ms << it->second;
    }
    forward->append(QList<qreal>(forward_ms.begin(), forward_ms.end()));
    backward->append(QList<qreal>(backward_ms.begin(), backward_ms.end()));
    const BarNames names = namesOf(entries);
    connectBarTooltip(forward, names.full, forward_ms, exactMs);
    connectBarTooltip(backward, names.full, backward_ms, exactMs);
    connectBarClick(forward, entries, clicked);
    connectBarClick(backward, entries, clicked);
    auto* series = new QHorizontalStackedBarSeries;
    series->append(QList<QBarSet*>{forward, backward});
    return barChart(title, series, names.labels, QObject::tr("ms"), top.error, bool(clicked));
}

QChartView* sizeChart(const QString& title, const TopEntries& top, BarClicked clicked) {
    const QVector<TopEntry>& entries = top.rows;
    auto* size = new QBarSet(QObject::tr("Size"));
    QVector<double> bytes;
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
        bytes << it->first;
        size->append(it->first / double(1 << 20));
    }
    const BarNames names = namesOf(entries);
    connectBarTooltip(size, names.full, bytes, exactBytes);
    connectBarClick(size, entries, clicked);
    auto* series = new QHorizontalBarSeries;
    series->append(size);
    QChartView* view =
        barChart(title, series, names.labels, QObject::tr("MiB"), top.error, bool(clicked));
    view->chart()->legend()->hide();
    return view;
}

ChartSlot::ChartSlot(QWidget* parent)
    : QWidget(parent), waiting_(new QLabel(tr("Reading the largest entries…"))) {
    waiting_->setAlignment(Qt::AlignCenter);
    waiting_->setEnabled(false);  // dimmed: a state, not content
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(waiting_);
    setMinimumHeight(kChartMinimumHeight);  // as a chart's: the layout does not jump
}

void ChartSlot::setChart(QChartView* chart) {
    delete waiting_;
    waiting_ = nullptr;
    delete chart_;
    chart_ = chart;
    layout()->addWidget(chart_);
}

}  // namespace trainscope::ui
