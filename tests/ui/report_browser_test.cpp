// SPDX-License-Identifier: Apache-2.0
// The report browser as a user meets it: real reports from the engine's writer, real widgets.
#include <gtest/gtest.h>

#include <QAbstractBarSeries>
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <filesystem>
#include <fstream>

#include "main_window.h"
#include "reading/report_file.h"
#include "reading/sql_table_model.h"
#include "support/bounded_command.h"
#include "support/report_reader.h"
#include "trainscope/report_writer.h"
#include "ui/sample_run.h"
#include "views/entry_table_view.h"
#include "views/memory_page.h"
#include "views/modules_model.h"
#include "views/modules_page.h"
#include "views/report_browser.h"
#include "views/time_page.h"

namespace fs = std::filesystem;
using namespace trainscope;
using namespace trainscope::ui;

namespace {

using BrowserTest = test::SampleRunTest;
using OpenedBrowserTest = test::OpenedRunTest;  // the sample run open in a shown window
using test::clickRow;
using test::items;

}  // namespace

TEST_F(BrowserTest, OpeningOneReportOfARunOpensItsSibling) {
    MainWindow window;
    window.show();
    ASSERT_TRUE(trainscope::test::openAndWait(window, {path("run.time.sqlite")}))
        << window.lastError().toStdString();
    ReportBrowser* browser = window.browser();
    ASSERT_NE(browser, nullptr);
    ASSERT_TRUE(browser->memorySummary().has_value());
    ASSERT_TRUE(browser->timeSummary().has_value());
    EXPECT_EQ(browser->memorySummary()->peak, 20000);
    EXPECT_EQ(browser->memorySummary()->weights, 4160);
    EXPECT_EQ(browser->memorySummary()->activations, 4000);
    EXPECT_FALSE(browser->memorySummary()->at_peak) << "the sample report has no breakdown";
    EXPECT_DOUBLE_EQ(browser->timeSummary()->times.forward_ms, 3.0);
    EXPECT_DOUBLE_EQ(browser->timeSummary()->times.backward_ms, 3.75);
    EXPECT_TRUE(browser->overviewText().contains(QStringLiteral("Peak memory: 19.5 KiB")))
        << browser->overviewText().toStdString();
    EXPECT_EQ(browser->tabs()->count(), 5);  // overview, memory, time, modules, by source line
    EXPECT_EQ(window.windowTitle(), QStringLiteral("run — TrainScope"))
        << "the title names the run";
}

TEST_F(BrowserTest, TablesSortInSqlAndShowNullBackwardAsDash) {
    MainWindow window;
    ASSERT_TRUE(trainscope::test::openAndWait(window, {path("run.memory.sqlite")}));
    QTableView* ops = window.browser()->operationsView();
    ASSERT_NE(ops, nullptr);
    auto* model = qobject_cast<SqlTableModel*>(ops->model());
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Warning);
    ASSERT_EQ(model->rowCount(), 6);
    EXPECT_EQ(model->index(1, 4).data().toString(), QStringLiteral("–"));  // backward
    ops->sortByColumn(5, Qt::DescendingOrder);                             // total
    EXPECT_EQ(model->rowCount(), 6) << "the rows stay until the sorted ones come";
    trainscope::test::waitForRows(model);
    EXPECT_EQ(model->index(0, 1).data().toString(), QStringLiteral("aten::linear"));
    EXPECT_EQ(model->index(1, 1).data().toString(), QStringLiteral("aten::gelu"));
    EXPECT_EQ(model->index(3, 1).data().toString(), QStringLiteral("aten::zeros_like"));
    EXPECT_EQ(model->index(5, 1).data().toString(), QStringLiteral("aten::gone"));  // tie: by id
    ops->sortByColumn(1, Qt::AscendingOrder);                                       // name
    trainscope::test::waitForRows(model);
    EXPECT_EQ(model->index(0, 1).data().toString(), QStringLiteral("aten::escape"));
    // Sorted again before the rows of a sort come: only the last order's rows are shown.
    ops->sortByColumn(5, Qt::DescendingOrder);
    ops->sortByColumn(1, Qt::DescendingOrder);
    trainscope::test::waitForRows(model);
    EXPECT_EQ(model->index(0, 1).data().toString(), QStringLiteral("aten::zeros_like"));

    auto* activations = qobject_cast<SqlTableModel*>(window.browser()->activationsView()->model());
    QAbstractItemModelTester activation_tester(
        activations, QAbstractItemModelTester::FailureReportingMode::Warning);
    window.browser()->activationsView()->sortByColumn(4, Qt::DescendingOrder);  // size
    trainscope::test::waitForRows(activations);
    EXPECT_EQ(activations->index(0, 1).data().toString(), QStringLiteral("aten::gelu"));
    EXPECT_EQ(activations->index(0, 4).data(Qt::ToolTipRole).toString(),
              QStringLiteral("3,000 bytes"));
}

