// SPDX-License-Identifier: Apache-2.0
#include "views/charts.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QHash>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLocale>
#include <QPieSeries>
#include <QTextDocument>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtMath>
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "reading/sql_table_model.h"
#include "reading/units.h"
#include "settings/theme.h"
#include "trainscope/report_format.h"
#include "views/export.h"

namespace trainscope::ui {
namespace {

constexpr int kChartMinimumHeight = 160;
// A chart's part (a pie slice, a bar set) that is a kind of call holds its SpanCategory here.
constexpr char kCategoryProperty[] = "trainscope_category";
// A pie slice's label as two lines (name<br>figure), kept while it shows on one.
constexpr char kTwoLineLabel[] = "trainscope_two_line_label";
constexpr double kMinimumBarPixels = 6.0;
// Pie label arms (Qt Charts' gap between a slice and its arm, in px; arm lengths in radii).
constexpr double kGap = 5.0, kArm = 0.15, kShortestArm = 0.02, kLongestArm = 1.2;

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
        wearCategoryColors();
    }

  private:
    // A theme colours each chart's parts its own way (forward and backward in two shades of
    // one hue in a pie, in two hues in bars, swapped in the dark theme, backward a thin outline
    // there): the parts that are a kind of call take its colour instead, the timeline's.
    void wearCategoryColors() {
        auto colour = [](const QObject* part) -> std::optional<QColor> {
            const QVariant category = part->property(kCategoryProperty);
            if (!category.isValid())
                return std::nullopt;
            return categoryColor(static_cast<SpanCategory>(category.toInt()));
        };
        for (QAbstractSeries* series : chart()->series()) {
            if (auto* pie = qobject_cast<QPieSeries*>(series)) {
                for (QPieSlice* slice : pie->slices())
                    if (const auto c = colour(slice)) {
                        slice->setColor(*c);
                        slice->setBorderColor(palette().color(QPalette::Base));
                    }
            } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
                for (QBarSet* set : bars->barSets())
                    if (const auto c = colour(set)) {
                        set->setColor(*c);
                        set->setBorderColor(*c);
                    }
            }
        }
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
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setLocalizeNumbers(true);  // "0,5" in German, as the tables write it
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

// Sizes a pie to its plot and keeps its slices' labels apart. Qt Charts puts an outside label
// at the end of an arm that leaves the slice's middle radially (5 px off the pie, then
// arm-length-factor radii long): on the right half to the arm's right, on the left half to its
// left, the label's bottom at the arm's end; and it hides a label that leaves the plot. So the
// pie leaves room for a two-line label above and below it, and where two labels on one side
// would overlap, the arms of the two move them apart (a longer arm moves a label on the upper
// half up, one on the lower half down; a near-horizontal arm cannot move its label), as far as
// the plot allows. Where the labels of a side cannot be whole and apart so, the pie is made
// smaller and they are placed again.
void placePieLabels(QPieSeries* series, const QRectF& plot) {
    const double side = qMin(plot.width(), plot.height());
    const QList<QPieSlice*> slices = series->slices();
    if (side <= 0 || slices.isEmpty())
        return;
    // The labels as Qt Charts lays them out (a text document with a 1 px margin), with the fonts
    // that draw them: a Chinese label's fallback font is taller than the label font. Their
    // height is the tallest one's.
    double height = 0;
    QHash<const QPieSlice*, double> widths;
    auto measure = [&] {
        height = 0;
        for (QPieSlice* slice : slices) {
            QTextDocument text;
            text.setDefaultFont(slice->labelFont());
            text.setDocumentMargin(1.0);
            text.setHtml(slice->label());
            height = qMax(height, text.size().height() + 2);
            widths[slice] = text.idealWidth() + 2;
        }
    };
    measure();
    const double half = plot.height() / 2;  // from the pie's centre to the plot's edges

    struct Label {
        QPieSlice* slice;
        double cos;  // of the arm's angle from 12 o'clock: 1 up, -1 down
        double arm;
        double sin;                      // |sin| of that angle: how far sideways the arm reaches
        double shortest = kShortestArm;  // the shortest arm that keeps the label off the pie
    };
    // Lays out the labels of one half for a pie of `radius`; false when they cannot all be in
    // the plot and apart.
    auto placeHalf = [&](std::vector<Label>& labels, double radius) {
        // The label's bottom, below the pie's centre (negative: above it).
        auto bottom = [&](const Label& label) {
            return -(radius + kGap + label.arm * radius) * label.cos;
        };
        // The longest arm that keeps the label in the plot: its top below the plot's top, or
        // its bottom above the plot's bottom.
        auto longest = [&](const Label& label) {
            const double reach = label.cos > 0 ? (half - height) / label.cos : half / -label.cos;
            return qBound(kShortestArm, (reach - radius - kGap) / radius, kLongestArm);
        };
        // The shortest arm whose label keeps off the pie: the label's nearest point is a
        // radius from the centre. Below the pie a label rises from its arm's end, so a short arm
        // that points down puts it on the pie (with a tall font, moving labels apart did).
        auto shortest = [&](const Label& label) {
            for (double arm = kShortestArm; arm < kLongestArm; arm += 0.02) {
                const double reach = radius + kGap + arm * radius;
                const double down =
                    label.cos < 0 ? std::max(0.0, -reach * label.cos - height) : reach * label.cos;
                if (std::hypot(reach * label.sin, down) >= radius + 1)
                    return arm;
            }
            return kLongestArm;
        };
        // Moves a label's bottom by up to `dy` along its arm; returns how far it moved.
        auto move = [&](Label& label, double dy) {
            if (std::abs(label.cos) < 0.05)
                return 0.0;
            const double arm =
                qBound(label.shortest, label.arm - dy / (radius * label.cos), longest(label));
            const double moved = -(arm - label.arm) * radius * label.cos;
            label.arm = arm;
            return moved;
        };
        for (Label& label : labels) {
            label.shortest = shortest(label);
            label.arm = kArm;
            // Below the pie a label rises from its arm's end: an arm that points down runs
            // as far as the label is tall, or the label covers the pie.
            if (label.cos < -0.3)
                label.arm = qBound(kArm, (height + 2 + kGap * label.cos) / (radius * -label.cos),
                                   kLongestArm);
            label.arm = qMin(label.arm, longest(label));
        }
        std::sort(labels.begin(), labels.end(),
                  [&](const Label& a, const Label& b) { return bottom(a) < bottom(b); });
        bool fits = true;
        for (size_t i = 1; i < labels.size(); ++i) {
            double overlap = bottom(labels[i - 1]) + height - bottom(labels[i]);
            if (overlap > 0)
                overlap += move(labels[i - 1], -overlap);  // the upper one up
            if (overlap > 0)
                overlap -= move(labels[i], overlap);  // the lower one down
            fits &= overlap < 0.5;
        }
        // Each label within the plot: above its bottom and below its top, and sideways from
        // its arm's end to its far edge.
        for (const Label& label : labels) {
            fits &= label.arm >= label.shortest - 1e-9;
            fits &= bottom(label) - height >= -half - 0.5 && bottom(label) <= half + 0.5;
            fits &= (radius + kGap + label.arm * radius) * label.sin + widths.value(label.slice) <=
                    plot.width() / 2 + 0.5;
        }
        return fits;
    };

    // Labels whole and apart at the largest pie that allows it; where none does (two small
    // slices side by side at the top of a short plot), the pie turns, so that their labels
    // come beside it where there is room.
    std::vector<Label> halves[2];
    auto layOut = [&](double start_angle, double radius) {
        series->setPieStartAngle(start_angle);
        series->setPieEndAngle(start_angle + 360);
        for (std::vector<Label>& labels : halves)
            labels.clear();
        for (QPieSlice* slice : slices) {
            const double angle = std::fmod(slice->startAngle() + slice->angleSpan() / 2, 360.0);
            if (slice->isLabelVisible())
                halves[angle < 180 ? 0 : 1].push_back(
                    {slice, std::cos(qDegreesToRadians(angle)), kArm,
                     std::abs(std::sin(qDegreesToRadians(angle)))});
        }
        const bool right = placeHalf(halves[0], radius);
        return placeHalf(halves[1], radius) && right;
    };
    double radius = side / 8;
    bool placed = false;
    auto place = [&] {
        const double largest = qMax(side / 8, (half - height - kGap) / (1 + kArm));
        for (const double start_angle : {0.0, 90.0, 270.0, 45.0, 315.0, 135.0, 225.0, 180.0}) {
            for (radius = largest;; radius = qMax(side / 8, radius * 0.85)) {
                placed = layOut(start_angle, radius);
                if (placed)
                    return;
                if (radius <= side / 8)
                    break;  // the next way round
            }
        }
    };
    // Two-line labels (name over figure) first; where they cannot be placed (a plot little
    // taller than two of them, as Chinese labels are at the default window size), labels of
    // one line, half as tall, if they are not too wide. The two-line text stays in a property,
    // so that a taller plot gets it back.
    for (QPieSlice* slice : slices) {
        if (!slice->property(kTwoLineLabel).isValid())
            slice->setProperty(kTwoLineLabel, slice->label());
        slice->setLabel(slice->property(kTwoLineLabel).toString());
    }
    measure();
    place();
    if (!placed) {
        for (QPieSlice* slice : slices)
            slice->setLabel(slice->label().replace(QStringLiteral("<br>"), QStringLiteral(" ")));
        measure();
        place();
        if (!placed) {
            for (QPieSlice* slice : slices)
                slice->setLabel(slice->property(kTwoLineLabel).toString());
            measure();
        }
    }
    if (!placed)  // as good as it gets: the first way, at the smallest pie
        layOut(0.0, radius = side / 8);
    series->setPieSize(qMin(0.7, 2 * radius / side));
    for (const std::vector<Label>& labels : halves)
        for (const Label& label : labels)
            label.slice->setLabelArmLengthFactor(label.arm);
}

// A pie of `parts` in `chart`, each slice labelled with its name and, under it, its figure (on
// one line, a label beside a pie in a third of the window was cut: "Gradients 16.0 ..."). Parts
// of zero have no label. `clicked`: what a click on slice i does (none: not clickable).
void addPie(QChart* chart, const QVector<QPair<QString, double>>& parts, QString (*human)(double),
            QString (*exact)(double), const std::function<void(int)>& clicked) {
    auto* series = new QPieSeries;
    series->setPieSize(0.5);  // until placePieLabels() knows the plot
    for (const auto& [name, value] : parts) {
        // append() refuses (returns null for) values that are not finite or are negative.
        QPieSlice* slice = series->append(QStringLiteral("%1<br>%2").arg(name, human(value)),
                                          std::isfinite(value) ? qMax(0.0, value) : 0.0);
        if (!slice)
            continue;
        slice->setLabelVisible(value > 0);
        if (clicked) {
            QObject::connect(slice, &QPieSlice::clicked, slice,
                             [clicked, part = int(series->count()) - 1] { clicked(part); });
        }
        QObject::connect(slice, &QPieSlice::hovered, slice,
                         [name = name, value = value, exact](bool state) {
                             if (state)
                                 QToolTip::showText(QCursor::pos(),
                                                    QObject::tr("%1: %2").arg(name, exact(value)));
                             else
                                 QToolTip::hideText();
                         });
    }
    chart->addSeries(series);
    chart->legend()->hide();
    QObject::connect(chart, &QChart::plotAreaChanged, series,
                     [series](const QRectF& plot) { placePieLabels(series, plot); });
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
        // bar, down to a floor. A bar keeps kMinimumBarPixels (at 3 px, five bars read as
        // lines). What must fit is the names' ink, not the font's line: a CJK font's line is
        // about a third taller than the glyphs of these names, and fitting the line shrank
        // them in Chinese to 70% of their English size.
        QFont font = axis->labelsFont();
        const auto inkOf = [&labels](const QFont& f) {
            const QFontMetricsF metrics(f);
            QRectF ink;
            for (QGraphicsSimpleTextItem* label : labels)
                ink |= metrics.tightBoundingRect(label->data(kBarLabelFullText).toString());
            return ink;  // relative to the baseline
        };
        const double full_height = inkOf(font).height();
        const double fitting = qMax(slot - kMinimumBarPixels - 2, 9.0);
        if (full_height > fitting && font.pointSizeF() > 0)
            font.setPointSizeF(qMax(6.5, font.pointSizeF() * fitting / full_height));
        const QFontMetricsF metrics(font);
        const QRectF ink = inkOf(font);
        const double thinnest = qMin(0.5, kMinimumBarPixels / slot);
        const double bar_width = qBound(thinnest, 1.0 - (ink.height() + 2) / slot, 0.5);
        series->setBarWidth(bar_width);
        for (int i = 0; i < labels.size(); ++i) {
            QGraphicsSimpleTextItem* label = labels[i];
            label->setFont(font);
            label->setBrush(axis->labelsBrush());
            label->setText(metrics.elidedText(label->data(kBarLabelFullText).toString(),
                                              Qt::ElideMiddle, plot.width() - 4));
            // Category i is drawn i slots up from the bottom; its bar fills the middle
            // bar_width of the slot, and its name's ink the space above the bar (the item's
            // top is its line's, an ascent above the baseline).
            const double bar_top = plot.bottom() - (i + 0.5) * slot - bar_width * slot / 2;
            label->setPos(plot.left() + 2, bar_top - 1 - metrics.ascent() - ink.bottom());
        }
    };
    QObject::connect(chart, &QChart::plotAreaChanged, chart, place);
}

