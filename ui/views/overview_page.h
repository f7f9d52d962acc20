// SPDX-License-Identifier: Apache-2.0
// The first tab: the run's totals in words and charts (peak memory breakdown, forward and
// backward split, the top operations by time and by activation memory).
#pragma once

#include <QWidget>

namespace trainscope::ui {

class ReportRun;

class OverviewPage : public QWidget {
    Q_OBJECT
  public:
    // The totals of the opened run's reports in words, then in charts; the charts of the
    // largest entries come when the run has read them.
    explicit OverviewPage(ReportRun& run, QWidget* parent = nullptr);
    const QString& text() const { return text_; }

  signals:
    // A bar of an activation or an operation was clicked (its entry's id).
    void activationClicked(qint64 id);
    // A slice of the memory or time pie: the tab of its entries.
    void weightsPartClicked();
    void activationsPartClicked();
    void timePartClicked();
    void operationClicked(qint64 id);

  private:
    QString text_;
};

}  // namespace trainscope::ui
