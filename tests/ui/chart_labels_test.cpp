// SPDX-License-Identifier: Apache-2.0
// Chart names stay readable at the default window size (1100x760) for real architectures: each
// bar's name is shown in full, with the operation's number that its table row shows; each pie
// slice's name and figure are shown whole, apart from the others; bars are thick enough to see.
#include <gtest/gtest.h>

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QPieSeries>
#include <QScrollBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <cmath>

#include "i18n/language.h"
#include "main_window.h"
#include "settings/theme.h"
#include "support/known_times.h"
#include "ui/sample_run.h"
#include "views/charts.h"
#include "views/report_browser.h"

namespace trainscope::test {
namespace {

using ui::kBarLabelFullText;

struct BarLabel {
    QString shown, full;
};

QVector<BarLabel> barLabels(QChartView* view) {
    QVector<BarLabel> labels;
    for (QGraphicsItem* item : view->chart()->childItems()) {
        auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
        if (text && text->data(kBarLabelFullText).isValid())
            labels.push_back({text->text(), text->data(kBarLabelFullText).toString()});
    }
    return labels;
}

class ChartLabelsTest : public ::testing::TestWithParam<const char*> {};

TEST_P(ChartLabelsTest, EveryBarIsNamedInFullAtTheDefaultSize) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    ui::MainWindow window;
    ASSERT_TRUE(showBuiltinAtDefaultSize(window, QString::fromLatin1(GetParam()), dir.path()));
    QTabWidget* tabs = window.browser()->tabs();
    int charts = 0;
    for (int tab = 0; tab < 3; ++tab) {  // Overview, Memory, Time: the pages with bar charts
        tabs->setCurrentIndex(tab);
        QTest::qWait(50);  // laid out and shown
        for (QChartView* view : tabs->currentWidget()->findChildren<QChartView*>()) {
            const QVector<BarLabel> labels = barLabels(view);
            const QString title = view->chart()->title();
            if (labels.isEmpty())
                continue;  // a pie
            ++charts;
            for (const BarLabel& label : labels) {
                EXPECT_EQ(label.shown, label.full) << title.toStdString() << " on tab " << tab
                                                   << ", chart " << view->width() << " px wide";
                EXPECT_FALSE(label.full.contains(QChar(0x2026))) << label.full.toStdString();
            }
        }
    }
    EXPECT_EQ(charts, 6);  // modules, activations, operations; weights, activations; operations
}

// What a pie's labels show, as drawn: their texts, one line each, and where they are.
struct DrawnLabel {
    QString text;
    QRectF area;
};

QVector<DrawnLabel> pieLabels(QChartView* view) {
    QVector<DrawnLabel> labels;
    for (QGraphicsItem* item : view->scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (!text || !text->isVisible() || text->toPlainText().isEmpty() ||
            text->toPlainText() == view->chart()->title())
            continue;
        QString plain = text->toPlainText();
        plain.replace(QChar::LineSeparator, QLatin1Char(' '))
            .replace(QLatin1Char('\n'), QLatin1Char(' '));
        labels.push_back({plain, text->sceneBoundingRect()});
    }
    return labels;
}

// The bars: the rectangles Qt Charts draws in a bar set's colour within the plot, for bars of a
// value (horizontal bars), where the scene has them.
QVector<QRectF> barRects(QChartView* view) {
    QSet<QRgb> colours;
    for (QAbstractSeries* series : view->chart()->series())
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series))
            for (QBarSet* set : bars->barSets())
                colours << set->color().rgb();
    QVector<QRectF> rects;
    for (QGraphicsItem* item : view->scene()->items()) {
        auto* bar = dynamic_cast<QGraphicsRectItem*>(item);
        if (bar && bar->isVisible() && bar->rect().width() > 0.5 &&
            colours.contains(bar->brush().color().rgb()) &&
            view->chart()->plotArea().contains(bar->sceneBoundingRect().center()))
            rects << bar->mapRectToScene(bar->rect());
    }
    return rects;
}

QVector<double> barThicknesses(QChartView* view) {
    QVector<double> thicknesses;
    for (const QRectF& bar : barRects(view))
        thicknesses << bar.height();
    return thicknesses;
}

class OverviewChartsTest : public ::testing::TestWithParam<std::tuple<const char*, const char*>> {
  protected:
    void TearDown() override { ui::installTranslations(QLocale(QStringLiteral("en"))); }
};

