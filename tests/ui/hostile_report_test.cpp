// SPDX-License-Identifier: Apache-2.0
// Reports from anyone: damaged or hostile files open with a message or not at all, never
// crash, hang or change a file, and never make the app show a file outside a root the user
// chose.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTabWidget>
#include <QTest>

#include "main_window.h"
#include "reading/report_file.h"
#include "reading/report_queries.h"
#include "reading/report_run.h"
#include "reading/sql_table_model.h"
#include "reading/untrusted_sqlite.h"
#include "source/source_viewer.h"
#include "support/folder_snapshot.h"
#include "ui/sample_run.h"
#include "views/entry_table_view.h"
#include "views/report_browser.h"
#include "views/source_lines_page.h"
#include "views/source_panel.h"
#include "views/time_page.h"

using namespace trainscope;
using namespace trainscope::ui;

namespace {

class HostileReportTest : public test::SampleRunTest {
  protected:
    // A copy of the sample run time report, changed by `sql` with plain SQLite.
    QString mutated(const QString& name, const char* sql) {
        const QString copy = path(name);
        EXPECT_TRUE(QFile::copy(path("run.time.sqlite"), copy));
        sqlite3* db = nullptr;
        EXPECT_EQ(sqlite3_open(copy.toUtf8().constData(), &db), SQLITE_OK);
        char* error = nullptr;
        EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &error), SQLITE_OK)
            << (error ? error : "");
        sqlite3_free(error);
        sqlite3_close(db);
        return copy;
    }

    // Opens `report` as a user would; returns whether it opened, and checks it took under 10 s
    // and changed no file.
    bool open(const QString& report) {
        const QStringList before = test::folderSnapshot(dir_);
        const bool opened = trainscope::test::openAndWait(window_, {report});
        if (opened) {
            window_.browser()->tabs()->setCurrentIndex(window_.browser()->tabs()->count() - 1);
            QTest::qWait(10);
        }
        EXPECT_EQ(test::folderSnapshot(dir_), before) << "viewing created or changed a file";
        return opened;
    }

    // Shows the Time tab of the open report, whose entries must be readable, and selects its
    // first operation; returns the source panel's message about its frames.
    QString selectFirstOperation() {
        ReportBrowser* browser = window_.browser();
        browser->tabs()->setCurrentWidget(browser->timePage());
        SqlTableModel* operations = browser->operationsView()->entryModel();
        test::waitForRows(operations);
        EXPECT_GT(operations->rowCount(), 1);
        EXPECT_TRUE(operations->errorMessage().isEmpty());
        test::clickRow(browser->operationsView(), 0);
        return browser->sourcePanel()->message();
    }

    MainWindow window_;
};

TEST_F(HostileReportTest, ARecursiveViewInPlaceOfATableIsRefusedAtOnce) {
    const QString report =
        mutated(QStringLiteral("view.time.sqlite"),
                "ALTER TABLE run_time_entries RENAME TO real_entries;"
                "CREATE VIEW run_time_entries AS WITH RECURSIVE n(id) AS (SELECT 1 UNION ALL "
                "SELECT id + 1 FROM n) SELECT id, 'op' AS operation_name, 1.0 AS forward_ms, "
                "NULL AS backward_ms FROM n;");
    EXPECT_FALSE(open(report));
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("not a plain table")))
        << window_.lastError().toStdString();
}

TEST_F(HostileReportTest, InfiniteOrNegativeTimesAreRefusedWithAMessage) {
    EXPECT_FALSE(open(mutated(QStringLiteral("inf.time.sqlite"),
                              "UPDATE run_time_entries SET forward_ms = 9e999 WHERE id = 2")));
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("finite")))
        << window_.lastError().toStdString();
    EXPECT_FALSE(open(mutated(QStringLiteral("neg.time.sqlite"),
                              "UPDATE run_time_entries SET backward_ms = -1 WHERE id = 1")));
    EXPECT_FALSE(open(mutated(QStringLiteral("text.time.sqlite"),
                              "UPDATE run_time_entries SET forward_ms = 'soon' WHERE id = 1")));
}

