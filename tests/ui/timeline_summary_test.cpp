// SPDX-License-Identifier: Apache-2.0
// Timelines in the app: a database in the format of torch_npu's profiler (made by
// tests/fixtures/make_ascend_db.py) opened as a user opens it. Its summary is read off the GUI
// thread and shows what SQL computes from the file; the file is left as it was.
#include <gtest/gtest.h>

#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <cstdlib>
#include <filesystem>

#include "main_window.h"
#include "support/bounded_command.h"
#include "support/folder_snapshot.h"
#include "support/report_reader.h"
#include "ui/sample_run.h"
#include "views/timeline_summary_page.h"

namespace fs = std::filesystem;
using namespace trainscope;
using namespace trainscope::ui;

namespace {

class TimelineSummaryTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = test::makeTempDir();
        db_ = dir_ + "/ascend_pytorch_profiler_1.db";
        const std::string command =
            std::string(TRAINSCOPE_PYTHON) + " " + ASCEND_DB_GENERATOR + " " + db_ + " --calls 300";
        ASSERT_EQ(std::system(trainscope::test::bounded(command).c_str()), 0);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // The page's summary, once the worker has read it.
    static TimelineSummaryPage* loadedPage(QTabWidget* tabs) {
        TimelineSummaryPage* page = nullptr;
        for (int i = 0; i < tabs->count() && !page; ++i)
            page = qobject_cast<TimelineSummaryPage*>(tabs->widget(i));
        if (page) {
            EXPECT_TRUE(QTest::qWaitFor([page] { return page->loaded(); }, 10000));
        }
        return page;
    }

    std::string dir_, db_;
};

TEST_F(TimelineSummaryTest, AnAscendDatabaseOpensWithItsStepsPeaksAndTopOperations) {
    const QStringList before = test::folderSnapshot(QString::fromStdString(dir_));
    MainWindow window;
    window.show();
    ASSERT_TRUE(trainscope::test::openAndWait(window, {QString::fromStdString(db_)}))
        << window.lastError().toStdString();
    ASSERT_NE(window.timelines(), nullptr);
    EXPECT_EQ(window.browser(), nullptr);
    TimelineSummaryPage* page = loadedPage(window.timelines());
    ASSERT_NE(page, nullptr);

    const QString text = page->totals()->text();
    const std::string copy = dir_ + "-copy.db";
    fs::copy_file(db_, copy);
    const test::ReportReader db(copy);
    EXPECT_TRUE(text.contains(QStringLiteral("Step 50:"))) << text.toStdString();
    // The threads counted in words a person reads ("on one thread", "on 3 threads").
    const int threads = std::stoi(db.scalar("SELECT COUNT(DISTINCT globalTid) FROM PYTORCH_API"));
    EXPECT_TRUE(text.contains(
        QStringLiteral("Framework calls: %1 on %2, spanning")
            .arg(QString::fromStdString(db.scalar("SELECT COUNT(*) FROM PYTORCH_API")),
                 threads == 1 ? QStringLiteral("one thread")
                              : QStringLiteral("%1 threads").arg(threads))))
        << text.toStdString();
    // Each kind of call named in words with its count ("op 124" said nothing).
    const QString ops_counted = QLocale().toString(std::stoll(db.scalar(
        "SELECT COUNT(*) FROM PYTORCH_API WHERE type = (SELECT id FROM ENUM_API_TYPE WHERE "
        "name = 'op')")));
    EXPECT_TRUE(text.contains(QStringLiteral("operations: %1").arg(ops_counted)))
        << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("(op "))) << text.toStdString();
    const std::string pta =
        "FROM MEMORY_RECORD WHERE component = (SELECT id FROM STRING_IDS "
        "WHERE value = 'PTA')";
    const QString peak =
        QLocale().toString(std::stoll(db.scalar("SELECT MAX(totalAllocated) " + pta)));
    EXPECT_TRUE(text.contains(QStringLiteral("Memory of PyTorch's allocator (PTA): peak "
                                             "allocated")) &&
                text.contains(QStringLiteral("(%1 bytes)").arg(peak)))
        << text.toStdString();
    EXPECT_TRUE(
        text.contains(QStringLiteral("Device: %1 tasks")
                          .arg(QString::fromStdString(db.scalar("SELECT COUNT(*) FROM TASK")))))
        << text.toStdString();
    // A read-only reader of a WAL file leaves its -wal and -shm (it may not delete them).
    for (const char* suffix : {"", "-wal", "-shm"})
        fs::remove(copy + suffix);

    // The tables: the `op` names by summed duration, the largest blocks first.
    QTableWidget* ops = page->operationsTable();
    ASSERT_GT(ops->rowCount(), 0);
    const QString top_name = ops->item(0, 2)->text();
    EXPECT_TRUE(top_name.startsWith(QStringLiteral("aten::"))) << top_name.toStdString();
    // A row is one line of text high, as in the report tables.
    EXPECT_LE(ops->rowHeight(0), ops->fontMetrics().height() + 6);
    EXPECT_GT(page->allocationsTable()->rowCount(), 0);
    EXPECT_TRUE(page->allocationsTable()->item(0, 0)->text().contains(QStringLiteral("1 MiB")) ||
                page->allocationsTable()->item(0, 0)->text().contains(QStringLiteral("1.0 MiB")))
        << page->allocationsTable()->item(0, 0)->text().toStdString();

    // Reading created and changed nothing (the file is in WAL mode).
    EXPECT_EQ(test::folderSnapshot(QString::fromStdString(dir_)), before);
}

