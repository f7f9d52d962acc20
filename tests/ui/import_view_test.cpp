// SPDX-License-Identifier: Apache-2.0
// Other tools' files opened in the app as a user opens them: a torch.profiler trace recorded by
// this build's Python (tests/fixtures/make_profiler_trace.py) and a memory snapshot of the
// hostile corpus (tests/fuzz/import_corpus.py) become tabs like a run's, their reports kept
// beside them so that a second opening reads those; a pickle that would run code is refused in
// one line with nothing written; a cancelled import leaves nothing.
#include <gtest/gtest.h>

#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPieSeries>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <cstdlib>
#include <filesystem>

#include "main_window.h"
#include "reading/sql_table_model.h"
#include "run/file_import.h"
#include "support/bounded_command.h"
#include "support/folder_snapshot.h"
#include "support/report_reader.h"
#include "timeline/timeline_page.h"
#include "ui/sample_run.h"
#include "views/entry_table_view.h"
#include "views/modules_model.h"
#include "views/modules_page.h"
#include "views/report_browser.h"
#include "views/time_page.h"
#include "views/timeline_summary_page.h"

namespace fs = std::filesystem;
using namespace trainscope;
using namespace trainscope::ui;

namespace {

QStringList tabTitles(const QTabWidget* tabs) {
    QStringList titles;
    for (int i = 0; i < tabs->count(); ++i)
        titles << tabs->tabText(i).remove(QLatin1Char('&'));
    return titles;
}

class ImportViewTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = QString::fromStdString(test::makeTempDir());
        trace_ = dir_ + QStringLiteral("/step.json");
        const std::string command = std::string(TRAINSCOPE_PYTHON) + " " + PROFILER_TRACE_RECORDER +
                                    " " + (dir_ + QStringLiteral("/step")).toStdString() +
                                    " > /dev/null 2>&1";
        ASSERT_EQ(std::system(test::bounded(command).c_str()), 0);
    }
    void TearDown() override { fs::remove_all(dir_.toStdString()); }

    QString dir_, trace_;
};