TEST_F(BrowserTest, ClickingAnEntryShowsItsFramesMostSpecificFirst) {
    MainWindow window;
    window.show();
    ASSERT_TRUE(trainscope::test::openAndWait(window, {path("run.time.sqlite")}));
    ReportBrowser* browser = window.browser();
    browser->tabs()->setCurrentWidget(browser->timePage());
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    clickRow(browser->operationsView(), 0);
    EXPECT_EQ(items(browser->framesList()),
              (QStringList{QStringLiteral("layers.py:7"), QStringLiteral("model.py:12")}));

    browser->tabs()->setCurrentIndex(1);  // memory
    clickRow(browser->weightsView(), 0);
    EXPECT_EQ(items(browser->framesList()), (QStringList{QStringLiteral("model.py:12")}));
    clickRow(browser->activationsView(), 1);
    EXPECT_EQ(items(browser->framesList()), (QStringList{QStringLiteral("model.py:13")}));
}

TEST_F(BrowserTest, BadFilesGiveAMessageAndTheWindowStaysUsable) {
    {
        std::ofstream(path("garbage.sqlite").toStdString()) << "this is not a database at all, "
                                                               "just some text that is long enough";
        std::ofstream(path("empty.sqlite").toStdString());
        QSqlDatabase foreign = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), "foreign");
        foreign.setDatabaseName(path("foreign.sqlite"));
        ASSERT_TRUE(foreign.open());
        QSqlQuery(foreign).exec(QStringLiteral("CREATE TABLE songs (title TEXT)"));
        QSqlQuery(foreign).exec(QStringLiteral("CREATE TABLE run_time_entries (title TEXT)"));
        foreign.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("foreign"));
    // A truncated report: the first page only.
    QFile whole(path("run.time.sqlite"));
    ASSERT_TRUE(whole.open(QIODevice::ReadOnly));
    QFile cut(path("truncated.sqlite"));
    ASSERT_TRUE(cut.open(QIODevice::WriteOnly));
    cut.write(whole.read(1024));
    cut.close();

    MainWindow window;
    window.show();
    const QStringList bad = {QStringLiteral("garbage.sqlite"), QStringLiteral("empty.sqlite"),
                             QStringLiteral("foreign.sqlite"), QStringLiteral("truncated.sqlite"),
                             QStringLiteral("missing.sqlite")};
    for (const QString& name : bad) {
        EXPECT_FALSE(trainscope::test::openAndWait(window, {path(name)})) << name.toStdString();
        EXPECT_TRUE(window.lastError().contains(path(name))) << window.lastError().toStdString();
        EXPECT_EQ(window.browser(), nullptr);
    }
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("does not exist")));
    EXPECT_TRUE(trainscope::test::openAndWait(window, {path("run.memory.sqlite")}));
}

TEST_F(BrowserTest, ViewingNeverModifiesTheFile) {
    const std::string file = path("run.memory.sqlite").toStdString();
    const auto before_time = fs::last_write_time(file);
    std::ifstream in(file, std::ios::binary);
    const std::string before((std::istreambuf_iterator<char>(in)), {});
    {
        MainWindow window;
        window.show();
        ASSERT_TRUE(trainscope::test::openAndWait(window, {path("run.memory.sqlite")}));
        window.browser()->weightsView()->sortByColumn(2, Qt::DescendingOrder);
        clickRow(window.browser()->weightsView(), 0);
        window.closeReports();
    }
    std::ifstream again(file, std::ios::binary);
    const std::string after((std::istreambuf_iterator<char>(again)), {});
    EXPECT_EQ(before, after);
    EXPECT_EQ(before_time, fs::last_write_time(file));
    EXPECT_FALSE(fs::exists(file + "-journal"));
    EXPECT_FALSE(fs::exists(file + "-wal"));
}