// 200,000 steps (the hostile corpus's): ten are listed, the rest summed up in one line, so that
// the summary stays a screen high (it once grew taller than an image can be, after minutes).
TEST_F(TimelineSummaryTest, ManyStepsAreListedTenAndSummarizedInOneLine) {
    MainWindow window;
    window.show();
    ASSERT_TRUE(trainscope::test::openAndWait(
        window, {QStringLiteral(HOSTILE_CORPUS "/mlp-timeline-steps-200000.sqlite")}))
        << window.lastError().toStdString();
    TimelineSummaryPage* page = loadedPage(window.timelines());
    ASSERT_NE(page, nullptr);
    const QString text = page->totals()->text();
    EXPECT_TRUE(text.contains(QStringLiteral("Step 10: ")) && !text.contains("Step 11: "))
        << text.toStdString();
    auto ms = [](double value) { return QLocale().toString(value, 'f', 3); };
    EXPECT_TRUE(text.contains(QStringLiteral("… and %1 more steps; all %2: shortest %3 ms, "
                                             "median %4 ms, longest %5 ms")
                                  .arg(QLocale().toString(199990), QLocale().toString(200000),
                                       ms(0.5), ms(0.503), ms(0.506))))
        << text.toStdString();
    EXPECT_LT(page->totals()->sizeHint().height(), 760);
}

TEST_F(TimelineSummaryTest, AnSqliteFileWithNoKnownReportGetsAClearMessage) {
    const std::string other = dir_ + "/other.db";
    const std::string command = std::string(TRAINSCOPE_PYTHON) +
                                " -c \"import sqlite3; d = sqlite3.connect('" + other +
                                "'); d.execute('CREATE TABLE t (id INTEGER PRIMARY KEY "
                                "AUTOINCREMENT)'); d.execute('INSERT INTO t DEFAULT VALUES'); "
                                "d.execute('DROP TABLE t'); d.commit()\"";
    ASSERT_EQ(std::system(trainscope::test::bounded(command).c_str()), 0);
    MainWindow window;
    EXPECT_FALSE(trainscope::test::openAndWait(window, {QString::fromStdString(other)}));
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("not a known report")))
        << window.lastError().toStdString();
    EXPECT_EQ(window.timelines(), nullptr);
}

}  // namespace