// Ticks of a horizontal value axis, as many as the plot's width has room for whole labels (a
// chart in a third of the window showed "1…" for 10.0 and 15.0): a round step (1, 2 or 5 times
// a power of ten) from 0, the axis's end moved up to a tick.
void fitValueTicks(QChart* chart, QValueAxis* axis) {
    const double top = axis->max();
    auto place = [axis, top](const QRectF& plot) {
        if (!(top > 0) || plot.width() <= 0)
            return;
        const QFontMetricsF metrics(axis->labelsFont());
        const QString widest = QLocale().toString(top, 'f', 1);
        const int fitting = qMax(2, int(plot.width() / (metrics.horizontalAdvance(widest) + 12)));
        const double least = top / double(fitting - 1);
        const double power = std::pow(10.0, std::floor(std::log10(least)));
        double step = 10 * power;
        for (const double factor : {1.0, 2.0, 5.0}) {
            if (factor * power >= least) {
                step = factor * power;
                break;
            }
        }
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(0);
        axis->setTickInterval(step);
        // As many decimals as the step has (0.05 MiB apart at one decimal read "0.0 0.1 0.1"),
        // at least one, as the other axes.
        const int decimals = qMax(1, int(std::ceil(-std::log10(step) - 1e-9)));
        axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
        axis->setMax(std::ceil(top / step - 1e-9) * step);
    };
    QObject::connect(chart, &QChart::plotAreaChanged, axis, place);
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
    fitValueTicks(chart, values);
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
        addPie(chart,
               {{QObject::tr("Weights"), double(peak->weights)},
                {QObject::tr("Gradients"), double(peak->gradients)},
                {QObject::tr("Optimizer state"), double(peak->optimizer_state)},
                {QObject::tr("Activations"), double(peak->activations)},
                {QObject::tr("Other"), double(peak->other)}},
               humanBytes, exactBytes, slice_clicked);
    } else {
        // Another tool's report: only totals over the iteration, which were not all allocated
        // at once, so they are not shown as parts of the peak.
        chart->setTitle(QObject::tr("Memory over the iteration (no breakdown at the peak)"));
        const MemoryPart parts[] = {MemoryPart::Weights, MemoryPart::Gradients,
                                    MemoryPart::Activations};
        if (clicked)
            slice_clicked = [clicked, parts](int part) { clicked(parts[part]); };
        addPie(chart,
               {{QObject::tr("Weights"), double(summary.weights)},
                {QObject::tr("Gradients"), double(summary.gradients)},
                {QObject::tr("Activations"), double(summary.activations)}},
               humanBytes, exactBytes, slice_clicked);
    }
    QChartView* view = chartView(chart);
    if (clicked)
        view->setCursor(Qt::PointingHandCursor);
    return view;
}