TEST_P(OverviewChartsTest, PieLabelsAreWholeAndApartAndBarsAreSeen) {
    const auto [model, language] = GetParam();
    ASSERT_TRUE(ui::installTranslations(QLocale(QString::fromLatin1(language))) ||
                QLatin1String(language) == QLatin1String("en"));
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    // The run with known times: the pies' slices and the bars follow the times, which a busy
    // machine changes from run to run; the labels are judged on the same shapes every time.
    ASSERT_EQ(test::copyBuiltinProfile(QString::fromLatin1(model), dir.path()).size(), 3);
    const std::string known = dir.path().toStdString() + "/known";
    test::copyWithKnownTimes(dir.path().toStdString() + "/" + model, known,
                             [](const std::string&) { return test::timeWithin(1.0, 1.0); });
    ui::MainWindow window;
    window.resize(1100, 760);
    window.show();
    ASSERT_TRUE(test::openAndWait(window, {QString::fromStdString(known + ".time.sqlite")}));
    test::waitForReads();
    QTabWidget* tabs = window.browser()->tabs();
    tabs->setCurrentIndex(0);
    QTest::qWait(50);
    int pies = 0, bar_charts = 0;
    for (QChartView* view : tabs->currentWidget()->findChildren<QChartView*>()) {
        const std::string title = view->chart()->title().toStdString();
        const QList<QAbstractSeries*> series = view->chart()->series();
        auto* pie = series.isEmpty() ? nullptr : qobject_cast<QPieSeries*>(series.first());
        if (!pie) {
            const QVector<double> bars = barThicknesses(view);
            if (bars.isEmpty())
                continue;
            ++bar_charts;
            for (double thickness : bars)
                EXPECT_GE(thickness, 6.0) << title << ": a bar " << thickness << " px thick";
            // The axis's figures whole: Qt Charts cuts a label with no room to "1...".
            for (QGraphicsItem* item : view->scene()->items()) {
                auto* text = dynamic_cast<QGraphicsTextItem*>(item);
                if (text && text->isVisible()) {
                    EXPECT_FALSE(text->toPlainText().endsWith(QLatin1String("...")) ||
                                 text->toPlainText().contains(QChar(0x2026)))
                        << title << ": '" << text->toPlainText().toStdString() << "'";
                }
            }
            continue;
        }
        ++pies;
        const QVector<DrawnLabel> drawn = pieLabels(view);
        QStringList shown;
        for (const DrawnLabel& label : drawn)
            shown << label.text;
        for (QPieSlice* slice : pie->slices()) {
            if (!slice->isLabelVisible())
                continue;
            const QString whole =
                QString(slice->label()).replace(QStringLiteral("<br>"), QStringLiteral(" "));
            EXPECT_TRUE(shown.contains(whole))
                << title << ": '" << whole.toStdString() << "' is drawn as '"
                << shown.join(QStringLiteral("', '")).toStdString() << "'";
        }
        // The pie: a circle in the middle of the plot, pieSize() of its shorter side across.
        const QRectF plot = view->chart()->plotArea();
        const double radius = pie->pieSize() * qMin(plot.width(), plot.height()) / 2;
        const QPointF centre = plot.center();
        for (const DrawnLabel& label : drawn) {
            const QPointF nearest(qBound(label.area.left(), centre.x(), label.area.right()),
                                  qBound(label.area.top(), centre.y(), label.area.bottom()));
            const QPointF apart = nearest - centre;
            EXPECT_GE(std::hypot(apart.x(), apart.y()), radius - 1)
                << title << ": '" << label.text.toStdString() << "' is drawn over the pie ("
                << label.area.left() << "," << label.area.top() << " " << label.area.width() << "x"
                << label.area.height() << " px; the pie's centre " << centre.x() << ","
                << centre.y() << ", radius " << radius << ")";
        }
        for (int i = 0; i < drawn.size(); ++i)
            for (int j = i + 1; j < drawn.size(); ++j)
                EXPECT_FALSE(drawn[i].area.intersects(drawn[j].area))
                    << title << ": '" << drawn[i].text.toStdString() << "' overlaps '"
                    << drawn[j].text.toStdString() << "' (" << drawn[i].area.top() << "-"
                    << drawn[i].area.bottom() << " and " << drawn[j].area.top() << "-"
                    << drawn[j].area.bottom() << " px down)";
    }
    // Nothing wider than the window: the page needs no horizontal scroll bar.
    for (QScrollBar* bar : tabs->currentWidget()->findChildren<QScrollBar*>())
        EXPECT_FALSE(bar->orientation() == Qt::Horizontal && bar->isVisible() && bar->maximum() > 0)
            << "the Overview is " << bar->maximum() << " px wider than the window";
    EXPECT_EQ(pies, 2);        // memory at the peak, forward and backward
    EXPECT_EQ(bar_charts, 3);  // modules, activations, operations
}