// A time must be stored as a number, whatever type the file declares for its column: with TEXT
// affinity, '0.5' would compare as text between '0' and '1e15', and a number parsed from text
// ('2abc') would differ between SQLite's sums and the app's cells.
TEST_F(HostileReportTest, TimesStoredAsTextOrBlobsAreRefusedWhateverTheColumnType) {
    const struct {
        const char* name;
        const char* value;
    } cases[] = {
        {"numeric-text", "'0.5'"}, {"text", "'2abc'"}, {"blob", "x'31'"}, {"null", "NULL"}};
    for (const char* type : {"BLOB", "REAL", ""}) {
        for (const auto& bad : cases) {
            const std::string sql = std::string(
                                        "ALTER TABLE run_time_entries RENAME TO old_entries;"
                                        "CREATE TABLE run_time_entries (id INTEGER PRIMARY KEY, "
                                        "operation_name TEXT, forward_ms ") +
                                    type + ", backward_ms " + type +
                                    ");"
                                    "INSERT INTO run_time_entries SELECT * FROM old_entries;"
                                    "DROP TABLE old_entries;"
                                    "UPDATE run_time_entries SET forward_ms = " +
                                    bad.value + " WHERE id = 2;";
            // A REAL column stores numeric text as a number: that file is a sound one.
            const bool stored_as_number =
                std::string(type) == "REAL" && std::string(bad.name) == "numeric-text";
            const QString name = QStringLiteral("%1-%2.time.sqlite").arg(type, bad.name);
            EXPECT_EQ(open(mutated(name, sql.c_str())), stored_as_number) << name.toStdString();
            if (!stored_as_number) {
                EXPECT_TRUE(window_.lastError().contains(QStringLiteral("milliseconds (row 2)")))
                    << name.toStdString() << ": " << window_.lastError().toStdString();
            }
            window_.closeReports();
            // In the backward column, where NULL is allowed (an operation without a backward).
            const std::string backward = sql.substr(0, sql.rfind("UPDATE")) +
                                         "UPDATE run_time_entries SET backward_ms = " + bad.value +
                                         " WHERE id = 2;";
            EXPECT_EQ(open(mutated(QStringLiteral("b") + name, backward.c_str())),
                      stored_as_number || std::string(bad.name) == "null")
                << name.toStdString();
            window_.closeReports();
        }
    }
    // A TEXT column stores every time as text: '0.5' is refused, though as text it lies
    // between '0' and '1e+15'.
    EXPECT_FALSE(open(mutated(QStringLiteral("text-column.time.sqlite"),
                              "ALTER TABLE run_time_entries RENAME TO old_entries;"
                              "CREATE TABLE run_time_entries (id INTEGER PRIMARY KEY, "
                              "operation_name TEXT, forward_ms TEXT, backward_ms TEXT);"
                              "INSERT INTO run_time_entries SELECT * FROM old_entries;"
                              "DROP TABLE old_entries;"
                              "UPDATE run_time_entries SET forward_ms = 0.5, backward_ms = 0.5;")));
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("milliseconds (row 1)")))
        << window_.lastError().toStdString();
    // Numbers in an untyped column still open.
    EXPECT_TRUE(open(mutated(QStringLiteral("untyped.time.sqlite"),
                             "ALTER TABLE run_time_entries RENAME TO old_entries;"
                             "CREATE TABLE run_time_entries (id INTEGER PRIMARY KEY, "
                             "operation_name, forward_ms, backward_ms);"
                             "INSERT INTO run_time_entries SELECT * FROM old_entries;"
                             "DROP TABLE old_entries;"
                             "UPDATE run_time_entries SET forward_ms = 2 WHERE id = 2;")));
}

