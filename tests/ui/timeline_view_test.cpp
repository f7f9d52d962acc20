// SPDX-License-Identifier: Apache-2.0
// The Timeline tab, clicked as a user clicks it: our own profile of the built-in transformer
// (the memory curve's peak lists the live blocks with their modules and source lines; a call
// shows its frames and its backward partners), and databases in torch_npu's format (device rows,
// several ranks aligned at the step with the slowest marked).
#include <gtest/gtest.h>

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTest>
#include <QToolBar>
#include <QTreeWidget>
#include <filesystem>

#include "i18n/language.h"
#include "main_window.h"
#include "reading/sql_table_model.h"
#include "support/bounded_command.h"
#include "support/folder_snapshot.h"
#include "support/report_reader.h"
#include "support/small_transformer.h"
#include "timeline/live_blocks_view.h"
#include "timeline/memory_curve_widget.h"
#include "timeline/time_axis.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_widget.h"
#include "trainscope/run.h"
#include "ui/sample_run.h"
#include "views/entry_table_view.h"
#include "views/memory_page.h"
#include "views/report_browser.h"
#include "views/run_filter.h"
#include "views/run_filter_bar.h"
#include "views/source_lines_page.h"
#include "views/source_panel.h"
#include "views/time_page.h"

using namespace trainscope;
using namespace trainscope::ui;
namespace fs = std::filesystem;

namespace {

TimelinePage* loadedTimeline(QTabWidget* tabs) {
    TimelinePage* page = nullptr;
    for (int i = 0; tabs && i < tabs->count() && !page; ++i)
        page = qobject_cast<TimelinePage*>(tabs->widget(i));
    if (page) {
        tabs->setCurrentWidget(page);
        EXPECT_TRUE(QTest::qWaitFor([page] { return page->loaded(); }, 20000));
    }
    return page;
}

class OwnTimelineView : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new std::string(test::makeTempDir());
        const RunPlan plan = test::smallTransformerPlan(*dir_ + "/run");
        runAndWrite(plan);
    }
    static void TearDownTestSuite() {
        fs::remove_all(*dir_);
        delete dir_;
    }
    void SetUp() override {
        window_.resize(1400, 1000);
        window_.show();
        ASSERT_TRUE(trainscope::test::openAndWait(
            window_, {QString::fromStdString(*dir_ + "/run.time.sqlite")}))
            << window_.lastError().toStdString();
        ASSERT_NE(window_.browser(), nullptr);
        page_ = loadedTimeline(window_.browser()->tabs());
        ASSERT_NE(page_, nullptr);
        ASSERT_NE(page_->timeline(), nullptr) << page_->status()->text().toStdString();
        QApplication::processEvents();
    }
    std::string timelinePath() const { return *dir_ + "/run.timeline.sqlite"; }

    // A top-level forward call with backward partners, e.g. a linear layer's.
    RankedSpan forwardCallWithPartners() const {
        const TimelineData& data = *page_->state()->ranks()[0];
        for (size_t l = 0; l < data.lanes.size(); ++l)
            for (size_t i = 0; i < data.lanes[l].depth_begin[1]; ++i) {
                const SpanRef ref{int32_t(l), int32_t(i)};
                if (data.span(ref).category == SpanCategory::Forward &&
                    data.text(data.span(ref).name) == "aten::linear" &&
                    !linkedSpans(data, ref).empty())
                    return {0, ref};
            }
        return {};
    }

    static std::string* dir_;
    MainWindow window_;
    TimelinePage* page_ = nullptr;
};
std::string* OwnTimelineView::dir_ = nullptr;

