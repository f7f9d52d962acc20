// SPDX-License-Identifier: Apache-2.0
// The Advice tab of a run whose advice report (PREFIX.advice.sqlite) lies beside its reports,
// clicked as a user clicks it: each what-if's figures, one unit per column, a what-if not run
// saying why, and a click on one showing its module in the Modules tab; the advice report opened
// alone in a window of its own; a damaged one said in one line.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <QChartView>
#include <QHeaderView>
#include <QListWidget>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "i18n/language.h"
#include "main_window.h"
#include "trainscope/advice_report.h"
#include "trainscope/report_format.h"
#include "ui/sample_run.h"
#include "views/advice_page.h"
#include "views/elided_label.h"
#include "views/modules_model.h"
#include "views/modules_page.h"
#include "views/report_browser.h"

namespace trainscope::test {
namespace {

constexpr char kModule[] = "blocks_0.mlp";  // a module of the built-in transformer

AdviceReport sampleAdvice() {
    AdviceReport report;
    report.baseline = {40 << 20, 20 << 20, 12.5};
    // Its line to change: where the module is built, not where it is called.
    WhatIf swap{"GELU -> ReLU", kModule, {36 << 20, 16 << 20, 12.5}, {}, "", "model.py", 7, {}};
    swap.measured = StepFigures{36 << 20, 16 << 20, 13.0};
    swap.step_ratio = StepRatio{1.21, 1.05, 1.40, 7};
    report.what_ifs = {swap,
                       {"checkpoint each block",
                        "every such module",
                        {30 << 20, 8 << 20, 15.0},
                        {},
                        "not asked (--verify runs it)",
                        "",
                        0,
                        {}},
                       {"F.gelu -> F.relu",
                        "model.py:12",
                        {37 << 20, 18 << 20, 12.5},
                        {},
                        "a call of F.gelu in your code: change it to F.relu at model.py:12",
                        "model.py",
                        12,
                        {}}};
    // Predicted lower, measured higher: worse than the step as it is.
    WhatIf worse{"checkpoint each block", "layers", {38 << 20, 18 << 20, 15.0}, {}, "", "", 0, {}};
    worse.measured = StepFigures{42 << 20, 25 << 20, 15.5};
    worse.step_ratio = StepRatio{0.98, 0.86, 1.07, 7};  // a range that holds 1
    report.what_ifs.push_back(worse);
    report.what_ifs[1].not_predicted = "the forward of h run again in backward (a checkpoint)";
    return report;
}

class AdviceViewTest : public ::testing::Test {
  protected:
    void SetUp() override {
        paths_ = copyBuiltinProfile(QStringLiteral("transformer"), dir_.path());
        ASSERT_EQ(paths_.size(), 3);
        QString prefix = paths_[0];
        prefix.chop(int(qstrlen(report_format::kMemorySuffix)));
        advice_ = prefix + QLatin1String(report_format::kAdviceSuffix);
        writeAdviceReport(sampleAdvice(), advice_.toStdString(), Overwrite::Refuse);
        window_.resize(1100, 760);
        window_.show();
    }

    static ui::AdvicePage* readPage(QWidget* in) {
        auto* page = in ? in->findChild<ui::AdvicePage*>() : nullptr;
        if (auto* self = qobject_cast<ui::AdvicePage*>(in))
            page = self;
        if (page) {
            EXPECT_TRUE(QTest::qWaitFor([page] { return page->isRead(); }, 10000));
        }
        return page;
    }