// A GPU trace recorded by others (tests/data/gpu-traces): the Time tab's times are the device's,
// each header says so, and the CPU's follow; the Overview says which they are.
TEST_F(ImportViewTest, AGpuTracesTimesAreTheDevicesWithTheCpusBeside) {
    const QString trace = dir_ + QStringLiteral("/alexnet.json.gz");
    ASSERT_TRUE(QFile::copy(QStringLiteral(GPU_TRACES "/a100_alexnet.json.gz"), trace));
    MainWindow window;
    window.show();
    ASSERT_TRUE(test::openAndWait(window, {trace})) << window.lastError().toStdString();
    ReportBrowser* browser = window.browser();
    ASSERT_NE(browser, nullptr);
    EXPECT_TRUE(browser->overviewText().contains(QStringLiteral(
        "Operation times are device times: the kernels, copies and sets each operation "
        "launched\nDevice work: kernels 79, copies 16, sets 3 on streams 2; joined to their "
        "operation 98\n")))
        << browser->overviewText().toStdString();
    // Its whole recording is its one iteration: no median.
    EXPECT_TRUE(browser->overviewText().startsWith(
        QStringLiteral("Iteration (wall, one iteration timed): 43,425.365 ms\nSum of "
                       "operations' device time: ")))
        << browser->overviewText().toStdString();
    // The GPU it ran on, as the trace names it.
    EXPECT_TRUE(browser->overviewText().contains(
        QStringLiteral("Recorded on NVIDIA A100-PG509-200, 39.39 GiB, 108 SMs, rank 0\n")))
        << browser->overviewText().toStdString();
    // The device's sum is no share of the CPU's wall clock.
    EXPECT_FALSE(browser->overviewText().contains(QStringLiteral("of the iteration")));
    browser->tabs()->setCurrentWidget(browser->timePage());
    test::waitForReads();
    QAbstractItemModel* ops = browser->operationsView()->model();
    // The headers without their unit (one for all the table's times: here seconds, as the
    // CPU's 43 s recording is the largest).
    QStringList headers;
    for (int c = 0; c < ops->columnCount(); ++c)
        headers
            << ops->headerData(c, Qt::Horizontal).toString().section(QStringLiteral(" ("), 0, 0);
    for (const char* header : {"Device fwd", "Device bwd", "CPU fwd", "CPU bwd", "Device total"})
        EXPECT_TRUE(headers.contains(QLatin1String(header))) << headers.join(',').toStdString();
    // Every row's device time and CPU time are the report's.
    const test::ReportReader report(
        (trace + QStringLiteral(".trainscope.time.sqlite")).toStdString());
    const int device = int(headers.indexOf(QStringLiteral("Device fwd")));
    const int cpu = int(headers.indexOf(QStringLiteral("CPU fwd")));
    double device_sum = 0, cpu_sum = 0;
    for (int row = 0; row < ops->rowCount(); ++row) {
        device_sum += ops->index(row, device).data(SqlTableModel::SortRole).toDouble();
        cpu_sum += ops->index(row, cpu).data(SqlTableModel::SortRole).toDouble();
    }
    EXPECT_NEAR(device_sum,
                std::stod(report.scalar("SELECT SUM(forward_ms) FROM run_time_entries")), 1e-9);
    EXPECT_NEAR(cpu_sum,
                std::stod(report.scalar("SELECT SUM(forward_ms) FROM trainscope_entry_cpu_times")),
                1e-6);
    EXPECT_GT(cpu_sum, device_sum);
    // The Overview charts the step as the device spent it: each slice the report's figure.
    QChart* device_chart = nullptr;
    for (QChartView* view : browser->findChildren<QChartView*>())
        if (view->chart()->title().startsWith(QStringLiteral("Device time of the listed step")))
            device_chart = view->chart();
    ASSERT_NE(device_chart, nullptr);
    const auto* pie = qobject_cast<QPieSeries*>(device_chart->series().value(0));
    ASSERT_NE(pie, nullptr);
    ASSERT_EQ(pie->count(), 4);
    const char* keys[] = {"device_computation_ns", "device_communication_ns", "device_memory_ns",
                          "device_idle_ns"};
    double sum = 0;
    for (int i = 0; i < 4; ++i) {
        const double ns = std::stod(report.scalar(
            std::string("SELECT value FROM trainscope_metadata WHERE key = '") + keys[i] + "'"));
        EXPECT_NEAR(pie->slices()[i]->value(), ns / 1e6, 1e-9) << keys[i];
        sum += ns;
    }
    EXPECT_EQ(sum, std::stod(report.scalar(
                       "SELECT value FROM trainscope_metadata WHERE key = 'device_step_ns'")));
}

TEST_F(ImportViewTest, ATraceOpensAsARunAndItsReportsAreKeptBesideIt) {
    MainWindow window;
    window.show();
    ASSERT_TRUE(test::openAndWait(window, {trace_})) << window.lastError().toStdString();
    ASSERT_NE(window.browser(), nullptr);
    const QStringList tabs = tabTitles(window.browser()->tabs());
    EXPECT_TRUE(tabs.contains(QStringLiteral("Time"))) << tabs.join(',').toStdString();
    EXPECT_TRUE(tabs.contains(QStringLiteral("Timeline"))) << tabs.join(',').toStdString();
    const QString time = trace_ + QStringLiteral(".trainscope.time.sqlite");
    ASSERT_TRUE(QFileInfo::exists(time));
    const test::ReportReader report(time.toStdString());
    EXPECT_GT(std::stoi(report.scalar("SELECT COUNT(*) FROM run_time_entries")), 10);
    // A trace without links from backward nodes to operations (this Python's torch 1.13: no
    // fwdbwd flows) says why no operation has a backward time; one with them does not.
    QFile file(trace_);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const bool flows = file.readAll().contains("\"fwdbwd\"");
    const QString overview = window.browser()->overviewText();
    EXPECT_EQ(overview.contains(QStringLiteral("Backward not attributed: the trace's ")), !flows)
        << overview.toStdString();

    // A second opening reads the reports made the first time.
    const QDateTime made = QFileInfo(time).lastModified();
    QTest::qWait(1100);  // a rewrite would have another time
    MainWindow again;
    ASSERT_TRUE(test::openAndWait(again, {trace_})) << again.lastError().toStdString();
    EXPECT_EQ(QFileInfo(time).lastModified(), made);
    EXPECT_EQ(FileImport::importedReports(trace_).size(),
              QFileInfo::exists(trace_ + QStringLiteral(".trainscope.memory.sqlite")) ? 3 : 2);
}