namespace {

// The standard output of a command.
std::string outputOf(const std::string& command) {
    std::string out;
    FILE* pipe = popen(trainscope::test::bounded(command).c_str(), "r");
    char buffer[4096];
    while (pipe && fgets(buffer, sizeof buffer, pipe))
        out += buffer;
    EXPECT_EQ(pipe ? pclose(pipe) : -1, 0) << command;
    return out;
}

// The first match's captured groups of `pattern` in `text`.
QStringList capturedIn(const QString& text, const QString& pattern) {
    const QRegularExpressionMatch match = QRegularExpression(pattern).match(text);
    return match.hasMatch() ? match.capturedTexts().mid(1) : QStringList();
}

}  // namespace

// "Iteration time" means two things: the measured iteration (wall) and the sum of the
// operations' times. trainscope-cli's summary (after a run, and `show`) and the app's overview
// name both, with the share the operations cover, and the same figures for the same run.
TEST_F(BrowserTest, TheCliAndTheOverviewShowTheWallIterationAndTheSumOfOperationsAlike) {
    const std::string prefix = dir_.toStdString() + "/mlp";
    const std::string profiled = outputOf(std::string(TRAINSCOPE_CLI) +
                                          " profile --model builtin:mlp --param d_model=32 "
                                          "--input 2x8x32 -q -o " +
                                          prefix);
    const QString cli_pattern = QStringLiteral(
        "Iteration \\(wall\\) ([0-9.]+) ms, sum of operations ([0-9.]+) ms \\(forward ([0-9.]+) "
        "ms, backward ([0-9.]+) ms\\), ([0-9.]+)% of the iteration");
    const QStringList cli = capturedIn(QString::fromStdString(profiled), cli_pattern);
    ASSERT_EQ(cli.size(), 5) << profiled;
    const QStringList shown =
        capturedIn(QString::fromStdString(
                       outputOf(std::string(TRAINSCOPE_CLI) + " show " + prefix + ".time.sqlite")),
                   cli_pattern);
    EXPECT_EQ(shown, cli) << "`show` and the run's summary differ";

    MainWindow window;
    ASSERT_TRUE(
        trainscope::test::openAndWait(window, {QString::fromStdString(prefix + ".time.sqlite")}));
    const QStringList overview =
        capturedIn(window.browser()->overviewText(),
                   QStringLiteral("Iteration \\(wall, median of the timed iterations\\): ([0-9.]+) "
                                  "ms\\nSum of operations: "
                                  "([0-9.]+) ms \\(forward ([0-9.]+) ms, backward ([0-9.]+) "
                                  "ms\\), 4 operations, ([0-9.]+)% of the iteration"));
    EXPECT_EQ(overview, cli) << window.browser()->overviewText().toStdString();
}

// A figure's column shows the largest first on the first click; a name's, A to Z.
TEST_F(OpenedBrowserTest, NumericColumnsSortLargestFirstOnTheFirstClick) {
    EntryTableView* ops = browser_->operationsView();
    browser_->tabs()->setCurrentWidget(browser_->timePage());
    QHeaderView* header = ops->horizontalHeader();
    auto clickHeader = [&](int column) {
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                          QPoint(header->sectionViewportPosition(column) + 5, 5));
        trainscope::test::waitForReads();
    };
    clickHeader(5);  // total (ms)
    EXPECT_EQ(header->sortIndicatorOrder(), Qt::DescendingOrder);
    EXPECT_EQ(ops->model()->index(0, 1).data().toString(), QStringLiteral("aten::linear"));
    EXPECT_EQ(ops->model()->index(0, 5).data().toString(), QStringLiteral("4.000"));
    clickHeader(2);  // operation
    EXPECT_EQ(header->sortIndicatorOrder(), Qt::AscendingOrder);
    EXPECT_EQ(ops->model()->index(0, 1).data().toString(), QStringLiteral("aten::escape"));
}

// Ctrl+C copies the selected rows as tab-separated text with the headers, for a spreadsheet.
TEST_F(OpenedBrowserTest, CtrlCCopiesTheSelectedRowsAsTabSeparatedText) {
    EntryTableView* ops = browser_->operationsView();
    browser_->tabs()->setCurrentWidget(browser_->timePage());
    clickRow(ops, 0);
    const QRect third = ops->visualRect(ops->model()->index(2, 2));
    QTest::mouseClick(ops->viewport(), Qt::LeftButton, Qt::ControlModifier, third.center());
    QApplication::clipboard()->clear();
    QTest::keyClick(ops, Qt::Key_C, Qt::ControlModifier);
    const QStringList lines =
        QApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 3) << QApplication::clipboard()->text().toStdString();
    EXPECT_EQ(lines[0],
              QStringLiteral("#\tOperation\tForward (ms)\tBackward (ms)\tTotal (ms)\tShare"));
    EXPECT_TRUE(
        lines[1].startsWith(QStringLiteral("1\tlin_0 · aten::linear\t1.500\t2.500\t4.000\t")))
        << lines[1].toStdString();
    EXPECT_TRUE(lines[2].startsWith(QStringLiteral("3\taten::gelu\t"))) << lines[2].toStdString();
}