// The frames are checked after the report opened: its entries are shown, and every view of
// the frames says why they cannot be used instead of showing them.
TEST_F(HostileReportTest, DamagedFramesAreRefusedWhereTheyWouldBeShown) {
    ASSERT_TRUE(open(mutated(QStringLiteral("line.time.sqlite"),
                             "UPDATE stack_frames SET line_number = 3000000000 "
                             "WHERE entry_id = 2 AND ordering = 0")));
    ReportBrowser* browser = window_.browser();
    const QString message = selectFirstOperation();
    EXPECT_TRUE(message.contains(QStringLiteral("out of range"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("stack_frames"))) << message.toStdString();
    ASSERT_EQ(test::items(browser->framesList()),
              QStringList{QStringLiteral("(the frames cannot be read)")});

    SqlTableModel* lines = browser->sourceLinesPage()->timeView()->entryModel();
    test::waitForRows(lines);
    EXPECT_EQ(lines->rowCount(), 0);
    EXPECT_TRUE(lines->errorMessage().contains(QStringLiteral("out of range")))
        << lines->errorMessage().toStdString();

    // A blob where a file path must be: the same, for the other rule.
    window_.closeReports();
    ASSERT_TRUE(open(mutated(QStringLiteral("blob.time.sqlite"),
                             "UPDATE stack_frames SET file_path = x'00' WHERE rowid = 3")));
    SqlTableModel* blob_lines = window_.browser()->sourceLinesPage()->timeView()->entryModel();
    test::waitForRows(blob_lines);
    EXPECT_TRUE(blob_lines->errorMessage().contains(QStringLiteral("not text")))
        << blob_lines->errorMessage().toStdString();
}

// The library frames are checked with the other frames, after the report opened.
TEST_F(HostileReportTest, DamagedLibraryFramesAreRefusedWhereTheyWouldBeShown) {
    ASSERT_TRUE(open(mutated(QStringLiteral("library.time.sqlite"),
                             "INSERT INTO trainscope_library_frames VALUES "
                             "(1, 100, 'torch/nn/modules/linear.py', 114, x'00')")));
    const QString message = selectFirstOperation();
    EXPECT_TRUE(
        message.contains(QStringLiteral("trainscope_library_frames holds a file path "
                                        "that is not text")))
        << message.toStdString();
    EXPECT_EQ(test::items(window_.browser()->framesList()),
              QStringList{QStringLiteral("(the frames cannot be read)")});
}

// Large tables are checked in ranges of rows side by side: a bad row in a later range, or
// bad rows in several, is still found, and the first of them in table order is named.
TEST_F(HostileReportTest, ABadRowPastTheFirstMillionIsFoundAndTheFirstNamed) {
    const char* many =
        "WITH RECURSIVE n(i) AS (SELECT 1000 UNION ALL SELECT i + 1 FROM n WHERE i < 2500000) "
        "INSERT INTO run_time_entries SELECT i, 'aten::op', 0.5, 0.25 FROM n; ";
    EXPECT_FALSE(open(mutated(
        QStringLiteral("late.time.sqlite"),
        (std::string(many) + "UPDATE run_time_entries SET forward_ms = -1 WHERE id = 2400000")
            .c_str())));
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("(row 2400000)")))
        << window_.lastError().toStdString();
    EXPECT_FALSE(
        open(mutated(QStringLiteral("two.time.sqlite"),
                     (std::string(many) + "UPDATE run_time_entries SET forward_ms = -1 WHERE id IN "
                                          "(1500000, 2400000)")
                         .c_str())));
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("(row 1500000)")))
        << window_.lastError().toStdString();
}

// The ranges are cut from the table's smallest and largest rowid, which a hostile file may put
// at both ends of the 64-bit integers (UBSan, in .ci/run, sees any overflow on the way).
TEST_F(HostileReportTest, RowidsAtBothEndsOfTheIntegersAreStillChecked) {
    EXPECT_FALSE(open(mutated(QStringLiteral("ends.time.sqlite"),
                              "INSERT INTO run_time_entries VALUES "
                              "(-9223372036854775808, 'aten::a', 1.0, NULL), "
                              "(9223372036854775807, 'aten::b', -1.0, NULL)")));
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("(row 9223372036854775807)")))
        << window_.lastError().toStdString();
    // The same in the frames, which are checked later, on half the cores (one, on two cores:
    // the span of all 64 bits on one thread once divided by zero).
    window_.closeReports();
    ASSERT_TRUE(open(mutated(QStringLiteral("frame-ends.time.sqlite"),
                             "INSERT INTO stack_frames (rowid, ordering, file_path, line_number, "
                             "entry_id) VALUES (-9223372036854775808, 0, 'a.py', 1, 1000), "
                             "(9223372036854775807, 0, 'b.py', 3000000000, 1001)")));
    SqlTableModel* lines = window_.browser()->sourceLinesPage()->timeView()->entryModel();
    test::waitForRows(lines);
    EXPECT_TRUE(lines->errorMessage().contains(QStringLiteral("(row 9223372036854775807)")))
        << lines->errorMessage().toStdString();
}