TEST_F(ImportViewTest, ASnapshotOpensWithItsPeakAndCurve) {
    const QString snapshot = dir_ + QStringLiteral("/snapshot.pickle");
    ASSERT_TRUE(QFile::copy(QStringLiteral(HOSTILE_CORPUS "/snapshot-original.pickle"), snapshot));
    MainWindow window;
    window.show();
    ASSERT_TRUE(test::openAndWait(window, {snapshot})) << window.lastError().toStdString();
    ASSERT_NE(window.browser(), nullptr);
    const QStringList tabs = tabTitles(window.browser()->tabs());
    EXPECT_TRUE(tabs.contains(QStringLiteral("Memory"))) << tabs.join(',').toStdString();
    EXPECT_TRUE(tabs.contains(QStringLiteral("Timeline"))) << tabs.join(',').toStdString();
    // It holds no modules (nor times) to group its blocks by; its lines it does.
    EXPECT_FALSE(tabs.contains(QStringLiteral("Modules"))) << tabs.join(',').toStdString();
    EXPECT_TRUE(tabs.contains(QStringLiteral("By Source Line"))) << tabs.join(',').toStdString();
    // The corpus's snapshot: nothing alive before its trace (its one block at the end is its
    // trace's last allocation), and 2,048 bytes at its peak, freed before that allocation.
    const test::ReportReader report(
        (snapshot + QStringLiteral(".trainscope.memory.sqlite")).toStdString());
    EXPECT_EQ(report.scalar("SELECT size_bytes FROM misc_sizes WHERE key = 'peak_usage_bytes'"),
              "2048");
    // A snapshot's entries are its blocks at the peak by category, not activations: the
    // Overview neither sums them as the iteration's activations nor says weights 0 B, and its
    // chart and the Memory tab's table and chart name them as blocks and categories.
    const QString overview = window.browser()->overviewText();
    EXPECT_FALSE(overview.contains(QStringLiteral("Over the iteration"))) << overview.toStdString();
    EXPECT_FALSE(overview.contains(QStringLiteral("weights 0 B"))) << overview.toStdString();
    // What show says the snapshot cannot say, the Overview says too.
    EXPECT_TRUE(overview.contains(
        QStringLiteral("Memory incomplete: imported from a memory snapshot: the memory of "
                       "device 0;")))
        << overview.toStdString();
    QAbstractItemModel* table = window.browser()->activationsView()->model();
    QStringList headers;
    for (int column = 0; column < table->columnCount(); ++column)
        if (!window.browser()->activationsView()->isColumnHidden(column))
            headers << table->headerData(column, Qt::Horizontal).toString();
    EXPECT_TRUE(headers.contains(QStringLiteral("Category"))) << headers.join(',').toStdString();
    EXPECT_FALSE(headers.contains(QStringLiteral("Operation"))) << headers.join(',').toStdString();
    test::waitForReads();
    QStringList titles, bars;
    for (QChartView* view : window.browser()->findChildren<QChartView*>()) {
        titles << view->chart()->title();
        if (view->chart()->title() == QLatin1String("Largest blocks alive at the peak"))
            for (QAbstractAxis* axis : view->chart()->axes(Qt::Vertical))
                if (auto* names = qobject_cast<QBarCategoryAxis*>(axis))
                    bars << names->categories();
    }
    // A category at a line: its bar says the line (file name and line), as show does.
    EXPECT_TRUE(bars.contains(QStringLiteral("train.py:12 · activation")))
        << bars.join(',').toStdString();
    EXPECT_EQ(titles.count(QStringLiteral("Largest blocks alive at the peak")), 2)
        << titles.join(',').toStdString();
    EXPECT_FALSE(titles.contains(QStringLiteral("Largest activations")));
    EXPECT_FALSE(titles.contains(QStringLiteral("Top operations by activation memory")));
}