// The frames panel follows the tab in front: the frames of that tab's selection, or none, never
// those of a tab left behind.
TEST_F(OpenedBrowserTest, TheFramesPanelFollowsTheTabInFront) {
    ReportBrowser* browser = browser_;
    const QStringList linear{QStringLiteral("layers.py:7"), QStringLiteral("model.py:12")};
    browser->tabs()->setCurrentWidget(browser->timePage());
    clickRow(browser->operationsView(), 0);
    EXPECT_EQ(items(browser->framesList()), linear);

    browser->tabs()->setCurrentWidget(browser->memoryPage());
    trainscope::test::waitForReads();
    EXPECT_EQ(browser->framesList()->count(), 0) << "the Time tab's frames stayed";
    clickRow(browser->weightsView(), 0);
    EXPECT_EQ(items(browser->framesList()), QStringList{QStringLiteral("model.py:12")});

    browser->tabs()->setCurrentWidget(browser->timePage());
    trainscope::test::waitForReads();
    EXPECT_EQ(items(browser->framesList()), linear);
    browser->tabs()->setCurrentIndex(0);  // the overview selects nothing
    trainscope::test::waitForReads();
    EXPECT_EQ(browser->framesList()->count(), 0);
    browser->tabs()->setCurrentWidget(browser->memoryPage());
    trainscope::test::waitForReads();
    EXPECT_EQ(items(browser->framesList()), QStringList{QStringLiteral("model.py:12")});
}

namespace {

// The first bar set of the chart titled `title` under `page`.
QBarSet* barsOf(QWidget* page, const QString& title) {
    for (QChartView* view : page->findChildren<QChartView*>()) {
        if (view->chart()->title() != title)
            continue;
        for (QAbstractSeries* series : view->chart()->series()) {
            if (auto* bars = qobject_cast<QAbstractBarSeries*>(series))
                return bars->barSets().value(0);
        }
    }
    return nullptr;
}

}  // namespace

// A click on a chart's bar selects its row (in the overview: in the tab of its table) and shows
// its frames.
TEST_F(OpenedBrowserTest, ClickingAChartBarSelectsItsRowAndShowsItsFrames) {
    ReportBrowser* browser = browser_;
    const QStringList linear{QStringLiteral("layers.py:7"), QStringLiteral("model.py:12")};
    browser->tabs()->setCurrentWidget(browser->timePage());
    QBarSet* forward = barsOf(browser->timePage(), QStringLiteral("Top operations by time"));
    ASSERT_NE(forward, nullptr);
    // Bars are drawn bottom-up, below an empty category that holds the top bar's name: the
    // last bar is the operation with the most time, entry 1.
    emit forward->clicked(int(forward->count()) - 2);
    trainscope::test::waitForReads();
    EntryTableView* ops = browser->operationsView();
    ASSERT_TRUE(ops->currentIndex().isValid());
    EXPECT_EQ(ops->entryModel()->entryId(ops->currentIndex().row()), 1);
    EXPECT_EQ(items(browser->framesList()), linear);

    browser->tabs()->setCurrentIndex(0);
    QBarSet* activations =
        barsOf(browser->tabs()->widget(0), QStringLiteral("Top operations by activation memory"));
    ASSERT_NE(activations, nullptr);
    emit activations->clicked(int(activations->count()) - 2);  // aten::gelu, 3000 bytes
    trainscope::test::waitForReads();
    EXPECT_EQ(browser->tabs()->currentWidget(), browser->memoryPage());
    EntryTableView* view = browser->activationsView();
    ASSERT_TRUE(view->currentIndex().isValid());
    EXPECT_EQ(view->entryModel()->rawValue(view->currentIndex().row(), 1).toString(),
              QStringLiteral("aten::gelu"));
    EXPECT_EQ(items(browser->framesList()), QStringList{QStringLiteral("model.py:13")});
}