TEST_F(OwnTimelineView, ClickingThePeakListsTheLiveBlocksWithModulesAndSourceLines) {
    const TimelineData& data = *page_->state()->ranks()[0];
    const int64_t peak = *page_->state()->peakMoment();
    MemoryCurveWidget* curve = page_->memoryCurve();
    QTest::mouseClick(curve, Qt::LeftButton, {}, QPoint(curve->xOf(peak), curve->height() / 2));
    ASSERT_TRUE(page_->state()->moment());
    // A click lands within a pixel of the peak: the blocks listed are those alive then.
    const int64_t moment = *page_->state()->moment() + data.alignment_ns();
    QTreeWidget* tree = page_->liveBlocks()->tree();
    ASSERT_GT(tree->topLevelItemCount(), 0);

    const test::ReportReader db(timelinePath());
    const std::string alive = " FROM OP_MEMORY WHERE allocationTime <= " + std::to_string(moment) +
                              " AND (releaseTime IS NULL OR releaseTime > " +
                              std::to_string(moment) + ")";
    int blocks = 0;
    bool module_named = false;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        blocks += tree->topLevelItem(i)->text(1).toInt();
        module_named |= tree->topLevelItem(i)->text(3).startsWith(QStringLiteral("blocks_"));
    }
    EXPECT_EQ(blocks, std::stoi(db.scalar("SELECT COUNT(*)" + alive)));
    EXPECT_TRUE(module_named);
    EXPECT_TRUE(page_->liveBlocks()->title()->text().contains(
        QStringLiteral("in %1 blocks allocated during the iteration").arg(blocks)))
        << page_->liveBlocks()->title()->text().toStdString();

    // "Peak" is one click to the same list.
    page_->state()->setMoment(std::nullopt);
    page_->showPeak();
    EXPECT_EQ(*page_->state()->moment(), peak);

    // A block of a module's code shows its source line in the source panel.
    QTreeWidgetItem* linear = nullptr;
    for (int i = 0; i < tree->topLevelItemCount() && !linear; ++i)
        if (tree->topLevelItem(i)->text(3).startsWith(QStringLiteral("blocks_")))
            linear = tree->topLevelItem(i);
    ASSERT_NE(linear, nullptr);
    // Expanded, its blocks' sizes are whole: the columns fit the rows shown now, once the
    // tree has laid them out.
    linear->setExpanded(true);
    const QAbstractItemView* view = tree;  // where sizeHintForColumn is public
    const auto fits = [&] {
        for (int column = 0; column < 4; ++column)
            if (tree->columnWidth(column) < view->sizeHintForColumn(column))
                return false;
        return true;
    };
    EXPECT_TRUE(QTest::qWaitFor(fits, 2000))
        << tree->columnWidth(0) << " < " << view->sizeHintForColumn(0) << " for "
        << linear->child(0)->text(0).toStdString();
    tree->setCurrentItem(linear->child(0));
    QListWidget* frames = window_.browser()->framesList();
    ASSERT_GT(frames->count(), 0);
    EXPECT_TRUE(frames->item(0)->text().contains(QStringLiteral("transformer.py:")))
        << frames->item(0)->text().toStdString();
    EXPECT_TRUE(page_->state()->selection().valid());
}

TEST_F(OwnTimelineView, ClickingACallSelectsItShowsItsFramesAndOutlinesItsBackwardNodes) {
    const RankedSpan call = forwardCallWithPartners();
    ASSERT_TRUE(call.valid());
    page_->state()->reveal(call);
    const QPoint at = page_->timeline()->pointOf(call);
    ASSERT_FALSE(at.isNull());
    QTest::mouseClick(page_->timeline(), Qt::LeftButton, {}, at);
    EXPECT_EQ(page_->state()->selection(), call);
    ASSERT_FALSE(page_->state()->partners().isEmpty());
    const TimelineData& data = *page_->state()->ranks()[0];
    for (const RankedSpan& partner : page_->state()->partners())
        EXPECT_EQ(data.span(partner.span).category, SpanCategory::Backward);
    QListWidget* frames = window_.browser()->framesList();
    ASSERT_GT(frames->count(), 0);
    EXPECT_TRUE(frames->item(0)->text().contains(QStringLiteral("transformer.py:")))
        << frames->item(0)->text().toStdString();

    // A backward node shows its forward call's frames.
    frames->clear();
    const RankedSpan backward = page_->state()->partners().front();
    page_->state()->zoomTo(backward);  // as a user zooms in on a short call to click it
    QTest::mouseClick(page_->timeline(), Qt::LeftButton, {}, page_->timeline()->pointOf(backward));
    EXPECT_EQ(page_->state()->selection(), backward);
    EXPECT_GT(frames->count(), 0);
}

