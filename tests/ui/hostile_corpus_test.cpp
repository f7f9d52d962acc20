// SPDX-License-Identifier: Apache-2.0
// The hostile-report corpus (tests/fuzz/make_corpus.py: damaged and hostile variants of real
// reports) opened as a user would, one report at a time: each opens or is refused with a
// message, without creating or changing a file; every page is shown and the first row of every
// table is clicked, so that charts, tables and frames are all drawn. (What bounds the time a
// hostile report can take is the query budget, which HostileReportTest checks on its own clock.)
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "main_window.h"
#include "reading/sql_table_model.h"
#include "support/folder_snapshot.h"
#include "timeline/timeline_page.h"
#include "ui/sample_run.h"
#include "views/entry_table_view.h"
#include "views/report_browser.h"
#include "views/timeline_summary_page.h"

using namespace trainscope::ui;

namespace {

// Qt's warnings while a report is shown: a value that reached a chart or a file function
// unchecked shows up here ("Ignored NaN…", "Broken filename…").
QStringList warnings;

void collectWarnings(QtMsgType type, const QMessageLogContext&, const QString& message) {
    // The offscreen platform's own limitation, not the report's doing.
    if (type != QtDebugMsg && type != QtInfoMsg &&
        !message.contains(QLatin1String("does not support propagateSizeHints")))
        warnings << message;
}

// Shows every page of the open report and clicks the first row of each table.
void visitEverything(ReportBrowser* browser) {
    (void)browser->sourceLinesPage();
    for (int tab = 0; tab < browser->tabs()->count(); ++tab) {
        browser->tabs()->setCurrentIndex(tab);
        QCoreApplication::processEvents();
    }
    for (EntryTableView* view :
         {browser->weightsView(), browser->activationsView(), browser->operationsView()}) {
        if (view && view->model() && view->model()->rowCount() > 0) {
            view->window()->activateWindow();
            trainscope::test::clickRow(view, 0);
            QCoreApplication::processEvents();
        }
    }
}

// Shows every page of an open timeline once it has read its file, and paints it whole.
void visitTimelines(QTabWidget* timelines) {
    for (int tab = 0; tab < timelines->count(); ++tab) {
        timelines->setCurrentIndex(tab);
        QWidget* page = timelines->widget(tab);
        EXPECT_TRUE(QTest::qWaitFor(
            [page] {
                if (auto* timeline = qobject_cast<TimelinePage*>(page))
                    return timeline->loaded();
                if (auto* summary = qobject_cast<TimelineSummaryPage*>(page))
                    return summary->loaded();
                return true;
            },
            60000));
        // A widget taller than an image can be (the summary of 200,000 steps once was) fails
        // to paint here.
        EXPECT_FALSE(page->grab().isNull());
    }
}

// The corpus in eight shards, tests of their own, so that ctest runs them side by side (whole,
// it took 11 minutes under the sanitizers, the longest test of the suite by far; of four
// shards, the last ran two minutes, most of it alone at the end of the suite).
constexpr int kShards = 8;

class HostileCorpus : public ::testing::TestWithParam<int> {};

TEST_P(HostileCorpus, EveryReportOpensOrIsRefusedAndChangesNothing) {
    const QStringList all =
        QDir(QStringLiteral(HOSTILE_CORPUS)).entryList({QStringLiteral("*.sqlite")}, QDir::Files);
    ASSERT_GT(all.size(), 500) << "the corpus was not generated: " HOSTILE_CORPUS;
    QStringList reports;
    for (int i = GetParam(); i < all.size(); i += kShards)
        reports << all[i];
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    int opened = 0;
    const QtMessageHandler previous_handler = qInstallMessageHandler(collectWarnings);
    for (const QString& name : reports) {
        warnings.clear();
        // Each report alone in a fresh folder: anything that viewing creates shows up there.
        QTemporaryDir dir;
        const QString report = dir.filePath(name);
        ASSERT_TRUE(QFile::copy(QStringLiteral(HOSTILE_CORPUS "/") + name, report));
        const QStringList before = trainscope::test::folderSnapshot(dir.path());
        if (trainscope::test::openAndWait(window, {report})) {
            ++opened;
            if (window.browser())
                visitEverything(window.browser());
            else if (window.timelines())
                visitTimelines(window.timelines());
        } else {
            EXPECT_FALSE(window.lastError().isEmpty()) << name.toStdString();
        }
        window.closeReports();
        QCoreApplication::processEvents();
        EXPECT_EQ(trainscope::test::folderSnapshot(dir.path()), before) << name.toStdString();
        EXPECT_TRUE(warnings.isEmpty())
            << name.toStdString() << ": " << warnings.join(QLatin1Char('\n')).toStdString();
    }
    qInstallMessageHandler(previous_handler);
    // The corpus holds the unchanged originals and many harmless variants: a reader that
    // refused everything would pass the checks above without reading anything.
    EXPECT_GT(opened, 50 / kShards);
    std::printf("%d of %lld hostile reports opened, the others refused with a message\n", opened,
                static_cast<long long>(reports.size()));
}

INSTANTIATE_TEST_SUITE_P(Shards, HostileCorpus, ::testing::Range(0, kShards),
                         [](const auto& info) { return "shard" + std::to_string(info.param); });

}  // namespace
