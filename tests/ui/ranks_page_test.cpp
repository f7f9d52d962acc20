// SPDX-License-Identifier: Apache-2.0
// Several ranks' timelines opened together: the Ranks tab sums them up side by side. The files
// are written by the engine's writer from calls with known times (one rank computes 30 ms
// longer before the first collective), so the expected figures are certain.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <cstdlib>
#include <filesystem>

#include "main_window.h"
#include "support/bounded_command.h"
#include "support/report_reader.h"
#include "trainscope/report_writer.h"
#include "ui/sample_run.h"
#include "views/rank_summary_page.h"
#include "views/ranks_page.h"
#include "views/report_browser.h"
#include "views/timeline_summary_page.h"

namespace fs = std::filesystem;
using namespace trainscope;
using namespace trainscope::ui;

namespace {

constexpr int64_t kMs = 1'000'000;

// A rank's timeline: a step of 100 ms, computation on the main thread (0 to `computing_ms`),
// then the collectives on Gloo's worker thread until 90 ms, as the engine records them.
TimelineReport rankTimeline(int rank, int64_t origin, int64_t computing_ms) {
    TimelineReport report;
    report.rank = rank;
    report.steps = {{1, origin, origin + 100 * kMs, false},
                    {2, origin + 100 * kMs, origin + 195 * kMs, false}};
    const uint64_t pid = 4000 + uint64_t(rank);
    auto call = [&](int64_t from, int64_t to, uint64_t tid, const char* name, int type) {
        ApiCall c;
        c.start_ns = origin + from * kMs;
        c.end_ns = origin + to * kMs;
        c.global_tid = pid << 32 | tid;
        c.connection_id = int64_t(report.calls.size()) + 1;
        c.name = report.texts.add(name);
        c.api_type = type;
        report.calls.push_back(c);
    };
    call(0, computing_ms, 1, "aten::linear", kOperationApiType);
    call(computing_ms, 90, 2, "gloo:all_reduce", kCommunicationApiType);
    call(90, 95, 2, "gloo:all_reduce", kCommunicationApiType);
    report.metadata = {{"model", "job"}, {"rank", std::to_string(rank)}, {"world_size", "3"}};
    return report;
}

class RanksPageTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = test::makeTempDir();
        const int64_t computing[] = {20, 20, 50};  // rank 2 is the straggler
        for (int rank = 0; rank < 3; ++rank) {
            const std::string path = dir_ + "/job.rank" + std::to_string(rank) + ".timeline.sqlite";
            writeTimelineReport(rankTimeline(rank, (rank + 1) * 7'777 * kMs, computing[rank]), path,
                                Overwrite::Refuse);
            paths_ << QString::fromStdString(path);
        }
    }
    void TearDown() override { fs::remove_all(dir_); }

    static RanksPage* loadedPage(QTabWidget* tabs) {
        RanksPage* page = nullptr;
        for (int i = 0; i < tabs->count() && !page; ++i)
            page = qobject_cast<RanksPage*>(tabs->widget(i));
        if (page) {
            EXPECT_TRUE(QTest::qWaitFor([page] { return page->loaded(); }, 10000));
        }
        return page;
    }

    static QStringList row(QTableWidget* table, int r) {
        QStringList cells;
        for (int c = 0; c < table->columnCount(); ++c)
            cells << table->item(r, c)->text();
        return cells;
    }

    // The timelines `paths` open in the window at its default size: its tabs (null, with the
    // failure reported, when they did not open).
    QTabWidget* open(const QStringList& paths) {
        window_.resize(1100, 760);
        window_.show();
        if (!test::openAndWait(window_, paths)) {
            ADD_FAILURE() << window_.lastError().toStdString();
            return nullptr;
        }
        return window_.timelines();
    }

    std::string dir_;
    QStringList paths_;
    MainWindow window_;
};