TEST_F(OwnTimelineView, TheWheelZoomsDraggingPansAndFitShowsAll) {
    TimelineViewState* state = page_->state();
    TimelineWidget* timeline = page_->timeline();
    const int64_t full = state->viewEnd() - state->viewStart();
    const QPoint middle(timeline->width() / 2 + 80, 40);
    QWheelEvent wheel(middle, timeline->mapToGlobal(middle), {}, QPoint(0, 360), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(timeline, &wheel);
    const int64_t zoomed = state->viewEnd() - state->viewStart();
    EXPECT_LT(zoomed, full * 6 / 10);

    const int64_t before = state->viewStart();
    QTest::mousePress(timeline, Qt::LeftButton, {}, middle);
    QTest::mouseMove(timeline, middle + QPoint(-200, 0));
    QTest::mouseRelease(timeline, Qt::LeftButton, {}, middle + QPoint(-200, 0));
    EXPECT_GT(state->viewStart(), before);  // dragged left: later times come into view
    EXPECT_EQ(state->viewEnd() - state->viewStart(), zoomed);

    QTest::keyClick(timeline, Qt::Key_0, Qt::ControlModifier);
    EXPECT_EQ(state->viewStart(), state->fullStart());
    EXPECT_EQ(state->viewEnd(), state->fullEnd());
}

TEST_F(OwnTimelineView, SelectingAnOperationInTheTimeTableSelectsItsCallInTheTimeline) {
    EntryTableView* operations = window_.browser()->operationsView();
    window_.browser()->tabs()->setCurrentWidget(window_.browser()->timePage());
    SqlTableModel* model = operations->entryModel();
    ASSERT_GT(model->rowCount(), 10);
    const TimelineData& data = *page_->state()->ranks()[0];
    int64_t previous_start = 0;
    for (const int row : {0, 5, model->rowCount() - 1}) {
        test::clickRow(operations, row);
        const RankedSpan selected = page_->state()->selection();
        ASSERT_TRUE(selected.valid()) << row;
        const TimelineSpan& call = data.span(selected.span);
        EXPECT_EQ(QString::fromStdString(data.text(call.name)), model->rawValue(row, 1).toString());
        EXPECT_EQ(call.depth, 0);
        EXPECT_EQ(call.category, SpanCategory::Forward);
        EXPECT_GT(call.start_ns, previous_start) << "entries in order are calls in order";
        previous_start = call.start_ns;
    }
}

// One selection: clicking a call in the timeline (a forward call or one of its backward nodes)
// selects its operation's row in the Time table, and the timeline keeps the call clicked.
TEST_F(OwnTimelineView, ClickingACallSelectsItsOperationInTheTimeTable) {
    EntryTableView* operations = window_.browser()->operationsView();
    SqlTableModel* model = operations->entryModel();
    const RankedSpan call = forwardCallWithPartners();
    ASSERT_TRUE(call.valid());
    const TimelineData& data = *page_->state()->ranks()[0];
    // Which entry it is, counted independently: the top-level forward calls before it.
    int64_t ordinal = 0;
    for (int32_t i = 0; i < call.span.index; ++i)
        ordinal += data.lanes[0].spans[size_t(i)].category == SpanCategory::Forward;
    const qint64 entry = ordinal + 1;

    page_->state()->reveal(call);
    QTest::mouseClick(page_->timeline(), Qt::LeftButton, {}, page_->timeline()->pointOf(call));
    test::waitForReads();
    ASSERT_TRUE(operations->currentIndex().isValid());
    EXPECT_EQ(model->entryId(operations->currentIndex().row()), entry);
    EXPECT_EQ(model->rawValue(operations->currentIndex().row(), 1).toString(),
              QStringLiteral("aten::linear"));
    EXPECT_EQ(page_->state()->selection(), call) << "the table's echo moved the selection";

    operations->clearSelection();
    operations->setCurrentIndex({});
    const RankedSpan backward = page_->state()->partners().front();
    page_->state()->zoomTo(backward);
    QTest::mouseClick(page_->timeline(), Qt::LeftButton, {}, page_->timeline()->pointOf(backward));
    test::waitForReads();
    ASSERT_TRUE(operations->currentIndex().isValid());
    EXPECT_EQ(model->entryId(operations->currentIndex().row()), entry);
    EXPECT_EQ(page_->state()->selection(), backward);
}

// One filter for the run (hotspot's FilterAndZoomStack): "Filter to View" in the timeline keeps
// the operations whose forward calls are in view in the Time tab and By Source Line; Back and
// Reset undo it. The Time tab's name filter fades the other calls in the timeline and keeps
// the matching activations.
TEST_F(OwnTimelineView, OneFilterForTheRunFollowedByTheTablesAndTheTimeline) {
    ReportBrowser* browser = window_.browser();
    const TimelineData& data = *page_->state()->ranks()[0];
    // Zoom to the 3rd to the 6th top-level forward calls.
    const SpanRef from = topLevelForwardCall(data, 2), to = topLevelForwardCall(data, 5);
    ASSERT_TRUE(from.valid() && to.valid());
    const int64_t offset = data.alignment_ns();
    page_->state()->setVisibleRange(data.span(from).start_ns - offset,
                                    data.span(to).end_ns - offset);
    const auto [first, last] = forwardCallsIn(data, page_->state()->viewStart() + offset,
                                              page_->state()->viewEnd() + offset);
    ASSERT_GE(first, 1);  // the calls next to the range may touch it; 2 to 5 are inside
    ASSERT_LE(first, 2);
    ASSERT_GE(last, 5);
    QAction* filter_to_view = nullptr;
    for (QAction* action : page_->findChild<QToolBar*>()->actions())
        if (action->text() == QStringLiteral("Filter to View"))
            filter_to_view = action;
    ASSERT_NE(filter_to_view, nullptr);
    filter_to_view->trigger();
    test::waitForReads();

    SqlTableModel* operations = browser->operationsView()->entryModel();
    ASSERT_EQ(operations->rowCount(), last - first + 1);
    for (int row = 0; row < operations->rowCount(); ++row)
        EXPECT_EQ(operations->entryId(row), first + 1 + row);
    EXPECT_TRUE(browser->timePage()->filterBar()->isVisibleTo(browser->timePage()));
    EXPECT_TRUE(
        browser->timePage()->filterBar()->text().contains(QStringLiteral("in the timeline")));
    // By Source Line sums the same operations: their count over its lines.
    SqlTableModel* lines = browser->sourceLinesPage()->timeView()->entryModel();
    test::waitForReads();
    qint64 counted = 0;
    for (int row = 0; row < lines->rowCount(); ++row)
        counted += lines->rawValue(row, 3).toLongLong();
    EXPECT_EQ(counted, last - first + 1);

    // A second step, then Back to the first, and Reset to everything.
    page_->state()->setVisibleRange(data.span(from).start_ns - offset,
                                    data.span(from).end_ns - offset);
    filter_to_view->trigger();
    test::waitForReads();
    EXPECT_LT(operations->rowCount(), last - first + 1);
    browser->timePage()->filterBar()->backButton()->click();
    test::waitForReads();
    EXPECT_EQ(operations->rowCount(), last - first + 1);
    browser->timePage()->filterBar()->resetButton()->click();
    test::waitForReads();
    EXPECT_GT(operations->rowCount(), last - first + 1);
    EXPECT_FALSE(browser->timePage()->filterBar()->isVisibleTo(browser->timePage()));

    // The name, typed in the Time tab.
    browser->tabs()->setCurrentWidget(browser->timePage());
    QTest::keyClicks(browser->timePage()->filterField(), QStringLiteral("softmax"));
    ASSERT_TRUE(QTest::qWaitFor(
        [browser] { return browser->filter()->current().name == QStringLiteral("softmax"); },
        5000));
    test::waitForReads();
    ASSERT_GT(operations->rowCount(), 0);
    for (int row = 0; row < operations->rowCount(); ++row)
        EXPECT_TRUE(operations->rawValue(row, 1).toString().contains(QStringLiteral("softmax")));
    SqlTableModel* activations = browser->activationsView()->entryModel();
    ASSERT_GT(activations->rowCount(), 0);
    for (int row = 0; row < activations->rowCount(); ++row)
        EXPECT_TRUE(activations->rawValue(row, 1).toString().contains(QStringLiteral("softmax")));
    const std::vector<SpanRef> softmax = findSpans(data, "softmax");
    ASSERT_FALSE(softmax.empty());
    EXPECT_FALSE(page_->state()->isFaded(0, data.span(softmax.front()).name));
    EXPECT_TRUE(page_->state()->isFaded(0, data.span(from).name))
        << data.text(data.span(from).name);
    browser->filter()->reset();
    test::waitForReads();
    EXPECT_TRUE(browser->timePage()->filterField()->text().isEmpty());
    EXPECT_FALSE(page_->state()->isFaded(0, data.span(from).name));
}

TEST_F(OwnTimelineView, CtrlFFindsOperationsByName) {
    window_.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window_));
    page_->timeline()->setFocus();
    QTest::keyClick(page_->timeline(), Qt::Key_F, Qt::ControlModifier);
    EXPECT_TRUE(page_->findField()->hasFocus());
    QTest::keyClicks(page_->findField(), QStringLiteral("softmax"));
    QTest::keyClick(page_->findField(), Qt::Key_Return);
    const RankedSpan first = page_->state()->selection();
    ASSERT_TRUE(first.valid()) << page_->status()->text().toStdString();
    const TimelineData& data = *page_->state()->ranks()[0];
    EXPECT_NE(data.text(data.span(first.span).name).find("softmax"), std::string::npos);
    QTest::keyClick(page_->findField(), Qt::Key_Return);
    EXPECT_NE(page_->state()->selection(), first);
    EXPECT_TRUE(page_->status()->text().contains(QStringLiteral("2 of")))
        << page_->status()->text().toStdString();
}

