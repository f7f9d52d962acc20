// SPDX-License-Identifier: Apache-2.0
// The "By source line" tab: time and memory summed per file:line of each entry's most
// specific frame, so the user's own lines are ranked. Selecting a line shows it.
#pragma once

#include <QWidget>
#include <optional>

#include "reading/report_queries.h"

namespace trainscope::ui {

class EntryTableView;
class ReportRun;
class RunFilter;

class SourceLinesPage : public QWidget {
    Q_OBJECT
  public:
    // A table for each report of the opened run whose totals were read; the time table
    // follows the run filter's range.
    SourceLinesPage(ReportRun& run, RunFilter* filter, QWidget* parent = nullptr);
    EntryTableView* timeView() const { return time_; }
    EntryTableView* memoryView() const { return memory_; }

    // The line of the table whose row was selected last, if a row of it is still selected
    // (empty for the row of the entries without a frame).
    std::optional<QVector<FrameRow>> selectedLine() const;

  signals:
    // A row was selected: its line, or none for the entries without a frame.
    void lineSelected(const QVector<FrameRow>& line);

  private:
    EntryTableView* time_ = nullptr;
    EntryTableView* memory_ = nullptr;
    EntryTableView* last_selected_ = nullptr;
};

}  // namespace trainscope::ui
