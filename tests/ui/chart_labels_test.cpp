// SPDX-License-Identifier: Apache-2.0
// Chart names stay readable at the default window size (1100x760) for real architectures: each
// bar's name is shown in full, with the operation's number that its table row shows.
#include <gtest/gtest.h>

#include <QChart>
#include <QChartView>
#include <QGraphicsSimpleTextItem>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "main_window.h"
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
    const QStringList paths = profileBuiltin(QString::fromLatin1(GetParam()), dir.path());
    ASSERT_EQ(paths.size(), 3);

    ui::MainWindow window;
    // The default size (on the offscreen platform's 800x800 screen, the window would take the
    // screen's size instead).
    window.resize(1100, 760);
    window.show();
    ASSERT_EQ(window.size(), QSize(1100, 760));
    ASSERT_TRUE(openAndWait(window, {paths[1]}));
    waitForReads();
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

INSTANTIATE_TEST_SUITE_P(Builtin, ChartLabelsTest, ::testing::Values("transformer", "resnet"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace trainscope::test
