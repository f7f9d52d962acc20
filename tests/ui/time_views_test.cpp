// SPDX-License-Identifier: Apache-2.0
// The Time and By Source Line views, and File › Open Recent, clicked as a user would.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGraphicsSimpleTextItem>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include "main_window.h"
#include "reading/report_queries.h"
#include "reading/report_run.h"
#include "reading/sql_table_model.h"
#include "settings/app_settings.h"
#include "source/source_viewer.h"
#include "support/report_reader.h"
#include "trainscope/report_writer.h"
#include "ui/sample_run.h"
#include "views/charts.h"
#include "views/entry_table_view.h"
#include "views/memory_page.h"
#include "views/report_browser.h"
#include "views/run_filter.h"
#include "views/source_lines_page.h"
#include "views/source_panel.h"
#include "views/time_page.h"
#include "views/welcome_page.h"

using namespace trainscope;
using namespace trainscope::ui;
using test::clickRow;

namespace {

class TimeViewsTest : public test::OpenedRunTest {
  protected:
    QStringList column(QAbstractItemModel* model, int column) {
        QStringList values;
        for (int row = 0; row < model->rowCount(); ++row)
            values << model->index(row, column).data().toString();
        return values;
    }
};

TEST_F(TimeViewsTest, EveryModelPassesTheItemModelTester) {
    QVector<QAbstractItemModel*> models = {browser_->operationsView()->model(),
                                           browser_->weightsView()->model(),
                                           browser_->activationsView()->model()};
    browser_->timePage()->groupingChoice()->setCurrentIndex(1);
    models << browser_->operationsView()->model();
    SourceLinesPage* lines = browser_->sourceLinesPage();
    ASSERT_NE(lines, nullptr);
    models << lines->timeView()->model() << lines->memoryView()->model();
    test::waitForReads();
    for (QAbstractItemModel* model : models) {
        QAbstractItemModelTester tester(model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        EXPECT_GT(model->rowCount(), 0);
        auto* table = qobject_cast<SqlTableModel*>(model);
        // Each change while the rows of the one before are still on their way, then each alone.
        model->sort(2, Qt::DescendingOrder);
        table->setFilter(QStringLiteral("e"));
        table->setFilter(QString());
        test::waitForRows(table);
        for (const QString& filter : {QStringLiteral("e"), QString()}) {
            table->setFilter(filter);
            test::waitForRows(table);
        }
        model->sort(1, Qt::AscendingOrder);
        test::waitForRows(table);
    }
}

// TrainScope's reports name each entry's module: operations are shown as "module · operation",
// numbered (#) as in the iteration on both tabs; a weight's name is its module's path and its
// own.
TEST_F(TimeViewsTest, TablesNameEachOperationByItsModuleAndNumberIt) {
    QAbstractItemModel* weights = browser_->weightsView()->model();
    EXPECT_EQ(weights->index(0, 1).data().toString(), QStringLiteral("lin_0.weight"));
    // An operation outside any submodule keeps its bare name.
    EXPECT_EQ(column(browser_->operationsView()->model(), 2),
              (QStringList{"lin_0 · aten::linear", "aten::zeros_like", "aten::gelu",
                           "lin_1 · aten::linear", "aten::escape", "aten::gone"}));
    EXPECT_EQ(column(browser_->operationsView()->model(), 0),
              (QStringList{"1", "2", "3", "4", "5", "6"}));
}

// The full names of the bars of the charts in `root` whose title contains `title` (any, when
// empty), sorted.
QStringList barNames(QWidget* root, const QString& title = {}) {
    QStringList names;
    for (QChartView* view : root->findChildren<QChartView*>()) {
        if (!view->chart()->title().contains(title))
            continue;
        for (QGraphicsItem* item : view->chart()->childItems()) {
            auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
            if (text && text->data(kBarLabelFullText).isValid())
                names << text->data(kBarLabelFullText).toString();
        }
    }
    names.sort();
    return names;
}

// The bars name each operation as the tables do ("#1 lin_0 · linear", ATen's prefix dropped
// beside a module), with the number of its table row.
TEST_F(TimeViewsTest, ChartBarsNameTheModuleAndNumber) {
    const QStringList names = barNames(browser_);
    EXPECT_TRUE(names.contains(QStringLiteral("#1 lin_0 · linear")))
        << names.join(", ").toStdString();
    EXPECT_TRUE(names.contains(QStringLiteral("#4 lin_1 · linear")))
        << names.join(", ").toStdString();
    for (const QString& name : names)
        EXPECT_FALSE(name.contains(QStringLiteral("aten::linear"))) << name.toStdString();
}

// The chart beside the table shows what the table shows: the filter's rows, per invocation or
// summed per operation; a filter also takes the frames of the row it filtered away.
TEST_F(TimeViewsTest, TheChartFollowsTheTablesFilterAndGrouping) {
    TimePage* page = browser_->timePage();
    browser_->tabs()->setCurrentWidget(page);
    clickRow(page->operationsView(), 0);
    ASSERT_TRUE(QTest::qWaitFor([&] { return browser_->framesList()->count() > 0; }, 5000));
    EXPECT_EQ(barNames(page).size(), 6);
    page->filterField()->setText(QStringLiteral("lin"));
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return barNames(page) == QStringList{QStringLiteral("#1 lin_0 · linear"),
                                                 QStringLiteral("#4 lin_1 · linear")};
        },
        5000))
        << barNames(page).join(", ").toStdString();
    EXPECT_EQ(browser_->framesList()->count(), 0) << "the filtered-away row's frames stayed";

    page->groupingChoice()->setCurrentIndex(1);
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return barNames(page) == QStringList{QStringLiteral("aten::linear")}; }, 5000))
        << barNames(page).join(", ").toStdString();
    page->filterField()->clear();
    EXPECT_TRUE(QTest::qWaitFor([&] { return barNames(page).size() == 5; }, 5000))
        << barNames(page).join(", ").toStdString();
    EXPECT_TRUE(barNames(page).contains(QStringLiteral("aten::gelu")))
        << barNames(page).join(", ").toStdString();
}