// Forward and backward wear the timeline's colours in the pie and in the bars, in the light and
// in the dark theme (the dark theme once swapped them and drew backward as an outline).
TEST(ChartColoursTest, ForwardAndBackwardWearTheTimelinesColoursInBothThemes) {
    for (const ui::Theme theme : {ui::Theme::Dark, ui::Theme::Light}) {
        ui::applyTheme(theme);
        QTemporaryDir dir;
        ASSERT_TRUE(dir.isValid());
        ui::MainWindow window;
        ASSERT_TRUE(showBuiltinAtDefaultSize(window, QStringLiteral("mlp"), dir.path()));
        QTabWidget* tabs = window.browser()->tabs();
        tabs->setCurrentIndex(0);
        QTest::qWait(50);
        int parts = 0;
        const QColor forward = ui::categoryColor(SpanCategory::Forward);
        const QColor backward = ui::categoryColor(SpanCategory::Backward);
        for (QChartView* view : tabs->currentWidget()->findChildren<QChartView*>()) {
            for (QAbstractSeries* series : view->chart()->series()) {
                if (auto* pie = qobject_cast<QPieSeries*>(series)) {
                    for (QPieSlice* slice : pie->slices()) {
                        const QString name = slice->label().section(QStringLiteral("<br>"), 0, 0);
                        if (name == QLatin1String("Forward") || name == QLatin1String("Backward")) {
                            ++parts;
                            EXPECT_EQ(slice->color(),
                                      name == QLatin1String("Forward") ? forward : backward)
                                << name.toStdString() << " slice";
                        }
                    }
                } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
                    for (QBarSet* set : bars->barSets()) {
                        const QString name = set->label();
                        if (name == QLatin1String("Forward") || name == QLatin1String("Backward")) {
                            ++parts;
                            const QColor expected =
                                name == QLatin1String("Forward") ? forward : backward;
                            EXPECT_EQ(set->color(), expected) << name.toStdString() << " bars";
                            // Filled, not an outline.
                            EXPECT_EQ(set->borderColor(), expected) << name.toStdString();
                        }
                    }
                }
            }
        }
        EXPECT_EQ(parts, 4) << "the Overview's time pie and its top operations' bars";
    }
    ui::applyTheme(ui::Theme::System);
}

// Bars of any size: the axis takes the unit of the largest bar, so that its ticks read as
// different figures (activations of 120 KiB were ticked 0.0, 0.0, 0.0, 0.1 in MiB).
TEST(ChartUnitsTest, TicksOfSmallAndLargeBarsAreDistinctFiguresInTheLargestBarsUnit) {
    const struct {
        double bytes, ms;
        const char *size_unit, *time_unit;
    } cases[] = {{900, 0.04, "B", "µs"},
                 {120.0 * 1024, 0.9, "KiB", "µs"},
                 {5.5 * 1024 * 1024, 35, "MiB", "ms"},
                 {3.0 * 1024 * 1024 * 1024, 25000, "GiB", "s"}};
    for (const auto& c : cases) {
        ui::TopEntries sizes, times;  // the longest bar: c.ms, its forward and backward halves
        for (int i = 1; i <= 4; ++i) {
            sizes.rows.push_back({i, QStringLiteral("op%1").arg(i), c.bytes / i, 0, {}, i});
            times.rows.push_back(
                {i, QStringLiteral("op%1").arg(i), c.ms / (2 * i), c.ms / (2 * i), {}, i});
        }
        for (QChartView* view : {ui::sizeChart(QStringLiteral("sizes"), sizes),
                                 ui::operationTimeChart(QStringLiteral("times"), times)}) {
            view->resize(360, 260);
            view->show();
            QTest::qWait(20);
            const bool sizes = view->chart()->title() == QLatin1String("sizes");
            const QString unit = view->chart()->axes(Qt::Horizontal).first()->titleText();
            EXPECT_EQ(unit, QString::fromUtf8(sizes ? c.size_unit : c.time_unit)) << c.bytes;
            const QStringList ticks = tickLabels(view->chart());
            EXPECT_GE(ticks.size(), 2) << unit.toStdString();
            EXPECT_EQ(QSet<QString>(ticks.begin(), ticks.end()).size(), ticks.size())
                << unit.toStdString() << ": " << ticks.join(QLatin1Char(' ')).toStdString();
            delete view;
        }
    }
}