    QTemporaryDir dir_;
    QStringList paths_;
    QString advice_;
    ui::MainWindow window_;
};

TEST_F(AdviceViewTest, ARunsAdviceIsATabWhoseWhatIfLeadsToItsModule) {
    ASSERT_TRUE(openAndWait(window_, {paths_[0]}));
    ui::ReportBrowser* browser = window_.browser();
    ASSERT_NE(browser, nullptr);
    ui::AdvicePage* page = nullptr;
    for (int i = 0; i < browser->tabs()->count() && !page; ++i)
        if (browser->tabs()->tabText(i) == QStringLiteral("Advice"))
            page = qobject_cast<ui::AdvicePage*>(browser->tabs()->widget(i));
    ASSERT_NE(page, nullptr) << "no Advice tab";
    browser->tabs()->setCurrentWidget(page);
    ASSERT_TRUE(QTest::qWaitFor([page] { return page->isRead(); }, 10000));
    ASSERT_TRUE(page->errorText().isEmpty()) << page->errorText().toStdString();
    EXPECT_TRUE(page->heading()->text().contains(QStringLiteral("peak 40.0 MiB")))
        << page->heading()->text().toStdString();
    // The status line names the advice report it opened with the run's reports.
    EXPECT_TRUE(
        window_.statusMessage()->fullText().endsWith(QStringLiteral(", transformer.advice.sqlite")))
        << window_.statusMessage()->fullText().toStdString();
    QTableWidget* table = page->table();
    ASSERT_EQ(table->rowCount(), 4);
    EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("GELU -> ReLU at blocks_0.mlp"));
    // A what-if that raised the memory is said to, where it is named.
    EXPECT_EQ(table->item(3, 0)->text(), QStringLiteral("checkpoint each block at layers (worse)"));
    EXPECT_EQ(table->item(3, 0)->toolTip(),
              QStringLiteral("Not advised: as measured, it makes the step worse than it is "
                             "(peak +2.0 MiB, activations +5.0 MiB)."));
    EXPECT_EQ(table->item(1, 0)->toolTip(), QString());
    // One unit per column, named in its header; a figure's cell holds the number alone.
    EXPECT_TRUE(table->horizontalHeaderItem(1)->text().startsWith(QStringLiteral("Peak (MiB)")))
        << table->horizontalHeaderItem(1)->text().toStdString();
    EXPECT_EQ(table->item(0, 1)->text(), QStringLiteral("36.0"));
    // What a prediction leaves out: marked at its predicted peak, said in its tooltip.
    EXPECT_EQ(table->item(1, 1)->text(), QStringLiteral("30.0"));
    EXPECT_FALSE(table->item(1, 1)->icon().isNull());
    EXPECT_EQ(table->item(1, 1)->toolTip(),
              QStringLiteral("Not predicted: the forward of h run again in backward (a "
                             "checkpoint)."));
    EXPECT_TRUE(table->item(0, 1)->icon().isNull());
    EXPECT_EQ(table->item(0, 1)->toolTip(), QString());
    EXPECT_EQ(table->item(0, 2)->toolTip(), QStringLiteral("the prediction was exact"));
    EXPECT_EQ(table->item(1, 2)->text(), QStringLiteral("not run"));
    EXPECT_EQ(table->item(1, 2)->toolTip(), QStringLiteral("not asked (--verify runs it)"));
    ASSERT_NE(page->chart(), nullptr);