// Each rank's summary in one tab with a rank chooser, not a tab per rank (eight of them
// overflowed the tab bar); a rank's file is read when it is shown.
TEST_F(RanksPageTest, OneTabWithAChooserHoldsEachRanksSummary) {
    QTabWidget* tabs = open(paths_);
    ASSERT_NE(tabs, nullptr);
    QStringList texts;
    for (int i = 0; i < tabs->count(); ++i)
        texts << tabs->tabText(i);
    EXPECT_EQ(texts, (QStringList{QStringLiteral("Ranks"), QStringLiteral("Overview of a Rank"),
                                  QStringLiteral("Timeline")}));
    auto* summaries = qobject_cast<RankSummaryPage*>(tabs->widget(1));
    ASSERT_NE(summaries, nullptr);
    QApplication::processEvents();
    EXPECT_EQ(summaries->shownPage(), nullptr) << "behind the Ranks tab, no rank's file is read";
    tabs->setCurrentWidget(summaries);
    ASSERT_TRUE(QTest::qWaitFor([summaries] { return summaries->shownPage() != nullptr; }, 10000));
    QComboBox* chooser = summaries->rankChooser();
    ASSERT_EQ(chooser->count(), 3);
    EXPECT_EQ(summaries->shownPage()->path(), paths_[0]);
    QTest::keyClick(chooser, Qt::Key_Down);  // as a person moves through the list
    QTest::keyClick(chooser, Qt::Key_Down);
    ASSERT_EQ(chooser->currentIndex(), 2);
    TimelineSummaryPage* shown = summaries->shownPage();
    EXPECT_EQ(shown->path(), paths_[2]);
    EXPECT_TRUE(QTest::qWaitFor([shown] { return shown->loaded(); }, 10000));
    EXPECT_TRUE(shown->totals()->text().contains(QStringLiteral("Step 2")))
        << shown->totals()->text().toStdString();
}

TEST_F(RanksPageTest, RanksThatAreEvenAreSaidToBeSo) {
    QStringList even;
    for (int rank = 0; rank < 2; ++rank) {
        const std::string path = dir_ + "/even.rank" + std::to_string(rank) + ".timeline.sqlite";
        writeTimelineReport(rankTimeline(rank, (rank + 1) * 1'234 * kMs, 20), path,
                            Overwrite::Refuse);
        even << QString::fromStdString(path);
    }
    QTabWidget* tabs = open(even);
    ASSERT_NE(tabs, nullptr);
    RanksPage* page = loadedPage(tabs);
    ASSERT_NE(page, nullptr);
    const QString heading = page->heading()->text();
    EXPECT_TRUE(heading.contains(QStringLiteral("No rank stands out"))) << heading.toStdString();
    EXPECT_FALSE(heading.contains(QStringLiteral("Slowest"))) << heading.toStdString();
}

// Ten steps whose collectives rank 2 arrives at 40 ms late in the first nine: it is named in
// the heading and in each of those steps' rows; the tenth, where no rank is late, names none.
TEST_F(RanksPageTest, TheRankThatHeldTheStepsUpIsNamedStepByStep) {
    QStringList held;
    for (int rank = 0; rank < 3; ++rank) {
        TimelineReport report = rankTimeline(rank, (rank + 1) * 3'333 * kMs, 20);
        report.steps.clear();
        for (int64_t step = 1; step <= 10; ++step) {
            const int64_t start = (rank + 1) * 3'333 * kMs + (step - 1) * 100 * kMs;
            report.steps.push_back({step, start, start + 100 * kMs, false});
            const double ms = step <= 9 && rank != 2 ? 45.0 : 5.0;
            report.step_collectives.push_back({step, "gloo:all_reduce", 4 << 20, 60.0, ms});
        }
        const std::string path = dir_ + "/held.rank" + std::to_string(rank) + ".timeline.sqlite";
        writeTimelineReport(report, path, Overwrite::Refuse);
        held << QString::fromStdString(path);
    }
    QTabWidget* tabs = open(held);
    ASSERT_NE(tabs, nullptr);
    RanksPage* page = loadedPage(tabs);
    ASSERT_NE(page, nullptr);
    tabs->setCurrentWidget(page);
    const QString heading = page->heading()->text();
    EXPECT_TRUE(heading.contains(QStringLiteral("Rank 2 held up 9 of 10 steps")))
        << heading.toStdString();
    QTableWidget* steps = page->stepsTable();
    ASSERT_EQ(steps->rowCount(), 10);
    EXPECT_EQ(row(steps, 0).mid(4), (QStringList{"2", "40.000 ms"}));
    EXPECT_EQ(row(steps, 9).mid(4), (QStringList{"–", "–"}));
    EXPECT_FALSE(steps->horizontalScrollBar()->isVisible());
}

TEST_F(RanksPageTest, TheSlowRankIsNamedWithTheCollectivesTheOthersWaitIn) {
    QTabWidget* tabs = open(paths_);
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->tabText(0), QStringLiteral("Ranks"));  // first, before each file's overview
    RanksPage* page = loadedPage(tabs);
    ASSERT_NE(page, nullptr);
    tabs->setCurrentWidget(page);

    EXPECT_TRUE(page->heading()->text().contains(QStringLiteral("Slowest: rank 2, with 30.000 ms")))
        << page->heading()->text().toStdString();
    QTableWidget* ranks = page->ranksTable();
    ASSERT_EQ(ranks->rowCount(), 3);
    // Rank 0: computing 0-20 ms, communicating 20-95 ms, idle 95-100 ms.
    EXPECT_EQ(row(ranks, 0), (QStringList{"0", "2", "97.500 ms", "100.000 ms", "20.000 ms",
                                          "75.000 ms", "0.000 ms", "5.000 ms"}));
    EXPECT_TRUE(ranks->item(2, 0)->font().bold());  // the slowest rank's row
    EXPECT_FALSE(ranks->item(0, 0)->font().bold());
    QTableWidget* waits = page->waitsTable();
    ASSERT_EQ(waits->rowCount(), 1);  // the second collective is even
    EXPECT_EQ(row(waits, 0), (QStringList{"1", "gloo:all_reduce", "30.000 ms", "2"}));
    EXPECT_EQ(page->stepsTable()->rowCount(), 2);

    // Every column is in view at the default size.
    for (QTableWidget* table : {ranks, waits, page->stepsTable()}) {
        EXPECT_FALSE(table->horizontalScrollBar()->isVisible())
            << table->horizontalHeaderItem(0)->text().toStdString();
    }
}

TEST_F(RanksPageTest, TimelinesOfOneRankTwiceAreRefusedInTheTabNotInADialog) {
    paths_ = {paths_[0], paths_[0]};
    const std::string copy = dir_ + "/copy.timeline.sqlite";
    fs::copy_file(paths_[0].toStdString(), copy);
    paths_[1] = QString::fromStdString(copy);
    MainWindow window;
    window.show();
    ASSERT_TRUE(test::openAndWait(window, paths_)) << window.lastError().toStdString();
    RanksPage* page = loadedPage(window.timelines());
    ASSERT_NE(page, nullptr);
    EXPECT_TRUE(page->heading()->text().contains(QStringLiteral("rank 0 is given twice")))
        << page->heading()->text().toStdString();
    EXPECT_EQ(page->ranksTable()->rowCount(), 0);
}

}  // namespace