// The Memory tab's activations chart follows the run's filter as its table does.
TEST_F(TimeViewsTest, TheActivationsChartFollowsTheFilter) {
    MemoryPage* page = browser_->memoryPage();
    ASSERT_NE(page, nullptr);
    browser_->tabs()->setCurrentWidget(page);
    auto bars = [page] { return barNames(page, QStringLiteral("activations")); };
    ASSERT_TRUE(QTest::qWaitFor([&] { return bars().size() > 1; }, 5000));
    ASSERT_FALSE(bars().filter(QStringLiteral("gelu")).isEmpty());
    ASSERT_NE(bars().filter(QStringLiteral("gelu")).size(), bars().size());
    browser_->filter()->setName(QStringLiteral("gelu"));
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            const QStringList shown = bars();
            return !shown.isEmpty() && shown.filter(QStringLiteral("gelu")).size() == shown.size();
        },
        5000))
        << bars().join(", ").toStdString();
    browser_->filter()->setName({});
}

TEST_F(TimeViewsTest, TheFilterAppliesOnceTypingPauses) {
    TimePage* page = browser_->timePage();
    browser_->tabs()->setCurrentWidget(page);
    QAbstractItemModel* model = page->operationsView()->model();
    ASSERT_EQ(model->rowCount(), 6);
    // keyClicks delivers the keys at once, without running the event loop (ui_test_main keeps
    // QTEST_KEYEVENT_DELAY unset): the filter's timer cannot have fired yet.
    QTest::keyClicks(page->filterField(), QStringLiteral("lin"));
    EXPECT_EQ(model->rowCount(), 6);  // not yet: the user may still be typing
    EXPECT_TRUE(QTest::qWaitFor([&] { return model->rowCount() == 2; }, 2000)) << model->rowCount();
    EXPECT_EQ(column(model, 1),
              (QStringList{QStringLiteral("aten::linear"), QStringLiteral("aten::linear")}));
    // LIKE's wildcards in the text are taken literally.
    page->filterField()->setText(QStringLiteral("%"));
    EXPECT_TRUE(QTest::qWaitFor([&] { return model->rowCount() == 0; }, 2000)) << model->rowCount();
    page->filterField()->clear();
    EXPECT_TRUE(QTest::qWaitFor([&] { return model->rowCount() == 6; }, 2000)) << model->rowCount();
}

