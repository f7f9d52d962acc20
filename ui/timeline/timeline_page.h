// SPDX-License-Identifier: Apache-2.0
// The Timeline tab: the timeline and the memory curve on one axis, the blocks alive at the
// chosen moment, and the frames of the chosen call. Its files (one per rank) are read by a
// background loader; the window stays responsive, and no SQL runs on its thread.
#pragma once

#include <QFutureWatcher>
#include <QMap>
#include <QWidget>
#include <atomic>
#include <memory>

#include "timeline/timeline_view_state.h"
#include "trainscope/cluster.h"
#include "views/settling_page.h"

class QAction;
class QLabel;
class QVBoxLayout;
class QLineEdit;
class QScrollArea;
class QStackedWidget;

namespace trainscope::ui {

class LiveBlocksView;
class MemoryCurveWidget;
class RunFilter;
class SourcePanel;
class TimelineWidget;

// What the loader hands back: every rank, or why there is none; of several ranks, also what the
// summary of the ranks needs of each (the Ranks tab's, from the same reading).
struct TimelineRanksLoad {
    TimelineRanks ranks;
    QVector<bool> expanded;  // per rank: whole, or its outline
    std::shared_ptr<const std::vector<RankFacts>> facts;
    QString error;
};

class TimelinePage : public QWidget, public SettlingPage {
    Q_OBJECT
  public:
    // Shows the frames of the chosen call in `source_panel` (the report browser's), or in a
    // panel of its own when none is given.
    explicit TimelinePage(const QStringList& paths, SourcePanel* source_panel = nullptr,
                          QWidget* parent = nullptr);
    ~TimelinePage() override;

    bool loaded() const { return loaded_; }
    bool isSettled() const override { return loaded_; }
    TimelineViewState* state() const { return state_; }
    TimelineWidget* timeline() const { return timeline_; }
    MemoryCurveWidget* memoryCurve() const { return memory_; }
    LiveBlocksView* liveBlocks() const { return live_blocks_; }
    SourcePanel* sourcePanel() const { return source_panel_; }
    QLineEdit* findField() const { return find_; }
    QLabel* status() const { return status_; }
    void showPeak();
    // Shows the selected call's frames in the source panel (clears it when none is selected):
    // what the browser asks when its Timeline tab comes to the front.
    void showSelectedCall();
    // Selects the call behind run time entry `entry_id` of the same run (the browser's Time
    // table follows into the timeline); once read, when the timeline is still being read.
    void selectTimedOperation(qint64 entry_id);
    // Follows the run filter of the browser that shows this timeline: calls outside its name
    // are faded, its bar is shown, and "Filter to View" narrows it to the operations whose
    // forward calls are in view.
    void followRunFilter(RunFilter* filter);
    void filterToView();

  signals:
    void loadFinished(const QString& error);  // empty: shown
    // The timelines of several ranks were read: what their summary needs, or why not.
    void ranksRead(const std::shared_ptr<const std::vector<RankFacts>>& facts,
                   const QString& error);
    // The user selected a call of the run time entry `entry_id` (a top-level forward call, a
    // call nested in one, or one of its backward nodes).
    void operationSelected(qint64 entry_id);

  private:
    void display(const TimelineRanksLoad& load);
    // Expands a collapsed rank (its file read whole on a worker) or collapses an expanded one.
    void toggleRank(int rank);
    void findNext();
    void showCall(const RankedSpan& call);
    QVBoxLayout* layout_;
    QAction* filter_to_view_;
    RunFilter* run_filter_ = nullptr;

    QStringList paths_;
    bool loaded_ = false;
    std::shared_ptr<std::atomic<bool>> cancel_;
    TimelineViewState* state_;
    QStackedWidget* stack_;
    QLabel* status_;
    QLineEdit* find_;
    QWidget* content_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    TimelineWidget* timeline_ = nullptr;
    MemoryCurveWidget* memory_ = nullptr;
    LiveBlocksView* live_blocks_ = nullptr;
    SourcePanel* source_panel_;
    bool own_source_panel_;
    QString found_text_;
    QVector<RankedSpan> found_;
    int found_index_ = -1;
    qint64 pending_entry_ = 0;
    bool following_ = false;  // selecting what another view chose: not echoed back
    QFutureWatcher<TimelineRanksLoad> watcher_;
    // The ranks being expanded: their whole file, or why it could not be read.
    struct ExpandedRank {
        std::shared_ptr<const TimelineData> data;
        QString error;
    };
    QMap<int, QFutureWatcher<ExpandedRank>*> expanding_;
};

}  // namespace trainscope::ui
