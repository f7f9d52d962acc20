// SPDX-License-Identifier: Apache-2.0
// The "By source line" tab: time and memory summed per file:line of each entry's most
// specific frame, so the user's own lines are ranked. Selecting a line shows it.
#pragma once

#include <QWidget>

#include "report/report_queries.h"

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

  signals:
    void lineSelected(const FrameRow& location);

  private:
    EntryTableView* time_ = nullptr;
    EntryTableView* memory_ = nullptr;
};

}  // namespace trainscope::ui
