// SPDX-License-Identifier: Apache-2.0
// One run's reports in one window: overview, memory, time and by-source-line tabs above the
// source panel that shows the selected entry's frames and code. Either report may be missing
// (a memory-only or time-only run). Every page reads through the run, off the GUI thread.
#pragma once

#include <QHash>
#include <QSet>
#include <QWidget>
#include <memory>
#include <utility>

#include "reading/report_run.h"

class QListWidget;
class QTabWidget;

namespace trainscope::ui {

class EntryTableView;
class MemoryPage;
class ModulesPage;
class RunFilter;
class SourceLinesPage;
class SourcePanel;
class TimePage;
class CompiledPage;

class ReportBrowser : public QWidget {
    Q_OBJECT
  public:
    // Takes the opened run (with a memory or run time report); when their totals cannot be
    // read, the overview says why.
    explicit ReportBrowser(std::unique_ptr<ReportRun> run, QWidget* parent = nullptr);
    ~ReportBrowser() override;

    // The report files shown, memory first (timelines excluded).
    QStringList paths() const;
    ReportRun& run() const { return *run_; }
    // The filter that every page follows (and the timeline, which MainWindow connects).
    RunFilter* filter() const { return filter_; }
    // Frames are resolved against this folder. The default: the root last chosen for this
    // report; else the project root the report recorded, when it exists here and is trusted;
    // else the report's folder. A recorded root is trusted without asking only when it is the
    // built-in models' folder or holds the report (symbolic links resolved; `/`, the home folder
    // and its parents hold every report, so they do not count); otherwise the
    // source panel asks once per report, and the answer also covers the recorded library roots.
    const QString& projectRoot() const;
    // Changes the root and remembers it for this report.
    void setProjectRoot(const QString& root);

    QTabWidget* tabs() const { return tabs_; }
    EntryTableView* weightsView() const;
    EntryTableView* activationsView() const;
    EntryTableView* operationsView() const;
    MemoryPage* memoryPage() const { return memory_page_; }
    TimePage* timePage() const { return time_page_; }
    CompiledPage* compiledPage() const { return compiled_page_; }  // null: nothing compiled
    SourceLinesPage* sourceLinesPage();  // built on first use: grouping a large report costs
    ModulesPage* modulesPage();          // likewise
    SourcePanel* sourcePanel() const { return source_panel_; }
    QListWidget* framesList() const;
    const std::optional<MemorySummary>& memorySummary() const {
        return run_->contents().memory_summary;
    }
    const std::optional<TimeSummary>& timeSummary() const { return run_->contents().time_summary; }
    QString overviewText() const { return overview_text_; }
    // The table of the tab in front that File › Export Table writes: the one selected from
    // last, else its first; null when the tab has none.
    EntryTableView* currentTable() const;
    // Selects run time entry `entry_id` in the per-invocation Time table, as another view (the
    // timeline) chose it.
    void selectOperation(qint64 entry_id);

  signals:
    // An operation of the per-invocation Time table was selected (its run time entry id).
    void operationSelected(qint64 entry_id);
    // The frames of the entry selected last are read and shown in the source panel.
    void framesShown();
    // A page that another room added to the tabs (the timeline) came to the front: the source
    // panel is its to fill (it was cleared).
    void addedPageShown(QWidget* page);

  private:
    void applySourceFolders();
    void followSelection(QWidget* page, EntryTableView* view, ReportKind kind, EntryTable table);
    void showFramesOf(EntryTableView* view, int row);
    void showFrames(ReportKind kind, ReportRun::FramesQuery query);
    // The frames panel follows the tab brought to the front: its selection's frames, or none.
    void followTab(int index);

    std::unique_ptr<ReportRun> run_;
    RunFilter* filter_;
    quint64 frames_asked_ = 0;  // the last request for frames: only its answer is shown
    // Where each table's frames come from, and the table of each page selected from last.
    QHash<EntryTableView*, std::pair<ReportKind, EntryTable>> frames_source_;
    QHash<QWidget*, EntryTableView*> last_selected_;
    QTabWidget* tabs_ = nullptr;
    QSet<QWidget*> own_pages_;  // the tabs made here; others are added by the main window
    MemoryPage* memory_page_ = nullptr;
    TimePage* time_page_ = nullptr;
    CompiledPage* compiled_page_ = nullptr;
    QWidget* source_lines_tab_ = nullptr;
    QWidget* modules_tab_ = nullptr;
    ModulesPage* modules_page_ = nullptr;
    SourceLinesPage* source_lines_page_ = nullptr;
    SourcePanel* source_panel_ = nullptr;
    QString overview_text_;
};

}  // namespace trainscope::ui