    // A click on the first what-if shows its module in the Modules tab.
    const QRect cell = table->visualItemRect(table->item(0, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    ui::ModulesPage* modules = browser->modulesPage();
    ASSERT_NE(modules, nullptr);
    EXPECT_EQ(browser->tabs()->currentWidget(), modules->parentWidget());
    ASSERT_TRUE(QTest::qWaitFor([modules] { return modules->isRead(); }, 10000));
    const QModelIndex current = modules->treeView()->currentIndex();
    ASSERT_TRUE(current.isValid());
    const int module = current.data(ui::ModulesModel::ModuleRole).toInt();
    ASSERT_GE(module, 0);
    EXPECT_EQ(modules->model()->tree().node(module).path, QString::fromLatin1(kModule));
    // ... and the line that builds it in the source panel: the line to change.
    QListWidgetItem* built = browser->framesList()->item(0);
    ASSERT_NE(built, nullptr);
    EXPECT_TRUE(built->text().startsWith(QStringLiteral("model.py:7")))
        << built->text().toStdString();

    // A what-if on a line of the user's code shows that line in the source panel.
    browser->tabs()->setCurrentWidget(page);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualItemRect(table->item(2, 0)).center());
    QListWidgetItem* frame = browser->framesList()->item(0);
    ASSERT_NE(frame, nullptr);
    EXPECT_TRUE(frame->text().startsWith(QStringLiteral("model.py:12")))
        << frame->text().toStdString();
}

TEST_F(AdviceViewTest, AnAdviceReportOpenedAloneHasAWindowOfItsOwn) {
    window_.openReports({advice_});
    ASSERT_NE(window_.adviceWindow(), nullptr);
    ui::AdvicePage* page = readPage(window_.adviceWindow());
    ASSERT_NE(page, nullptr);
    EXPECT_EQ(page->table()->rowCount(), 4);
    EXPECT_EQ(window_.browser(), nullptr) << "an advice report is no run";
}

TEST_F(AdviceViewTest, ADamagedAdviceReportIsSaidInOneLine) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(advice_.toUtf8().constData(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "UPDATE trainscope_what_ifs SET predicted_step_ms = -5", nullptr,
                           nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    window_.openReports({advice_});
    ui::AdvicePage* page = readPage(window_.adviceWindow());
    ASSERT_NE(page, nullptr);
    EXPECT_FALSE(page->errorText().isEmpty());
    EXPECT_FALSE(page->heading()->text().contains(QLatin1Char('\n')));
    EXPECT_TRUE(page->heading()->text().startsWith(QStringLiteral("Cannot read the what-ifs")))
        << page->heading()->text().toStdString();
    EXPECT_EQ(page->table()->rowCount(), 0);
}

}  // namespace
}  // namespace trainscope::test

namespace trainscope::test {
namespace {

class AdviceStepRatio : public AdviceViewTest, public ::testing::WithParamInterface<const char*> {
  protected:
    void TearDown() override { ui::installTranslations(QLocale(QStringLiteral("en"))); }