class AscendTimelineView : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = test::makeTempDir(); }
    void TearDown() override { fs::remove_all(dir_); }
    std::string make(int rank, int calls) {
        const std::string path = dir_ + "/ascend_pytorch_profiler_" + std::to_string(rank) + ".db";
        const std::string command = std::string(TRAINSCOPE_PYTHON) + " " + ASCEND_DB_GENERATOR +
                                    " " + path + " --rank " + std::to_string(rank) + " --calls " +
                                    std::to_string(calls) + " --seed " + std::to_string(rank + 3);
        EXPECT_EQ(std::system(trainscope::test::bounded(command).c_str()), 0);
        return path;
    }
    std::string dir_;
};

TEST_F(AscendTimelineView, OpensReadOnlyWithDeviceRowsAndLinksCallsToTheirDeviceWork) {
    const std::string path = make(1, 300);
    const QStringList before = test::folderSnapshot(QString::fromStdString(dir_));
    MainWindow window;
    window.resize(1400, 1000);
    window.show();
    ASSERT_TRUE(trainscope::test::openAndWait(window, {QString::fromStdString(path)}));
    TimelinePage* page = loadedTimeline(window.timelines());
    ASSERT_NE(page, nullptr);
    ASSERT_NE(page->timeline(), nullptr) << page->status()->text().toStdString();
    const TimelineData& data = *page->state()->ranks()[0];
    bool device = false, cann = false;
    for (const TimelineLane& lane : data.lanes) {
        device |= lane.kind == LaneKind::Device;
        cann |= lane.kind == LaneKind::Cann;
    }
    EXPECT_TRUE(device && cann);
    // Click a framework call that launched device work: the task is among its partners.
    RankedSpan launcher;
    for (size_t l = 0; l < data.lanes.size() && !launcher.valid(); ++l)
        for (size_t i = 0; i < data.lanes[l].spans.size() && !launcher.valid(); ++i)
            if (data.lanes[l].kind == LaneKind::Thread)
                for (const SpanRef partner : linkedSpans(data, {int32_t(l), int32_t(i)}))
                    if (data.lanes[size_t(partner.lane)].kind == LaneKind::Device)
                        launcher = {0, {int32_t(l), int32_t(i)}};
    ASSERT_TRUE(launcher.valid());
    page->state()->reveal(launcher);
    QTest::mouseClick(page->timeline(), Qt::LeftButton, {}, page->timeline()->pointOf(launcher));
    EXPECT_EQ(page->state()->selection(), launcher);
    bool device_partner = false;
    for (const RankedSpan& partner : page->state()->partners())
        device_partner |= data.lanes[size_t(partner.span.lane)].kind == LaneKind::Device;
    EXPECT_TRUE(device_partner);
    // Frames are absolute paths of the machine that recorded them: once the user allows the
    // report's folders, a file that is not here says so.
    RankedSpan framed;
    for (size_t l = 0; l < data.lanes.size() && !framed.valid(); ++l)
        for (size_t i = 0; i < data.lanes[l].spans.size() && !framed.valid(); ++i)
            if (data.lanes[l].spans[i].callchain >= 0)
                framed = {0, {int32_t(l), int32_t(i)}};
    ASSERT_TRUE(framed.valid());
    EXPECT_FALSE(page->sourcePanel()->questionBar()->isHidden());
    page->sourcePanel()->setLibrariesAllowed(true);
    page->state()->select(framed);
    ASSERT_GT(page->sourcePanel()->framesList()->count(), 0);
    // The user's own line is chosen, not the installed package's frame inside it nor the
    // interpreter's "<string>" outermost.
    const QListWidgetItem* chosen = page->sourcePanel()->framesList()->currentItem();
    ASSERT_NE(chosen, nullptr);
    EXPECT_TRUE(chosen->text().startsWith(QStringLiteral("train.py:")))
        << chosen->text().toStdString();
    EXPECT_TRUE(page->sourcePanel()->message().contains(QStringLiteral("not on this machine")))
        << page->sourcePanel()->message().toStdString();
    EXPECT_EQ(test::folderSnapshot(QString::fromStdString(dir_)), before);
}