// A job's GPU traces in a folder, as tensorboard_trace_handler leaves them (two ranks of a
// 128-rank A100 job, tests/data/gpu-traces), opened as a folder: each imported beside itself,
// the first rank's reports with both ranks' timelines, and the Ranks tab breaks each rank's
// first step down as its GPU ran it, the figures `import` of the same traces prints.
TEST(RanksOfGpuTraces, AFolderOfTracesOpensAsAJob) {
    const std::string dir = test::makeTempDir();
    QStringList traces;
    for (const char* name : {"job128_rank0.json.gz", "job128_rank1.json.gz"}) {
        fs::copy_file(fs::path(GPU_TRACES) / name, fs::path(dir) / name);
        traces << QString::fromStdString(dir + "/" + name);
    }
    MainWindow window;
    window.resize(1100, 760);
    window.show();
    ASSERT_TRUE(test::openAndWait(window, {QString::fromStdString(dir)}))
        << window.lastError().toStdString();
    ReportBrowser* browser = window.browser();
    ASSERT_NE(browser, nullptr);
    QTabWidget* tabs = browser->tabs();
    RanksPage* ranks = nullptr;
    for (int i = 0; i < tabs->count() && !ranks; ++i)
        ranks = qobject_cast<RanksPage*>(tabs->widget(i));
    ASSERT_NE(ranks, nullptr);
    tabs->setCurrentWidget(ranks);
    ASSERT_TRUE(QTest::qWaitFor([ranks] { return ranks->loaded(); }, 20000));
    QTableWidget* table = ranks->ranksTable();
    ASSERT_EQ(table->rowCount(), 2) << ranks->heading()->text().toStdString();
    EXPECT_EQ(table->horizontalHeaderItem(3)->text(), QStringLiteral("First step"));
    EXPECT_TRUE(ranks->heading()->text().contains(
        QStringLiteral("each rank's first step as its GPU ran it")))
        << ranks->heading()->text().toStdString();
    // The same figures as the CLI's import of the same traces.
    const std::string out = dir + "/cli";
    fs::create_directory(out);
    const std::string command =
        test::bounded(std::string(TRAINSCOPE_CLI) + " import -q " + traces.join(' ').toStdString() +
                      " -o " + out + "/job > " + out + "/printed.txt");
    ASSERT_EQ(std::system(command.c_str()), 0);
    QFile printed(QString::fromStdString(out + "/printed.txt"));
    ASSERT_TRUE(printed.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(printed.readAll());
    for (int r = 0; r < 2; ++r) {
        const QStringList cells = text.section(QStringLiteral("idle\n"), 1)
                                      .split(QLatin1Char('\n'))[r]
                                      .simplified()
                                      .split(QLatin1Char(' '));
        // rank, steps, median step, first step, computation, communication, overlapped, idle
        for (int c : {4, 5, 6, 7})
            EXPECT_EQ(table->item(r, c)->text(), cells[2 * c - 2] + QStringLiteral(" ms"))
                << "rank " << r << " column " << c;
    }
    fs::remove_all(dir);
}