    // The run with its advice report, its Advice tab shown and read; null where there is none.
    ui::AdvicePage* openAdviceTab() {
        if (!openAndWait(window_, {paths_[0]}) || window_.browser() == nullptr)
            return nullptr;
        QTabWidget* tabs = window_.browser()->tabs();
        for (int i = 0; i < tabs->count(); ++i)
            if (auto* page = qobject_cast<ui::AdvicePage*>(tabs->widget(i))) {
                tabs->setCurrentWidget(page);
                return QTest::qWaitFor([page] { return page->isRead(); }, 10000) ? page : nullptr;
            }
        return nullptr;
    }
};

// Each what-if run is timed in turns with the step as it is: its ratio in a column of its own,
// said to be noise where its range holds 1, the range in its tooltip; every column within the
// window at its default size, in each language.
TEST_P(AdviceStepRatio, IsAColumnThatSaysWhenTheDifferenceIsNoise) {
    const QString language = QString::fromLatin1(GetParam());
    ASSERT_TRUE(ui::installTranslations(QLocale(language)) || language == QLatin1String("en"));
    ui::AdvicePage* page = openAdviceTab();
    ASSERT_NE(page, nullptr);
    QTableWidget* table = page->table();
    ASSERT_EQ(table->columnCount(), 8);
    EXPECT_EQ(table->horizontalHeaderItem(7)->text(),
              ui::AdvicePage::tr("Step ratio\ntimed in turns"));
    const QLocale locale;
    auto times = [&](double value) {
        return ui::AdvicePage::tr("%1×").arg(locale.toString(value, 'f', 2));
    };
    EXPECT_EQ(table->item(0, 7)->text(), times(1.21));
    EXPECT_TRUE(table->item(0, 7)->toolTip().contains(times(1.05)) &&
                table->item(0, 7)->toolTip().contains(times(1.40)))
        << table->item(0, 7)->toolTip().toStdString();
    EXPECT_EQ(table->item(3, 7)->text(), ui::AdvicePage::tr("%1 (noise)").arg(times(0.98)));
    EXPECT_EQ(table->item(1, 7)->text(), ui::AdvicePage::tr("not run"));
    if (language == QLatin1String("en")) {
        EXPECT_EQ(table->item(3, 7)->text(), QStringLiteral("0.98× (noise)"));
        EXPECT_EQ(table->item(0, 7)->toolTip(),
                  QStringLiteral("The step with this change took 1.21× the time of the step as "
                                 "it is, timed in turns in the same process: from 1.05× to "
                                 "1.40× over 7 pairs."));
    }
    // Every column within the page: the last one's right edge inside the table's viewport.
    QTest::qWait(50);
    EXPECT_LE(table->columnViewportPosition(7) + table->columnWidth(7),
              page->width() - table->verticalHeader()->width())
        << "the Advice table is wider than its page in " << language.toStdString();
}

// The job over more ranks: each rank's peak predicted, its step time not (the collectives
// change with the ranks), said so in its cell rather than a number, in each language.
TEST_P(AdviceStepRatio, AStepTimeNotPredictedIsSaidSoInItsCell) {
    const QString language = QString::fromLatin1(GetParam());
    ASSERT_TRUE(ui::installTranslations(QLocale(language)) || language == QLatin1String("en"));
    AdviceReport job;
    job.baseline = {1'301'468, 115'336, 38.2};
    for (int rank = 0; rank < 4; ++rank) {
        WhatIf w{"the job over 4 ranks",
                 "rank " + std::to_string(rank),
                 {rank == 3 ? 962'180 : 963'220, 115'336, 0.0},
                 {},
                 "",
                 "",
                 0,
                 {}};
        w.step_predicted = false;
        w.measured = StepFigures{w.predicted.peak_bytes, 115'336, 100.0 + rank};
        job.what_ifs.push_back(w);
    }
    writeAdviceReport(job, advice_.toStdString(), Overwrite::Allow);
    ui::AdvicePage* page = openAdviceTab();
    ASSERT_NE(page, nullptr);
    QTableWidget* table = page->table();
    ASSERT_EQ(table->rowCount(), 4);
    for (int row = 0; row < 4; ++row) {
        EXPECT_EQ(table->item(row, 5)->text(), ui::AdvicePage::tr("not predicted")) << row;
        EXPECT_FALSE(table->item(row, 5)->toolTip().isEmpty());
        EXPECT_TRUE(table->item(row, 6)->toolTip().isEmpty()) << "no error against no prediction";
    }
    // The change and its target in the reader's language; the chart's ticks each a figure of
    // its own (0.05 MiB apart, they read "0.0 0.1 0.1" at one decimal).
    EXPECT_EQ(table->item(3, 0)->text(),
              ui::AdvicePage::tr("%1 at %2")
                  .arg(ui::AdvicePage::tr("the job over %1 ranks").arg(4),
                       ui::AdvicePage::tr("rank %1").arg(3)));
    ASSERT_NE(page->chart(), nullptr);
    const QStringList ticks = tickLabels(page->chart()->chart());
    EXPECT_GE(ticks.size(), 2);
    EXPECT_EQ(QSet<QString>(ticks.begin(), ticks.end()).size(), ticks.size())
        << ticks.join(QLatin1Char(' ')).toStdString();
    if (language == QLatin1String("en")) {
        EXPECT_EQ(table->item(3, 0)->text(), QStringLiteral("the job over 4 ranks at rank 3"));
        EXPECT_TRUE(table->item(3, 6)->text().startsWith(QStringLiteral("103.0")))
            << table->item(3, 6)->text().toStdString();
    }
    QTest::qWait(50);
    EXPECT_LE(table->columnViewportPosition(7) + table->columnWidth(7),
              page->width() - table->verticalHeader()->width())
        << "the Advice table is wider than its page in " << language.toStdString();
}

INSTANTIATE_TEST_SUITE_P(InEachLanguage, AdviceStepRatio, ::testing::Values("en", "de", "zh_CN"));

}  // namespace
}  // namespace trainscope::test