QChartView* iterationSplitChart(const TimeSummary& summary, std::function<void()> clicked) {
    auto* chart = new QChart;
    chart->setTitle(
        QObject::tr("Sum of operations %1 ms").arg(formatNumber(summary.operations_ms(), 1)));
    const PartTimes& times = summary.times;
    // Each part of the step a slice, coloured as the timeline colours its calls; the parts after
    // the backward pass where the step ran such operations.
    QVector<QPair<QString, double>> parts{{QObject::tr("Forward"), times.forward_ms},
                                          {QObject::tr("Backward"), times.backward_ms}};
    QVector<SpanCategory> categories{SpanCategory::Forward, SpanCategory::Backward};
    if (times.after_backward_operations > 0) {
        parts.append({QObject::tr("After backward"), times.after_backward_ms});
        categories << SpanCategory::Other;
    }
    if (times.optimizer_operations > 0) {
        parts.append({QObject::tr("Optimizer"), times.optimizer_ms});
        categories << SpanCategory::Optimizer;
    }
    addPie(chart, parts, humanMs, exactMs,
           clicked ? std::function<void(int)>([clicked](int) { clicked(); })
                   : std::function<void(int)>());
    const QList<QPieSlice*> slices = qobject_cast<QPieSeries*>(chart->series().first())->slices();
    for (int i = 0; i < slices.size() && i < categories.size(); ++i)
        slices[i]->setProperty(kCategoryProperty, int(categories[i]));
    QChartView* view = chartView(chart);
    if (clicked)
        view->setCursor(Qt::PointingHandCursor);
    return view;
}

