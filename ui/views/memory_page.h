// SPDX-License-Identifier: Apache-2.0
// The Memory tab: weights (size, gradient, share of peak) and activations (operation, size,
// share), sortable by SQL, with charts of the largest of each. The activations follow the
// run filter's operation name.
#pragma once

#include <QWidget>

namespace trainscope::ui {

class ChartSlot;
class EntryTableView;
class ReportRun;
class RunFilter;
struct TopEntries;

class MemoryPage : public QWidget {
    Q_OBJECT
  public:
    // The run must be opened, with its memory report's totals read.
    MemoryPage(ReportRun& run, RunFilter* filter, QWidget* parent = nullptr);
    EntryTableView* weightsView() const { return weights_; }
    EntryTableView* activationsView() const { return activations_; }

  private:
    void readActivationsChart(ReportRun& run, const QString& name);
    void showActivationsChart(const TopEntries& top, const QString& name);

    EntryTableView* weights_;
    EntryTableView* activations_;
    ChartSlot* largest_weights_;
    ChartSlot* largest_activations_;
    QString activations_title_;    // what the lower chart's bars are
    int activations_request_ = 0;  // the chart's latest question (0: the run's first reading)
};

}  // namespace trainscope::ui
