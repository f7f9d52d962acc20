// SPDX-License-Identifier: Apache-2.0
// A run's reports are read on the run's worker thread: the GUI thread gets the stages in
// order, a query nobody waits for any more stops at once, and closing a run stops whatever it
// was reading instead of waiting for it.
#include <gtest/gtest.h>

#include <QTest>
#include <QThread>
#include <atomic>

#include "reading/report_run.h"
#include "reading/untrusted_sqlite.h"
#include "ui/sample_run.h"

using namespace trainscope;
using namespace trainscope::ui;

namespace {

using ReportRunTest = test::SampleRunTest;

// A query that would run until its time budget stops it.
RowRequest endlessQuery() {
    RowRequest request;
    request.sql = QStringLiteral(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n");
    request.columns = 1;
    return request;
}

bool waitUntilOpened(const ReportRun& run) {
    return QTest::qWaitFor([&run] { return run.isOpened(); }, 60000);
}

TEST_F(ReportRunTest, StagesComeInOrderOffTheGuiThread) {
    ReportRun run({path("run.time.sqlite")});
    EXPECT_FALSE(run.isOpened()) << "opening ran on the calling thread";
    bool charts_after_open = false;
    QObject::connect(&run, &ReportRun::chartsRead, &run,
                     [&] { charts_after_open = run.isOpened(); });
    ASSERT_TRUE(waitUntilOpened(run));
    const RunContents& contents = run.contents();
    ASSERT_TRUE(contents.memory && contents.time) << "the sibling comes along";
    EXPECT_EQ(contents.paths(), (QStringList{path("run.memory.sqlite"), path("run.time.sqlite")}));
    EXPECT_TRUE(contents.errors.isEmpty());
    ASSERT_TRUE(contents.time_summary);
    EXPECT_EQ(contents.time_summary->operations, 6);
    ASSERT_TRUE(QTest::qWaitFor([&run] { return run.charts().has_value(); }, 60000));
    EXPECT_TRUE(charts_after_open);
    EXPECT_EQ(run.charts()->operations.rows.value(0).name, QStringLiteral("aten::linear"));

    QVector<FrameRow> frames;
    Qt::HANDLE answered_on = nullptr;
    run.readFrames(
        ReportKind::Time,
        [](const ReportFile& report, QString* error) {
            return stackFrames(report, EntryTable::Operation, 1, error);
        },
        &run,
        [&](const QVector<FrameRow>& read, const QString& error) {
            EXPECT_TRUE(error.isEmpty()) << error.toStdString();
            frames = read;
            answered_on = QThread::currentThreadId();
        });
    ASSERT_TRUE(QTest::qWaitFor([&] { return answered_on != nullptr; }, 60000));
    EXPECT_EQ(answered_on, QThread::currentThreadId()) << "answers come on the run's thread";
    ASSERT_EQ(frames.size(), 2);
    EXPECT_EQ(frames[0].file_path, QStringLiteral("layers.py"));
}

TEST_F(ReportRunTest, FilesThatAreNoReportAreNamedWithTheReason) {
    const QString text = path("notes.txt");
    QFile file(text);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("not a database\n");
    file.close();
    ReportRun run({text, path("missing.sqlite")});
    ASSERT_TRUE(waitUntilOpened(run));
    EXPECT_TRUE(run.contents().isEmpty());
    ASSERT_EQ(run.contents().errors.size(), 2);
    EXPECT_TRUE(run.contents().errors[1].contains(QStringLiteral("does not exist")))
        << run.contents().errors[1].toStdString();
}

// The queries' budget on a clock of the test's: one that stands still (no budget ever runs out,
// so only what the test checks can stop a query), or one that moves a millisecond each time
// the budget is checked (how far it moved says how long a query ran, whatever the machine).
std::atomic<qint64> g_ticks{0};
qint64 standingClock() {
    return 0;
}
qint64 tickingClock() {
    return g_ticks++;
}

TEST_F(ReportRunTest, AnAbandonedQueryStopsAtOnce) {
    ReportRun run({path("run.time.sqlite")});
    ASSERT_TRUE(waitUntilOpened(run));
    const QueryClock previous = setQueryClock(&standingClock);
    RowRequest request = endlessQuery();
    const std::shared_ptr<std::atomic<bool>> abandoned = request.abandoned;
    std::optional<RowPage> answer;
    run.rows(ReportKind::Time)->read(std::move(request), &run, [&](const RowPage& page) {
        answer = page;
    });
    QTest::qWait(200);  // the query runs
    EXPECT_FALSE(answer.has_value());
    *abandoned = true;  // the only thing that can end it
    const bool stopped = QTest::qWaitFor([&] { return answer.has_value(); }, 30000);
    setQueryClock(previous);
    ASSERT_TRUE(stopped) << "the query ran on after it was abandoned";
    EXPECT_TRUE(answer->error.contains(QStringLiteral("interrupt"))) << answer->error.toStdString();
}

TEST_F(ReportRunTest, ClosingARunStopsTheQueryItRuns) {
    auto run = std::make_unique<ReportRun>(QStringList{path("run.time.sqlite")});
    ASSERT_TRUE(waitUntilOpened(*run));
    // Were closing to wait for the query, it would end only when this budget ran out.
    constexpr int kBudget = 20000;
    setQueryBudget(kBudget);
    const QueryClock previous = setQueryClock(&tickingClock);
    const qint64 started = g_ticks.load();
    bool answered = false;
    run->rows(ReportKind::Time)->read(endlessQuery(), run.get(), [&](const RowPage&) {
        answered = true;
    });
    QTest::qWait(200);
    run.reset();
    const qint64 used = g_ticks.load() - started;
    setQueryClock(previous);
    setQueryBudget(kQueryBudgetMs);
    EXPECT_LT(used, kBudget) << "closing waited for the query to use up its budget";
    QTest::qWait(50);
    EXPECT_FALSE(answered) << "an answer came for a closed run";
}

}  // namespace