TEST_F(ImportViewTest, ASnapshotWithoutTimesSaysItsSpansCountEvents) {
    const QString snapshot = dir_ + QStringLiteral("/untimed.pickle");
    ASSERT_TRUE(QFile::copy(QStringLiteral(HOSTILE_CORPUS "/snapshot-untimed.pickle"), snapshot));
    MainWindow window;
    window.show();
    ASSERT_TRUE(test::openAndWait(window, {snapshot})) << window.lastError().toStdString();
    // Its events are 1 µs apart in order: the summary counts events where it said ms, and the
    // timeline says that its axis is their order.
    const auto summaries = window.findChildren<TimelineSummaryPage*>();
    ASSERT_EQ(summaries.size(), 1);
    TimelineSummaryPage* summary = summaries.front();
    ASSERT_TRUE(QTest::qWaitFor([&] { return summary->loaded(); }, 30000));
    const QString totals = summary->totals()->text();
    EXPECT_TRUE(totals.startsWith(QStringLiteral("The file holds no times")))
        << totals.toStdString();
    EXPECT_FALSE(totals.contains(QStringLiteral(" ms"))) << totals.toStdString();
    QTableWidget* allocations = summary->allocationsTable();
    ASSERT_GT(allocations->rowCount(), 0);
    for (int row = 0; row < allocations->rowCount(); ++row) {
        const QString freed = allocations->item(row, 1)->text();
        EXPECT_TRUE(freed.endsWith(QStringLiteral(" event")) ||
                    freed.endsWith(QStringLiteral(" events")) ||
                    freed == QStringLiteral("never freed"))
            << freed.toStdString();
    }
    const auto timelines = window.findChildren<TimelinePage*>();
    ASSERT_EQ(timelines.size(), 1);
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return timelines.front()->status()->text().startsWith(QStringLiteral("No times")); },
        30000))
        << timelines.front()->status()->text().toStdString();
}

TEST_F(ImportViewTest, AnImportedTracesModulesSayTheirWeightsAreNotNamed) {
    // The corpus's trace: a module (Linear_0) and memory events, no parameter named.
    const QString trace = dir_ + QStringLiteral("/plain.json");
    ASSERT_TRUE(QFile::copy(QStringLiteral(HOSTILE_CORPUS "/trace-plain-original.json"), trace));
    MainWindow window;
    window.show();
    ASSERT_TRUE(test::openAndWait(window, {trace})) << window.lastError().toStdString();
    ModulesPage* page = window.browser()->modulesPage();
    ASSERT_NE(page, nullptr);
    window.browser()->tabs()->setCurrentWidget(page->parentWidget());
    ASSERT_TRUE(QTest::qWaitFor([&] { return page->isRead(); }, 10000));
    const ModulesModel* model = page->model();
    const int linear = model->tree().find(QStringLiteral("Linear_0"));
    ASSERT_GE(linear, 0);
    const QModelIndex row = model->indexOfModule(linear);
    for (int column : {ModulesModel::Weights, ModulesModel::Gradients})
        EXPECT_EQ(model->index(row.row(), column, row.parent()).data().toString(),
                  QStringLiteral("not named"));
    EXPECT_NE(model->index(row.row(), ModulesModel::Activations, row.parent()).data().toString(),
              QStringLiteral("not named"));
}

TEST_F(ImportViewTest, APickleThatWouldRunCodeIsRefusedInOneLine) {
    const QString evil = dir_ + QStringLiteral("/evil.pickle");
    ASSERT_TRUE(QFile::copy(QStringLiteral(HOSTILE_CORPUS "/snapshot-global.pickle"), evil));
    const QStringList before = test::folderSnapshot(dir_);
    MainWindow window;
    window.show();
    EXPECT_FALSE(test::openAndWait(window, {evil}));
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("would run code")))
        << window.lastError().toStdString();
    EXPECT_FALSE(window.lastError().contains(QLatin1Char('\n')));
    EXPECT_EQ(test::folderSnapshot(dir_), before);
}

TEST_F(ImportViewTest, ACancelledImportLeavesNothing) {
    const QStringList before = test::folderSnapshot(dir_);
    FileImport import({trace_});
    QSignalSpy finished(&import, &FileImport::finished);
    import.cancel();
    import.start();
    ASSERT_TRUE(finished.wait(60000));
    EXPECT_TRUE(import.cancelled());
    EXPECT_TRUE(import.reports().isEmpty());
    EXPECT_TRUE(import.error().isEmpty());
    EXPECT_EQ(test::folderSnapshot(dir_), before);
}

}  // namespace