QChartView* deviceTimeChart(const TimeSummary& summary) {
    namespace key = report_format::device_work;
    const auto ns = [&](const char* name) -> std::optional<double> {
        const auto found = summary.time_metadata.find(name);
        if (found == summary.time_metadata.end())
            return std::nullopt;
        bool ok = false;
        const double value = QString::fromStdString(found->second).toDouble(&ok);
        return ok ? std::optional<double>(value / 1e6) : std::nullopt;
    };
    const auto step = ns(key::kStepNs);
    if (!step)
        return nullptr;
    auto* chart = new QChart;
    chart->setTitle(
        QObject::tr("Device time of the listed step %1 ms").arg(formatNumber(*step, 1)));
    addPie(chart,
           {{QObject::tr("Computation"), ns(key::kComputationNs).value_or(0)},
            {QObject::tr("Communication"), ns(key::kCommunicationNs).value_or(0)},
            {QObject::tr("Copies and sets"), ns(key::kMemoryNs).value_or(0)},
            {QObject::tr("Idle"), ns(key::kIdleNs).value_or(0)}},
           humanMs, exactMs, {});
    return chartView(chart);
}

QChartView* operationTimeChart(const QString& title, const TopEntries& top, BarClicked clicked) {
    const QVector<TopEntry>& entries = top.rows;
    // Each part of the step a stacked set, coloured as the timeline colours its calls; the
    // parts after the backward pass only where a bar has such time.
    struct Part {
        QString name;
        SpanCategory category;
        double TopEntry::*ms;
    };
    const Part parts[] = {
        {QObject::tr("Forward"), SpanCategory::Forward, &TopEntry::first},
        {QObject::tr("Backward"), SpanCategory::Backward, &TopEntry::second},
        {QObject::tr("After backward"), SpanCategory::Other, &TopEntry::after_backward},
        {QObject::tr("Optimizer"), SpanCategory::Optimizer, &TopEntry::optimizer}};
    double longest = 0;
    for (const TopEntry& e : entries)
        longest = std::max(longest, e.first + e.second + e.after_backward + e.optimizer);
    // The unit of the longest bar (operations of 40 µs would read 0.0 ms).
    const Unit unit = timeUnit(longest);
    const BarNames names = namesOf(entries);
    QList<QBarSet*> sets;
    for (const Part& part : parts) {
        QVector<double> ms;
        for (auto it = entries.rbegin(); it != entries.rend(); ++it)
            ms << (*it).*part.ms;
        const bool forward_or_backward = sets.size() < 2;
        if (!forward_or_backward &&
            std::all_of(ms.begin(), ms.end(), [](double v) { return v == 0; }))
            continue;
        auto* set = new QBarSet(part.name);
        set->setProperty(kCategoryProperty, int(part.category));
        for (double value : ms)
            set->append(unit.of(value));
        connectBarTooltip(set, names.full, ms, exactMs);
        connectBarClick(set, entries, clicked);
        sets << set;
    }
    auto* series = new QHorizontalStackedBarSeries;
    series->append(sets);
    return barChart(title, series, names.labels, unit.name, top.error, bool(clicked));
}