TEST_F(TimeViewsTest, GroupingByNameSumsCountsAndMeans) {
    TimePage* page = browser_->timePage();
    browser_->tabs()->setCurrentWidget(page);
    QComboBox* grouping = page->groupingChoice();
    QTest::mouseClick(grouping, Qt::LeftButton);
    QTest::keyClick(grouping->view(), Qt::Key_Down);
    QTest::keyClick(grouping->view(), Qt::Key_Return);
    ASSERT_TRUE(page->grouped());
    QAbstractItemModel* model = page->operationsView()->model();
    test::waitForReads();
    ASSERT_EQ(model->rowCount(), 5);
    page->operationsView()->sortByColumn(5, Qt::DescendingOrder);  // total
    test::waitForReads();
    EXPECT_EQ(model->index(0, 1).data().toString(), QStringLiteral("aten::linear"));
    EXPECT_EQ(model->index(0, 2).data().toString(), QStringLiteral("2"));      // count
    EXPECT_EQ(model->index(0, 3).data().toString(), QStringLiteral("2.000"));  // forward
    EXPECT_EQ(model->index(0, 4).data().toString(), QStringLiteral("3.000"));  // backward
    EXPECT_EQ(model->index(0, 5).data().toString(), QStringLiteral("5.000"));  // total
    EXPECT_EQ(model->index(0, 6).data().toString(), QStringLiteral("2.500"));  // mean
    const int zeros = column(model, 1).indexOf(QStringLiteral("aten::zeros_like"));
    EXPECT_EQ(model->index(zeros, 4).data().toString(), QStringLiteral("–"));

    // The filter applies to the grouped rows as well, and survives switching back.
    page->filterField()->setText(QStringLiteral("gelu"));
    EXPECT_TRUE(
        QTest::qWaitFor([&] { return page->operationsView()->model()->rowCount() == 1; }, 2000))
        << page->operationsView()->model()->rowCount();
    grouping->setCurrentIndex(0);
    test::waitForReads();
    EXPECT_EQ(column(page->operationsView()->model(), 1),
              QStringList{QStringLiteral("aten::gelu")});
}