// The bar charts' names on the Overview and Memory tabs of a run, in `language`: each chart's
// smallest name size (points), and whether any name's ink overlaps a bar.
struct BarNames {
    QString chart;
    double point_size = 0;
    bool on_a_bar = false;
    double axis_point_size = 0;  // the value axis's labels
};

QVector<BarNames> barNamesIn(const char* language, const QString& run) {
    ui::installTranslations(QLocale(QString::fromLatin1(language)));
    ui::MainWindow window;
    window.resize(1100, 760);
    window.show();
    QVector<BarNames> found;
    if (!test::openAndWait(window, {run}))
        return found;
    test::waitForReads();
    QTabWidget* tabs = window.browser()->tabs();
    for (int tab = 0; tab < 2; ++tab) {  // Overview, Memory
        tabs->setCurrentIndex(tab);
        QTest::qWait(50);
        for (QChartView* view : tabs->currentWidget()->findChildren<QChartView*>()) {
            const QVector<QRectF> bars = barRects(view);
            BarNames names{QStringLiteral("tab %1, chart %2").arg(tab).arg(found.size()), 1e9,
                           false};
            for (QGraphicsItem* item : view->chart()->childItems()) {
                auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
                if (!text || !text->data(kBarLabelFullText).isValid())
                    continue;
                names.point_size = qMin(names.point_size, text->font().pointSizeF());
                const QFontMetricsF metrics(text->font());
                const QRectF ink = metrics.tightBoundingRect(text->text())
                                       .translated(text->scenePos() + QPointF(0, metrics.ascent()));
                for (const QRectF& bar : bars)
                    if (ink.intersects(bar.adjusted(0.5, 0.5, -0.5, -0.5)))
                        names.on_a_bar = true;
            }
            const QList<QAbstractAxis*> values = view->chart()->axes(Qt::Horizontal);
            if (!values.isEmpty())
                names.axis_point_size = values.first()->labelsFont().pointSizeF();
            if (names.point_size < 1e9)
                found << names;
        }
    }
    return found;
}

// Chinese names are drawn as large as English ones (the taller lines of Chinese text leave the
// charts less room, which once shrank the names to 70%, and then to 80% of the axis's labels on
// the built-in example's four bars), never smaller than the axis's own labels where English's
// are not, and no name is drawn over a bar, in the Overview's and Memory's bar charts at the
// default window size.
TEST(BarNamesTest, ChineseNamesAreAsLargeAsEnglishOnesAndClearOfTheBars) {
    for (const char* profile : {"transformer", "mlp"}) {
        SCOPED_TRACE(profile);
        QTemporaryDir dir;
        ASSERT_TRUE(dir.isValid());
        ASSERT_EQ(test::copyBuiltinProfile(QString::fromLatin1(profile), dir.path()).size(), 3);
        const QString run = dir.path() + QStringLiteral("/%1.time.sqlite").arg(profile);
        const QVector<BarNames> english = barNamesIn("en", run);
        const QVector<BarNames> chinese = barNamesIn("zh_CN", run);
        ui::installTranslations(QLocale(QStringLiteral("en")));
        ASSERT_GE(english.size(), 4);  // modules, activations, operations; weights, activations
        ASSERT_EQ(chinese.size(), english.size());
        for (int i = 0; i < english.size(); ++i) {
            SCOPED_TRACE(english[i].chart.toStdString());
            EXPECT_GE(chinese[i].point_size, english[i].point_size - 0.01);
            if (english[i].point_size >= english[i].axis_point_size) {
                EXPECT_GE(chinese[i].point_size, chinese[i].axis_point_size);
            }
            EXPECT_FALSE(english[i].on_a_bar);
            EXPECT_FALSE(chinese[i].on_a_bar);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(BuiltinInEachLanguage, OverviewChartsTest,
                         ::testing::Combine(::testing::Values("transformer", "resnet", "mlp"),
                                            ::testing::Values("en", "de", "zh_CN")),
                         [](const auto& info) {
                             return std::string(std::get<0>(info.param)) + "_" +
                                    std::get<1>(info.param);
                         });

INSTANTIATE_TEST_SUITE_P(Builtin, ChartLabelsTest, ::testing::Values("transformer", "resnet"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace trainscope::test
