// The "By source line" tab: time and memory summed per file:line of each entry's most
// specific frame, so the user's own lines are ranked. Selecting a line shows it.
#pragma once

#include <QSqlDatabase>
#include <QWidget>

#include "report/report_queries.h"

namespace trainscope::ui {

class EntryTableView;

class SourceLinesPage : public QWidget {
    Q_OBJECT
  public:
    // Either database may be invalid (that report is missing from the run).
    SourceLinesPage(QSqlDatabase time, double iteration_ms, QSqlDatabase memory, qint64 peak,
                    QWidget* parent = nullptr);
    EntryTableView* timeView() const { return time_; }
    EntryTableView* memoryView() const { return memory_; }

  signals:
    void lineSelected(const FrameRow& location);

  private:
    EntryTableView* time_ = nullptr;
    EntryTableView* memory_ = nullptr;
};

}  // namespace trainscope::ui