TEST_F(AscendTimelineView, SeveralRanksAreAlignedAtTheStepWithTheSlowestMarked) {
    const std::string rank0 = make(0, 200), rank1 = make(1, 400);
    MainWindow window;
    window.resize(1400, 1000);
    window.show();
    ASSERT_TRUE(trainscope::test::openAndWait(
        window, {QString::fromStdString(rank0), QString::fromStdString(rank1)}));
    TimelinePage* page = loadedTimeline(window.timelines());
    ASSERT_NE(page, nullptr);
    ASSERT_EQ(page->state()->ranks().size(), 2);
    const TimelineRanks& ranks = page->state()->ranks();
    // Aligned at the step: each rank's first step starts at 0.
    for (int rank = 0; rank < 2; ++rank)
        EXPECT_EQ(page->state()->toAligned(rank, ranks[rank]->steps.front().start_ns), 0);
    auto stepTime = [](const TimelineData& d) {
        return d.steps.front().end_ns - d.steps.front().start_ns;
    };
    const int slowest = stepTime(*ranks[1]) > stepTime(*ranks[0]) ? 1 : 0;
    EXPECT_EQ(page->timeline()->slowestRank(), slowest);
    const QString titles = page->timeline()->rankTitles().join(QLatin1Char('\n'));
    EXPECT_TRUE(titles.contains(QStringLiteral("(slowest)"))) << titles.toStdString();
    EXPECT_EQ(titles.count(QStringLiteral("step ")), 2) << titles.toStdString();
}