// A row's context menu copies the rows and filters the run to the row's operation.
TEST_F(OpenedBrowserTest, ARowsContextMenuCopiesAndFiltersToItsOperation) {
    ReportBrowser* browser = browser_;
    browser->tabs()->setCurrentWidget(browser->timePage());
    EntryTableView* ops = browser->operationsView();
    const QPoint at = ops->visualRect(ops->model()->index(2, 2)).center();  // aten::gelu
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, ops->viewport()->mapToGlobal(at));
    QApplication::sendEvent(ops->viewport(), &event);
    QMenu* menu = ops->contextMenu();
    ASSERT_NE(menu, nullptr);
    QStringList texts;
    for (QAction* action : menu->actions())
        texts << action->text();
    ASSERT_EQ(texts,
              (QStringList{QStringLiteral("&Copy Rows"), QStringLiteral("&Export Table as CSV…"),
                           QStringLiteral("&Filter to “aten::gelu”")}));
    menu->actions()[0]->trigger();
    EXPECT_TRUE(QApplication::clipboard()->text().contains(QStringLiteral("\n3\taten::gelu\t")))
        << QApplication::clipboard()->text().toStdString();
    menu->actions()[2]->trigger();
    menu->close();
    trainscope::test::waitForReads();
    EXPECT_EQ(browser->timePage()->filterField()->text(), QStringLiteral("aten::gelu"));
    ASSERT_EQ(ops->model()->rowCount(), 1);
    EXPECT_EQ(ops->model()->index(0, 1).data().toString(), QStringLiteral("aten::gelu"));
    // The weights' rows are no operations: no filter there.
    browser->tabs()->setCurrentWidget(browser->memoryPage());
    EntryTableView* weights = browser->weightsView();
    const QPoint weight = weights->visualRect(weights->model()->index(0, 1)).center();
    QContextMenuEvent on_weight(QContextMenuEvent::Mouse, weight,
                                weights->viewport()->mapToGlobal(weight));
    QApplication::sendEvent(weights->viewport(), &on_weight);
    ASSERT_NE(weights->contextMenu(), nullptr);
    EXPECT_EQ(weights->contextMenu()->actions().size(), 2);  // copy and export: no filter
    weights->contextMenu()->close();
}

// A row of many calls (grouped by operation) lists each line they were called from, the line
// of most calls first, not just one call's frames.
TEST_F(BrowserTest, AGroupedRowListsAllItsCallSites) {
    TimeReport time;
    time.entries = {{"aten::mm", 1.0, 1.0, {{"a.py", 3}, {"main.py", 1}}, ""},
                    {"aten::mm", 1.0, 1.0, {{"b.py", 9}}, ""},
                    {"aten::mm", 2.0, 2.0, {{"a.py", 3}, {"main.py", 2}}, ""},
                    {"aten::add", 0.5, std::nullopt, {{"c.py", 4}}, ""}};
    const QString report = path("sites.time.sqlite");
    writeTimeReport(time, report.toStdString(), Overwrite::Refuse);
    MainWindow window;
    window.show();
    ASSERT_TRUE(trainscope::test::openAndWait(window, {report}));
    ReportBrowser* browser = window.browser();
    browser->tabs()->setCurrentWidget(browser->timePage());
    browser->timePage()->groupingChoice()->setCurrentIndex(1);
    trainscope::test::waitForReads();
    EntryTableView* groups = browser->operationsView();
    const int mm =
        groups->model()->index(0, 1).data().toString() == QStringLiteral("aten::mm") ? 0 : 1;
    ASSERT_EQ(groups->model()->index(mm, 1).data().toString(), QStringLiteral("aten::mm"));
    clickRow(groups, mm);
    EXPECT_EQ(items(browser->framesList()),
              (QStringList{QStringLiteral("a.py:3"), QStringLiteral("b.py:9")}));
    // Per invocation again: one call's frames.
    browser->timePage()->groupingChoice()->setCurrentIndex(0);
    trainscope::test::waitForReads();
    clickRow(browser->operationsView(), 1);
    EXPECT_EQ(items(browser->framesList()), QStringList{QStringLiteral("b.py:9")});
}

