// SPDX-License-Identifier: Apache-2.0
// What torch.compile compiled in a run (its run time report's trainscope_compilations): each
// compilation with its step, function and line, its time, why its graph broke and why it
// compiled again; above them, the compiled regions' kernels in figures (how much of their time
// lies on a module and a line of the project). A compilation's line opens in the source panel.
// Built from the totals read when the run opened: no query of its own.
#pragma once

#include <QLabel>
#include <QTableWidget>
#include <QVector>
#include <QWidget>

#include "reading/report_queries.h"

namespace trainscope::ui {

class CompiledPage : public QWidget {
    Q_OBJECT
  public:
    explicit CompiledPage(const TimeSummary& time, QWidget* parent = nullptr);

    QLabel* heading() const { return heading_; }
    QTableWidget* compilationsTable() const { return table_; }

  signals:
    // A compilation's row was selected: its function's first line.
    void lineSelected(const QVector<FrameRow>& frames);

  private:
    QLabel* heading_;
    QTableWidget* table_;
};

}  // namespace trainscope::ui