// Clicks rank `rank`'s title and waits until the rank is shown expanded (or collapsed).
bool toggleRank(TimelinePage* page, int rank, bool expanded) {
    const QPoint title = page->timeline()->titlePoint(rank);
    if (title.isNull())
        return false;
    QTest::mouseClick(page->timeline(), Qt::LeftButton, {}, title);
    return QTest::qWaitFor([&] { return page->state()->isExpanded(rank) == expanded; }, 20000);
}

// A job's ranks open with the first one's calls shown and the others collapsed to their title,
// which holds their steps alone (eight ranks of a million calls held whole took 1.5 GB); a click
// on a title reads that rank's calls and shows them, a second click frees them again.
TEST_F(AscendTimelineView, RanksBeyondTheFirstOpenCollapsedAndExpandOnAClick) {
    const std::string rank0 = make(0, 200), rank1 = make(1, 400);
    MainWindow window;
    window.resize(1100, 760);
    window.show();
    ASSERT_TRUE(trainscope::test::openAndWait(
        window, {QString::fromStdString(rank0), QString::fromStdString(rank1)}));
    TimelinePage* page = loadedTimeline(window.timelines());
    ASSERT_NE(page, nullptr);
    ASSERT_NE(page->timeline(), nullptr) << page->status()->text().toStdString();
    TimelineViewState* state = page->state();
    ASSERT_EQ(state->ranks().size(), 2);
    EXPECT_TRUE(state->isExpanded(0));
    EXPECT_FALSE(state->isExpanded(1));
    EXPECT_FALSE(state->ranks()[0]->lanes.empty());
    EXPECT_TRUE(state->ranks()[1]->lanes.empty() && state->ranks()[1]->memory.empty());
    EXPECT_FALSE(state->ranks()[1]->steps.empty()) << "a collapsed rank keeps its steps";
    QStringList titles = page->timeline()->rankTitles();
    EXPECT_TRUE(titles.value(0).startsWith(QStringLiteral("▾ Rank 0")))
        << titles.value(0).toStdString();
    EXPECT_TRUE(titles.value(1).startsWith(QStringLiteral("▸ Rank 1")) &&
                titles.value(1).contains(QStringLiteral("click to show its calls")))
        << titles.value(1).toStdString();
    const int collapsed_height = page->timeline()->sizeHint().height();

    ASSERT_TRUE(toggleRank(page, 1, true)) << page->status()->text().toStdString();
    const test::ReportReader db(rank1);
    size_t calls = 0;
    for (const TimelineLane& lane : state->ranks()[1]->lanes)
        calls += lane.kind == LaneKind::Thread ? lane.spans.size() : 0;
    EXPECT_EQ(int64_t(calls), std::stoll(db.scalar("SELECT COUNT(*) FROM PYTORCH_API")));
    EXPECT_FALSE(state->ranks()[1]->memory.empty());
    EXPECT_GT(page->timeline()->sizeHint().height(), collapsed_height) << "its rows are shown";
    titles = page->timeline()->rankTitles();
    EXPECT_TRUE(titles.value(1).startsWith(QStringLiteral("▾ Rank 1")))
        << titles.value(1).toStdString();
    // Both ranks still start their step at 0 on the shared axis.
    EXPECT_EQ(state->toAligned(1, state->ranks()[1]->steps.front().start_ns), 0);

    // A call of rank 1 selected, then rank 1 collapsed: the selection goes with its calls.
    RankedSpan call;
    for (int l = 0; l < int(state->ranks()[1]->lanes.size()) && !call.valid(); ++l)
        if (!state->ranks()[1]->lanes[size_t(l)].spans.empty())
            call = {1, {l, 0}};
    ASSERT_TRUE(call.valid());
    state->select(call);
    const std::weak_ptr<const TimelineData> whole = state->ranks()[1];
    ASSERT_TRUE(toggleRank(page, 1, false));
    EXPECT_FALSE(state->selection().valid());
    EXPECT_TRUE(state->ranks()[1]->lanes.empty());
    EXPECT_TRUE(whole.expired()) << "a collapsed rank's calls are freed";
    EXPECT_EQ(page->timeline()->sizeHint().height(), collapsed_height);
    // A double-click on a title is one toggle: the rank is read and stays shown. (As a window
    // system delivers it: press, release, double-click, release.)
    const QPoint title = page->timeline()->titlePoint(1);
    QTest::mousePress(page->timeline(), Qt::LeftButton, {}, title);
    QTest::mouseRelease(page->timeline(), Qt::LeftButton, {}, title);
    QTest::mouseDClick(page->timeline(), Qt::LeftButton, {}, title);
    QTest::mouseRelease(page->timeline(), Qt::LeftButton, {}, title);
    ASSERT_TRUE(QTest::qWaitFor([&] { return state->isExpanded(1); }, 20000));
    // And on a shown rank's title: hidden, not hidden and read again.
    QTest::mousePress(page->timeline(), Qt::LeftButton, {}, title);
    QTest::mouseRelease(page->timeline(), Qt::LeftButton, {}, title);
    QTest::mouseDClick(page->timeline(), Qt::LeftButton, {}, title);
    QTest::mouseRelease(page->timeline(), Qt::LeftButton, {}, title);
    QTest::qWait(500);
    EXPECT_FALSE(state->isExpanded(1));
}

