// SPDX-License-Identifier: Apache-2.0
// A timeline's summary (ours, or a torch_npu profiler database): steps, calls, memory peaks by
// component, the operations with the most time and the largest blocks. Read by the engine's
// report reader on a worker thread: the window stays responsive, and no SQL runs on its thread.
#pragma once

#include <QFutureWatcher>
#include <QLabel>
#include <QTableWidget>
#include <QWidget>
#include <memory>

#include "trainscope/report_reading.h"

namespace trainscope::ui {

// What the worker hands back: the summary, or why there is none.
struct TimelineLoad {
    std::shared_ptr<const ReportFileSummary> summary;
    QString error;
};

class TimelineSummaryPage : public QWidget {
    Q_OBJECT
  public:
    explicit TimelineSummaryPage(const QString& path, QWidget* parent = nullptr);

    const QString& path() const { return path_; }
    bool loaded() const { return loaded_; }
    QLabel* totals() const { return totals_; }
    QTableWidget* operationsTable() const { return operations_; }
    QTableWidget* allocationsTable() const { return allocations_; }

  signals:
    void loadFinished(const QString& error);  // empty: shown

  private:
    void display(const TimelineLoad& load);

    QString path_;
    bool loaded_ = false;
    QLabel* totals_;
    QTableWidget* operations_;
    QTableWidget* allocations_;
    QFutureWatcher<TimelineLoad> watcher_;
};

}  // namespace trainscope::ui