TEST_F(HostileReportTest, AMegabyteNameIsShownCut) {
    ASSERT_TRUE(open(mutated(QStringLiteral("long.time.sqlite"),
                             "UPDATE run_time_entries SET operation_name = "
                             "printf('%.*c', 1000000, 'x') WHERE id = 1")));
    auto* model = window_.browser()->operationsView()->entryModel();
    EXPECT_LE(model->rawValue(0, 1).toString().size(), kMaxShownText);
    window_.browser()->tabs()->setCurrentIndex(0);  // the charts with the name in them
    QTest::qWait(10);
}

TEST_F(HostileReportTest, AWalModeOrLockedReportOpensWithoutCreatingFilesOrWaiting) {
    const QString report = mutated(QStringLiteral("wal.time.sqlite"), "PRAGMA journal_mode = WAL;");
    QFile::remove(report + QStringLiteral("-wal"));
    QFile::remove(report + QStringLiteral("-shm"));
    EXPECT_TRUE(open(report));
    window_.closeReports();
    // Another process holds a write lock on a report the user opens.
    const QString locked = mutated(QStringLiteral("locked.time.sqlite"), "SELECT 1");
    sqlite3* holder = nullptr;
    ASSERT_EQ(sqlite3_open(locked.toUtf8().constData(), &holder), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(holder, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
    // Opened while the lock is still held: a reader that waited for the lock would not open it
    // (the lock is released only after), one that gave up waiting would fail.
    EXPECT_TRUE(trainscope::test::openAndWait(window_, {locked}));
    sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(holder);
}

TEST_F(HostileReportTest, AReportCannotChooseItsOwnRootOutsideWhatTheUserAllows) {
    const QString report = mutated(
        QStringLiteral("root.time.sqlite"),
        "INSERT OR REPLACE INTO trainscope_metadata VALUES ('project_root', '/');"
        "UPDATE stack_frames SET file_path = 'etc/passwd', line_number = 1 WHERE entry_id = 1;");
    ASSERT_TRUE(open(report));
    ReportBrowser* browser = window_.browser();
    EXPECT_EQ(browser->projectRoot(), dir_) << "the report chose its own root";
    SourcePanel* panel = browser->sourcePanel();
    EXPECT_TRUE(panel->questionBar()->isVisibleTo(browser));
    browser->tabs()->setCurrentWidget(browser->timePage());
    test::clickRow(browser->operationsView(), 0);
    EXPECT_TRUE(panel->viewer()->currentFile().isEmpty())
        << panel->viewer()->currentFile().toStdString();
    // Allowing once per report: the answer is remembered, and the recorded root applies.
    panel->allowButton()->click();
    EXPECT_EQ(browser->projectRoot(), QStringLiteral("/"));
    EXPECT_FALSE(panel->questionBar()->isVisibleTo(browser));
}

// The library roots are read after the first screens: the question about the source folders
// waits for them, and names each of them when it comes.
TEST_F(HostileReportTest, TheSourceFoldersQuestionNamesEveryLibraryRoot) {
    const QString report = mutated(QStringLiteral("roots.time.sqlite"),
                                   "INSERT INTO trainscope_library_frames VALUES "
                                   "(1, 100, 'torch/nn/modules/linear.py', 114, '/opt/first'), "
                                   "(2, 100, 'torch/nn/modules/linear.py', 114, '/opt/second');");
    ReportRun run({report});
    ASSERT_TRUE(QTest::qWaitFor([&] { return run.isOpened(); }, 60000));
    ASSERT_TRUE(run.contents().time);
    QSignalSpy read(&run, &ReportRun::libraryRootsRead);
    if (!run.contents().libraryRootsKnown()) {
        ASSERT_TRUE(read.wait(60000));
    }
    EXPECT_EQ(*run.contents().time->library_roots,
              (QStringList{QStringLiteral("/opt/first"), QStringLiteral("/opt/second")}));

    ASSERT_TRUE(open(report));
    SourcePanel* panel = window_.browser()->sourcePanel();
    ASSERT_TRUE(panel->questionBar()->isVisibleTo(window_.browser()));
    QStringList shown;
    for (const QLabel* label : panel->questionBar()->findChildren<QLabel*>())
        shown << label->text();
    EXPECT_TRUE(shown.join(' ').contains(QStringLiteral("/opt/first, /opt/second")))
        << shown.join(' ').toStdString();
}

// After "Don't Show", a library frame chosen says how to show it, and the question is asked
// again where that answer is given; the editor does not ask for a frame while one is chosen.
TEST_F(HostileReportTest, ALibraryFrameAfterDontShowAsksAgain) {
    const QString library = path("site-packages");
    ASSERT_TRUE(QDir().mkpath(library + QStringLiteral("/torch/nn/modules")));
    QFile source(library + QStringLiteral("/torch/nn/modules/linear.py"));
    ASSERT_TRUE(source.open(QIODevice::WriteOnly));
    source.write("class Linear:\n    def forward(self, x):\n        return x\n");
    source.close();
    const QByteArray sql = QStringLiteral(
                               "INSERT INTO trainscope_library_frames VALUES "
                               "(1, 100, 'torch/nn/modules/linear.py', 2, '%1');")
                               .arg(library)
                               .toUtf8();
    const QString report = mutated(QStringLiteral("library_asked.time.sqlite"), sql.constData());
    ASSERT_TRUE(open(report));
    SourcePanel* panel = window_.browser()->sourcePanel();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return panel->questionBar()->isVisibleTo(window_.browser()); }, 60000));
    QPushButton* deny = nullptr;
    for (QPushButton* button : panel->questionBar()->findChildren<QPushButton*>())
        if (button->text() == QStringLiteral("Don't Show"))
            deny = button;
    ASSERT_NE(deny, nullptr);
    deny->click();
    EXPECT_FALSE(panel->questionBar()->isVisibleTo(window_.browser()));

    panel->showFrames({FrameRow{QStringLiteral("torch/nn/modules/linear.py"), 2, library}});
    EXPECT_TRUE(panel->message().endsWith(
        QStringLiteral("a folder this report names; choose Show Files above to show it.")))
        << panel->message().toStdString();
    EXPECT_TRUE(panel->questionBar()->isVisibleTo(window_.browser()));
    EXPECT_TRUE(panel->viewer()->placeholderText().isEmpty())
        << panel->viewer()->placeholderText().toStdString();

    panel->allowButton()->click();
    EXPECT_TRUE(panel->viewer()->currentFile().endsWith(QStringLiteral("linear.py")))
        << panel->message().toStdString();
    EXPECT_EQ(panel->viewer()->highlightedText(), QStringLiteral("    def forward(self, x):"));
    panel->clear();
    EXPECT_EQ(panel->viewer()->placeholderText(),
              QStringLiteral("Select a stack frame to see its source."));
}