// Scrolled down to the last device stream, the ruler and the step band are where they were:
// the rows scroll under them, and a click there selects nothing.
TEST_F(AscendTimelineView, TheRulerAndStepBandStayWhileTheRowsScroll) {
    const std::string rank0 = make(0, 200), rank1 = make(1, 400);
    MainWindow window;
    window.resize(1100, 760);
    window.show();
    ASSERT_TRUE(trainscope::test::openAndWait(
        window, {QString::fromStdString(rank0), QString::fromStdString(rank1)}));
    TimelinePage* page = loadedTimeline(window.timelines());
    ASSERT_NE(page, nullptr);
    TimelineWidget* timeline = page->timeline();
    ASSERT_TRUE(toggleRank(page, 1, true));  // both ranks' rows shown
    auto* scroll = qobject_cast<QScrollArea*>(timeline->parentWidget()->parentWidget());
    ASSERT_NE(scroll, nullptr);
    QScrollBar* bar = scroll->verticalScrollBar();
    ASSERT_GT(bar->maximum(), 0) << "two ranks' rows fit without scrolling: nothing to check";
    const QImage before = scroll->viewport()->grab().toImage();
    bar->setValue(bar->maximum());
    QCoreApplication::processEvents();
    const QImage after = scroll->viewport()->grab().toImage();
    // The ruler and step band, 40 pixels high, look the same; the rows below them changed.
    const QRect band(0, 0, before.width(), 40);
    EXPECT_EQ(before.copy(band), after.copy(band));
    EXPECT_NE(before.copy(0, 40, before.width(), before.height() - 40),
              after.copy(0, 40, after.width(), after.height() - 40));
    // The step band's label is shown at the top of what is seen.
    const int top = bar->value();
    EXPECT_FALSE(timeline->spanAt(QPoint(timeline->width() / 2, top + 30)).valid());
}