TEST_F(TimeViewsTest, BySourceLineRanksTheMostSpecificFramesLines) {
    browser_->tabs()->setCurrentIndex(browser_->tabs()->count() - 1);
    SourceLinesPage* page = browser_->sourceLinesPage();
    ASSERT_NE(page, nullptr);
    test::waitForReads();
    QAbstractItemModel* time = page->timeView()->model();
    // Sorted by share, highest first: layers.py:7 holds both aten::linear calls (4 + 1 ms).
    EXPECT_EQ(time->index(0, 1).data().toString(), QStringLiteral("layers.py"));
    EXPECT_EQ(time->index(0, 2).data().toString(), QStringLiteral("7"));
    EXPECT_EQ(time->index(0, 3).data().toString(), QStringLiteral("2"));
    EXPECT_EQ(time->index(0, 6).data().toString(), QStringLiteral("5.000"));
    EXPECT_EQ(time->index(1, 1).data().toString(), QStringLiteral("model.py"));
    EXPECT_EQ(time->index(1, 2).data().toString(), QStringLiteral("13"));

    QAbstractItemModel* memory = page->memoryView()->model();
    // model.py:12 (a weight), model.py:13, layers.py:7, and the bias without a frame: every
    // entry is in one row, so the rows add up to the overview's totals.
    ASSERT_EQ(memory->rowCount(), 4);
    EXPECT_EQ(memory->index(0, 1).data().toString(), QStringLiteral("model.py"));
    EXPECT_EQ(memory->index(0, 2).data().toString(), QStringLiteral("12"));
    EXPECT_EQ(memory->index(0, 3).data(Qt::ToolTipRole).toString(), QStringLiteral("4,096 bytes"));
    EXPECT_EQ(memory->index(3, 1).data().toString(), QStringLiteral("(no frame)"));
    EXPECT_EQ(memory->index(3, 3).data(Qt::ToolTipRole).toString(), QStringLiteral("64 bytes"));
    qint64 weights = 0, activations = 0;
    for (int row = 0; row < memory->rowCount(); ++row) {
        weights += memory->index(row, 3).data(SqlTableModel::SortRole).toLongLong();
        activations += memory->index(row, 4).data(SqlTableModel::SortRole).toLongLong();
    }
    EXPECT_EQ(weights, browser_->memorySummary()->weights);
    EXPECT_EQ(activations, browser_->memorySummary()->activations);
    clickRow(page->memoryView(), 3);
    EXPECT_EQ(test::items(browser_->framesList()), QStringList{"(no frames in the project)"});

    clickRow(page->timeView(), 1);
    EXPECT_EQ(browser_->sourcePanel()->viewer()->currentFile(), path("model.py"));
    EXPECT_EQ(browser_->sourcePanel()->viewer()->highlightedLine(), 13);
}

// Open Recent lists runs, once each (not each of their reports), by name and folder.
TEST_F(TimeViewsTest, OpenRecentListsOpenedRunsAndReopensThem) {
    const QStringList recent = AppSettings::recentFiles();
    ASSERT_FALSE(recent.isEmpty());
    EXPECT_EQ(recent.first(), path("run.memory.sqlite"));
    EXPECT_FALSE(recent.contains(path("run.time.sqlite"))) << "the run is listed twice";
    window_.closeReports();
    ASSERT_EQ(window_.browser(), nullptr);
    QMenu* menu = window_.recentMenu();
    emit menu->aboutToShow();
    QAction* entry = menu->actions().value(0);
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(entry->toolTip(), path("run.memory.sqlite"));
    EXPECT_TRUE(entry->text().startsWith(QStringLiteral("run — "))) << entry->text().toStdString();
    EXPECT_TRUE(entry->text().contains(QFileInfo(dir_).fileName())) << entry->text().toStdString();
    // The welcome screen names it alike.
    MainWindow fresh;
    ASSERT_NE(fresh.welcomePage(), nullptr);
    const QListWidgetItem* listed = fresh.welcomePage()->recentList()->item(0);
    ASSERT_NE(listed, nullptr);
    EXPECT_TRUE(listed->text().startsWith(QStringLiteral("run — ")))
        << listed->text().toStdString();
    EXPECT_TRUE(listed->text().contains(QFileInfo(dir_).fileName()))
        << listed->text().toStdString();
    // Its folder whole: the list elides it in the middle where it lacks the room, not sooner.
    EXPECT_EQ(listed->text(),
              QStringLiteral("run — ") +
                  QDir::toNativeSeparators(QFileInfo(path("run.memory.sqlite")).absolutePath()));
    EXPECT_EQ(fresh.welcomePage()->recentList()->textElideMode(), Qt::ElideMiddle);
    QSignalSpy opened(&window_, &MainWindow::reportsOpened);
    entry->trigger();
    ASSERT_TRUE(opened.wait(60000));
    ASSERT_NE(window_.browser(), nullptr);
    EXPECT_TRUE(window_.browser()->timeSummary().has_value());
}

