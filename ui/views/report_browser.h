// One run's reports in one place: overview, memory and time tables, and the stack frames of
// the selected entry. Either report may be missing (a memory-only or time-only run).
#pragma once

#include <QWidget>
#include <memory>

#include "report/report_file.h"
#include "report/report_queries.h"

class QListWidget;
class QTabWidget;
class QTableView;

namespace trainscope::ui {

class ReportBrowser : public QWidget {
    Q_OBJECT
  public:
    // Takes the opened reports; when their totals cannot be read, the overview says why.
    ReportBrowser(std::unique_ptr<ReportFile> memory, std::unique_ptr<ReportFile> time,
                  QWidget* parent = nullptr);
    ~ReportBrowser() override;

    QTabWidget* tabs() const { return tabs_; }
    QTableView* weightsView() const { return weights_view_; }
    QTableView* activationsView() const { return activations_view_; }
    QTableView* operationsView() const { return operations_view_; }
    QListWidget* framesList() const { return frames_; }
    const std::optional<MemorySummary>& memorySummary() const { return memory_summary_; }
    const std::optional<TimeSummary>& timeSummary() const { return time_summary_; }
    QString overviewText() const;

  private:
    QWidget* makeOverview();
    QTableView* makeTable(SqlTableModel* model, EntryTable table, const ReportFile& file);
    void showFrames(const ReportFile& file, EntryTable table, qint64 entry_id);

    std::unique_ptr<ReportFile> memory_;
    std::unique_ptr<ReportFile> time_;
    std::optional<MemorySummary> memory_summary_;
    std::optional<TimeSummary> time_summary_;
    QTabWidget* tabs_ = nullptr;
    QTableView* weights_view_ = nullptr;
    QTableView* activations_view_ = nullptr;
    QTableView* operations_view_ = nullptr;
    QListWidget* frames_ = nullptr;
    QString overview_text_;
    QString summary_error_;
};

}  // namespace trainscope::ui