// Each lane is named in the interface's language: Chinese read "Thread 30569".
TEST(TimelineLaneLabels, InTheInterfacesLanguage) {
    TimelineLane thread, stack, device;
    thread.tid = stack.tid = 30569;
    stack.python_stack = true;
    device.kind = LaneKind::Device;
    device.device = 0;
    device.tid = 7;
    using ui::TimelineWidget;
    EXPECT_EQ(TimelineWidget::laneLabel(thread), QStringLiteral("Thread 30569"));
    EXPECT_EQ(TimelineWidget::laneLabel(stack), QStringLiteral("Python stack 30569"));
    EXPECT_EQ(TimelineWidget::laneLabel(device), QStringLiteral("Device 0 stream 7"));
    ASSERT_TRUE(ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
    EXPECT_EQ(TimelineWidget::laneLabel(thread), QStringLiteral("线程 30569"));
    EXPECT_EQ(TimelineWidget::laneLabel(device), QStringLiteral("设备 0 流 7"));
    ASSERT_TRUE(ui::installTranslations(QLocale(QStringLiteral("de"))));
    EXPECT_EQ(TimelineWidget::laneLabel(thread), QStringLiteral("Thread 30569"));
    ui::installTranslations(QLocale(QStringLiteral("en")));
}

// A time that the timeline shows has three decimals, as the other tabs' times have (it had
// six significant digits: "12.3457 ms"); the ruler's round ticks stay short.
TEST(TimelineTimes, ThreeDecimalsAsInTheOtherTabs) {
    EXPECT_EQ(formatDuration(12'345'678), QStringLiteral("12.346 ms"));
    EXPECT_EQ(formatDuration(850'000), QStringLiteral("850.000 µs"));
    EXPECT_EQ(formatDuration(120), QStringLiteral("120 ns"));
    EXPECT_EQ(tickLabel(2'000'000), QStringLiteral("2 ms"));
    EXPECT_EQ(tickLabel(2'500'000), QStringLiteral("2.5 ms"));
}

}  // namespace

// A GPU trace recorded by others (AlexNet's forward on an A100, tests/data/gpu-traces): a click
// on a kernel in its stream's lane selects it and links the operation that launched it (the
// call around its launch on the launching thread), and a click on that operation links its
// kernels back: the two ends of a launch, either way.
TEST(GpuTraceTimeline, AKernelAndTheOperationThatLaunchedItSelectEachOther) {
    const std::string dir = test::makeTempDir();
    const QString trace = QString::fromStdString(dir + "/alexnet.json.gz");
    ASSERT_TRUE(QFile::copy(QStringLiteral(GPU_TRACES "/a100_alexnet.json.gz"), trace));
    MainWindow window;
    window.resize(1100, 760);
    window.show();
    ASSERT_TRUE(test::openAndWait(window, {trace})) << window.lastError().toStdString();
    TimelinePage* page = loadedTimeline(window.browser()->tabs());
    ASSERT_NE(page, nullptr);
    window.browser()->tabs()->setCurrentWidget(page);
    ASSERT_NE(page->timeline(), nullptr) << page->status()->text().toStdString();
    const TimelineData& data = *page->state()->ranks()[0];
    // The first kernel with a launch, and that launch (the runtime call of its connection).
    RankedSpan kernel;
    const TimelineSpan* launch = nullptr;
    for (size_t l = 0; l < data.lanes.size() && !kernel.valid(); ++l)
        if (data.lanes[l].kind == LaneKind::Device)
            for (size_t i = 0; i < data.lanes[l].spans.size() && !kernel.valid(); ++i)
                for (const TimelineLane& cann : data.lanes)
                    for (const TimelineSpan& call : cann.spans)
                        if (cann.kind == LaneKind::Cann && !kernel.valid() &&
                            call.connection == data.lanes[l].spans[i].connection &&
                            data.text(data.lanes[l].spans[i].name).find("Memcpy") ==
                                std::string::npos) {
                            kernel = {0, {int32_t(l), int32_t(i)}};
                            launch = &call;
                        }
    ASSERT_TRUE(kernel.valid());
    page->state()->zoomTo(kernel);  // wide enough that the click lands on it alone
    QTest::mouseClick(page->timeline(), Qt::LeftButton, {}, page->timeline()->pointOf(kernel));
    ASSERT_EQ(page->state()->selection(), kernel);
    RankedSpan operation;
    for (const RankedSpan& partner : page->state()->partners())
        if (data.lanes[size_t(partner.span.lane)].kind == LaneKind::Thread)
            operation = partner;
    ASSERT_TRUE(operation.valid()) << "no operation among the kernel's partners";
    const TimelineSpan& op = data.span(operation.span);
    EXPECT_EQ(data.text(op.name).rfind("aten::", 0), 0u) << data.text(op.name);
    EXPECT_LE(op.start_ns, launch->start_ns);
    EXPECT_GE(op.end_ns, launch->end_ns);
    // The launching operation's partners hold the kernel.
    page->state()->select(operation);
    EXPECT_TRUE(page->state()->partners().contains(kernel));
    fs::remove_all(dir);
}