QChartView* sizeChart(const QString& title, const TopEntries& top, BarClicked clicked) {
    const QVector<TopEntry>& entries = top.rows;
    auto* size = new QBarSet(QObject::tr("Size"));
    QVector<double> bytes;
    double largest = 0;
    for (const TopEntry& entry : entries)
        largest = std::max(largest, double(entry.first));
    // The unit of the largest bar (activations of 120 KiB would read 0.0 to 0.1 MiB).
    const Unit unit = byteUnit(largest);
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
        bytes << it->first;
        size->append(unit.of(it->first));
    }
    const BarNames names = namesOf(entries);
    connectBarTooltip(size, names.full, bytes, exactBytes);
    connectBarClick(size, entries, clicked);
    auto* series = new QHorizontalBarSeries;
    series->append(size);
    QChartView* view = barChart(title, series, names.labels, unit.name, top.error, bool(clicked));
    view->chart()->legend()->hide();
    return view;
}

QChartView* whatIfPeakChart(const QStringList& names, const QVector<double>& predicted,
                            const QVector<std::optional<double>>& measured,
                            std::function<void(int)> clicked) {
    double largest = 0;
    for (int i = 0; i < names.size(); ++i)
        largest = std::max({largest, predicted[i], measured[i].value_or(0.0)});
    const Unit unit = byteUnit(largest);
    auto* predicted_set = new QBarSet(QObject::tr("Predicted"));
    auto* measured_set = new QBarSet(QObject::tr("Measured"));
    // Drawn bottom-up: the first what-if on top.
    QStringList categories;
    QVector<double> predicted_bytes, measured_bytes;
    for (int i = int(names.size()) - 1; i >= 0; --i) {
        categories << names[i];
        predicted_set->append(unit.of(predicted[i]));
        measured_set->append(unit.of(measured[i].value_or(0.0)));
        predicted_bytes << predicted[i];
        measured_bytes << measured[i].value_or(0.0);
    }
    connectBarTooltip(predicted_set, categories, predicted_bytes, exactBytes);
    connectBarTooltip(measured_set, categories, measured_bytes, exactBytes);
    if (clicked) {
        for (QBarSet* set : {predicted_set, measured_set})
            QObject::connect(set, &QBarSet::clicked, set, [clicked, count = names.size()](int i) {
                if (i >= 0 && i < count)
                    clicked(int(count) - 1 - i);
            });
    }
    auto* series = new QHorizontalBarSeries;
    series->append(QList<QBarSet*>{predicted_set, measured_set});
    return barChart(QObject::tr("Peak memory with each change"), series, categories, unit.name, {},
                    bool(clicked));
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