TEST_F(HostileReportTest, SymbolicLinksAreResolvedBeforeARootIsTrusted) {
    // A link inside the report's folder that leads to / does not "hold the report".
    ASSERT_TRUE(QFile::link(QStringLiteral("/"), path("rootlink")));
    const QString sql =
        QStringLiteral("INSERT OR REPLACE INTO trainscope_metadata VALUES ('project_root', '%1');")
            .arg(path("rootlink"));
    const QByteArray statements = sql.toUtf8();
    ASSERT_TRUE(open(mutated(QStringLiteral("linked.time.sqlite"), statements.constData())));
    EXPECT_EQ(window_.browser()->projectRoot(), dir_);
    EXPECT_TRUE(window_.browser()->sourcePanel()->questionBar()->isVisibleTo(window_.browser()));
}

// A clock that moves one millisecond each time it is read: the budget is measured on it, the
// machine's speed plays no part.
std::atomic<qint64> g_ticks{0};
qint64 tick() {
    return g_ticks++;
}

TEST_F(HostileReportTest, AQueryThatWouldRunForeverIsStoppedByItsBudget) {
    QString error;
    const auto report = ReportFile::open(path("run.time.sqlite"), &error);
    ASSERT_TRUE(report) << error.toStdString();
    constexpr int kBudgetMs = 200;
    setQueryBudget(kBudgetMs);
    const QueryClock previous = setQueryClock(&tick);
    restartQueryClock();
    const qint64 started = g_ticks.load();
    QSqlQuery endless(report->database());
    EXPECT_FALSE(endless.exec(QStringLiteral(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n")));
    const qint64 used = g_ticks.load() - started;
    setQueryClock(previous);
    setQueryBudget(kQueryBudgetMs);
    // Stopped once the budget was spent, not before, and not long after (the progress handler
    // reads the clock once per check).
    EXPECT_GT(used, kBudgetMs);
    EXPECT_LE(used, kBudgetMs + 2);
    EXPECT_TRUE(endless.lastError().databaseText().contains(QStringLiteral("interrupt")))
        << endless.lastError().databaseText().toStdString();
}

TEST_F(HostileReportTest, ARecordedRootThatHoldsTheReportIsUsedWithoutAsking) {
    QDir(dir_).mkdir(QStringLiteral("runs"));
    QFile::copy(path("run.time.sqlite"), path("runs/r.time.sqlite"));
    const QString report = path("runs/r.time.sqlite");
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(report.toUtf8().constData(), &db), SQLITE_OK);
    const QString sql =
        QStringLiteral("INSERT OR REPLACE INTO trainscope_metadata VALUES ('project_root', '%1')")
            .arg(dir_);
    ASSERT_EQ(sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    ASSERT_TRUE(trainscope::test::openAndWait(window_, {report}));
    EXPECT_EQ(window_.browser()->projectRoot(), QFileInfo(dir_).canonicalFilePath());
    EXPECT_FALSE(window_.browser()->sourcePanel()->questionBar()->isVisibleTo(window_.browser()));
}

}  // namespace

// A query that fails after the report opened (here: sorting a large table stopped by the time
// budget) says so over the table, instead of showing fewer rows as if that were all.
TEST_F(HostileReportTest, ATableWhoseQueryFailsSaysSoOverItsRows) {
    ASSERT_TRUE(open(mutated(
        QStringLiteral("large.time.sqlite"),
        "WITH RECURSIVE n(i) AS (SELECT 1000 UNION ALL SELECT i + 1 FROM n WHERE i < 400000) "
        "INSERT INTO run_time_entries SELECT i, 'aten::op' || (i % 997), 0.5, 0.25 FROM n")));
    window_.show();
    EntryTableView* view = window_.browser()->operationsView();
    EXPECT_FALSE(view->errorLabel()->isVisibleTo(view));
    setQueryBudget(1);
    view->sortByColumn(1, Qt::DescendingOrder);  // by name: the sort has to read every row
    test::waitForRows(view->entryModel());
    setQueryBudget(kQueryBudgetMs);
    const QString message = view->entryModel()->errorMessage();
    EXPECT_TRUE(message.contains(QStringLiteral("interrupt"))) << message.toStdString();
    EXPECT_TRUE(view->errorLabel()->isVisibleTo(view));
    EXPECT_EQ(view->errorLabel()->text(), message);
    // A query that works again clears the message.
    view->sortByColumn(1, Qt::AscendingOrder);
    test::waitForRows(view->entryModel());
    EXPECT_TRUE(view->entryModel()->errorMessage().isEmpty());
    EXPECT_FALSE(view->errorLabel()->isVisibleTo(view));
}