// Tables are read in pages (LIMIT/OFFSET, doubling): every row comes exactly once, in order,
// and the first screen reads one page only.
TEST(PagedTable, EveryRowComesOnceInOrderAcrossPages) {
    const QString dir = QString::fromStdString(test::makeTempDir());
    TimeReport time;
    for (int i = 0; i < 3000; ++i)
        time.entries.push_back({"aten::op" + std::to_string(i % 7),
                                double((i * 7919) % 1000) / 8,
                                std::nullopt,
                                {{"model.py", 1 + i % 40}},
                                ""});
    const QString path = dir + QStringLiteral("/paged.time.sqlite");
    writeTimeReport(time, path.toStdString(), Overwrite::Refuse);
    ReportRun run({path});
    ASSERT_TRUE(QTest::qWaitFor([&run] { return run.isOpened(); }, 60000));
    ASSERT_TRUE(run.contents().time_summary) << run.contents().errors.join('\n').toStdString();
    std::unique_ptr<SqlTableModel> model(new SqlTableModel(
        run.rows(ReportKind::Time),
        operationsTable(run.contents().time->tables, run.contents().time_summary->times)));
    test::waitForRows(model.get());
    EXPECT_EQ(model->rowCount(), 256);
    EXPECT_TRUE(model->canFetchMore({}));
    model->sort(4, Qt::DescendingOrder);  // total (ms)
    test::waitForRows(model.get());
    EXPECT_EQ(model->rowCount(), 256) << "a sort reads the first page again, no more";
    while (model->canFetchMore({})) {
        model->fetchMore({});
        EXPECT_FALSE(model->canFetchMore({})) << "a second page asked for before the first came";
        test::waitForRows(model.get());
    }
    ASSERT_EQ(model->rowCount(), 3000);
    QSet<qint64> ids;
    for (int row = 0; row < model->rowCount(); ++row) {
        ids.insert(model->entryId(row));
        if (row > 0) {
            const double before = model->rawValue(row - 1, 4).toDouble();
            const double now = model->rawValue(row, 4).toDouble();
            ASSERT_GE(before, now) << row;
            if (before == now) {  // ties in id order: the unique column ends every order
                ASSERT_LT(model->entryId(row - 1), model->entryId(row)) << row;
            }
        }
    }
    EXPECT_EQ(ids.size(), 3000);
    EXPECT_TRUE(model->errorMessage().isEmpty());
    model.reset();
    QDir(dir).removeRecursively();
}

}  // namespace

namespace trainscope::ui {

// A long "module · operation" loses the start of its module, not its operation (a compiled
// run's Time tab read "blocks.0.attn …or_cpu.default"); an operation too long alone, or a name
// of one part (a compiled kernel), loses its middle; one that fits stays whole.
TEST(EntryNames, ElideTheModulesStartBeforeTheOperation) {
    const QFontMetrics metrics(QApplication::font());
    const QString operation =
        QStringLiteral("aten::_scaled_dot_product_flash_attention_for_cpu.default");
    const QString name = QStringLiteral("blocks.0.attn · ") + operation;
    EXPECT_EQ(elidedEntryName(name, metrics, 10000), name);
    const int width = metrics.horizontalAdvance(QStringLiteral("…attn · ") + operation);
    const QString shown = elidedEntryName(name, metrics, width);
    EXPECT_TRUE(shown.endsWith(QStringLiteral(" · ") + operation)) << shown.toStdString();
    EXPECT_TRUE(shown.startsWith(QStringLiteral("…"))) << shown.toStdString();
    EXPECT_LE(metrics.horizontalAdvance(shown), width);
    const QString narrow = elidedEntryName(name, metrics, metrics.horizontalAdvance(operation) / 2);
    EXPECT_TRUE(narrow.startsWith(QStringLiteral("aten::")) && narrow.contains(QChar(0x2026)) &&
                narrow.endsWith(QStringLiteral("default")))
        << narrow.toStdString();
    const QString kernel = QStringLiteral("cpp_fused_gelu_gelu_backward_sum_view_1");
    const QString cut = elidedEntryName(kernel, metrics, metrics.horizontalAdvance(kernel) / 2);
    EXPECT_TRUE(cut.startsWith(QStringLiteral("cpp_")) && cut.endsWith(QStringLiteral("view_1")))
        << cut.toStdString();
}

}  // namespace trainscope::ui