// The optimizer's operations are optimizer time, not forward time, in every view of the run time
// report: the Overview's sum, the Time tab's table (each call's part beside its time) and its
// bars.
TEST_F(BrowserTest, TheOptimizersOperationsAreOptimizerTimeNotForward) {
    TimeReport time;
    time.entries = {{"aten::linear", 1.5, 2.5, {{"model.py", 12}}, ""},
                    {"aten::clamp", 0.125, std::nullopt, {{"train.py", 20}}, ""},
                    {"Optimizer.step#AdamW.step", 3.0, std::nullopt, {{"train.py", 21}}, ""}};
    time.entries[1].part = StepPart::AfterBackward;
    time.entries[2].part = StepPart::Optimizer;
    time.iteration_ms = 10.0;
    const QString report = path("parts.time.sqlite");
    writeTimeReport(time, report.toStdString(), Overwrite::Refuse);
    MainWindow window;
    window.show();
    ASSERT_TRUE(trainscope::test::openAndWait(window, {report}));
    ReportBrowser* browser = window.browser();
    EXPECT_TRUE(browser->overviewText().contains(
        QStringLiteral("Sum of operations: 7.125 ms (forward 1.500 ms, backward 2.500 ms, after "
                       "backward 0.125 ms, optimizer 3.000 ms), 3 operations")))
        << browser->overviewText().toStdString();

    browser->tabs()->setCurrentWidget(browser->timePage());
    trainscope::test::waitForReads();
    QAbstractItemModel* ops = browser->operationsView()->model();
    QHash<QString, int> column;
    for (int c = 0; c < ops->columnCount(); ++c)
        column[ops->headerData(c, Qt::Horizontal).toString().section(QLatin1Char(' '), 0, 0)] = c;
    // Its own time is the Call's, beside its part (no column is Forward).
    ASSERT_TRUE(column.contains(QStringLiteral("Part"))) << column.keys().join(',').toStdString();
    ASSERT_TRUE(column.contains(QStringLiteral("Call")));
    EXPECT_FALSE(column.contains(QStringLiteral("Forward")));
    QStringList parts;
    QVector<double> calls;
    for (int row = 0; row < ops->rowCount(); ++row) {
        parts << ops->index(row, column[QStringLiteral("Part")]).data().toString();
        calls << ops->index(row, column[QStringLiteral("Call")])
                     .data(SqlTableModel::SortRole)
                     .toDouble();
    }
    EXPECT_EQ(parts, (QStringList{QStringLiteral("Forward"), QStringLiteral("After backward"),
                                  QStringLiteral("Optimizer")}));
    EXPECT_EQ(calls, (QVector<double>{1.5, 0.125, 3.0}));
    // The chart's bars: the optimizer's a set of its own.
    QStringList sets;
    const auto barSets = [&] {
        sets.clear();
        for (QChartView* view : browser->timePage()->findChildren<QChartView*>())
            for (QAbstractSeries* series : view->chart()->series())
                if (auto* bars = qobject_cast<QAbstractBarSeries*>(series))
                    for (QBarSet* set : bars->barSets())
                        sets << set->label();
        return !sets.isEmpty();
    };
    ASSERT_TRUE(QTest::qWaitFor(barSets, 10000)) << "the Time tab's chart came";
    EXPECT_EQ(sets, (QStringList{QStringLiteral("Forward"), QStringLiteral("Backward"),
                                 QStringLiteral("After backward"), QStringLiteral("Optimizer")}));

    // The Modules tab: the model's row (where the optimizer's and the clipping's operations
    // are) says their time in columns of their own, not as Forward.
    ModulesPage* modules = browser->modulesPage();
    browser->tabs()->setCurrentWidget(modules->parentWidget());
    ASSERT_TRUE(QTest::qWaitFor([&] { return modules->isRead(); }, 10000));
    QAbstractItemModel* tree = modules->treeView()->model();
    const QModelIndex model_row = tree->index(0, 0);
    const auto figure = [&](int column) {
        return tree->index(0, column).data(ModulesModel::SortRole).toDouble();
    };
    EXPECT_EQ(model_row.data().toString(), QStringLiteral("(model)"));
    EXPECT_DOUBLE_EQ(figure(ModulesModel::Forward), 1.5);
    EXPECT_DOUBLE_EQ(figure(ModulesModel::Backward), 2.5);
    EXPECT_DOUBLE_EQ(figure(ModulesModel::AfterBackward), 0.125);
    EXPECT_DOUBLE_EQ(figure(ModulesModel::Optimizer), 3.0);
    EXPECT_DOUBLE_EQ(figure(ModulesModel::Total), 7.125);
    EXPECT_FALSE(modules->treeView()->isColumnHidden(ModulesModel::AfterBackward));
    EXPECT_FALSE(modules->treeView()->isColumnHidden(ModulesModel::Optimizer));
    EXPECT_EQ(tree->headerData(ModulesModel::Optimizer, Qt::Horizontal).toString(),
              QStringLiteral("Optimizer (ms)"));
}
