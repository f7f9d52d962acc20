// SPDX-License-Identifier: Apache-2.0
// The Time tab: operations per invocation or grouped by name, filtered by name once typing
// pauses (the run's filter, which other pages follow too) and to the run filter's range,
// sorted by SQL, with the top operations' forward and backward time stacked.
#pragma once

#include <QWidget>

#include "views/run_filter_field.h"

class QComboBox;

namespace trainscope::ui {

class ChartSlot;
class EntryTableView;
class ReportRun;
class RowSource;
struct RowFilter;
struct TopEntries;
class RunFilter;
class RunFilterBar;
class SqlTableModel;

class TimePage : public QWidget {
    Q_OBJECT
  public:
    static constexpr int kFilterDelayMs = RunFilterField::kDelayMs;

    // The run must be opened, with its run time report's totals read.
    TimePage(ReportRun& run, RunFilter* filter, QWidget* parent = nullptr);
    EntryTableView* operationsView() const { return view_; }
    RunFilterField* filterField() const { return filter_; }
    QComboBox* groupingChoice() const { return grouping_; }
    RunFilterBar* filterBar() const { return filter_bar_; }
    bool grouped() const;

  private:
    RowFilter rowFilter() const;  // the run filter's name and range, for the tables
    void followRunFilter();
    void applyGrouping();
    void readChart();
    void showChart(const TopEntries& top, bool per_operation);

    ReportRun& run_;
    RowSource* rows_;
    PartTimes times_;  // the report's, by part of the step
    RunFilter* run_filter_;
    EntryTableView* view_;
    RunFilterField* filter_;
    RunFilterBar* filter_bar_;
    QComboBox* grouping_;
    SqlTableModel* invocations_ = nullptr;
    SqlTableModel* groups_ = nullptr;  // made when first asked for
    ChartSlot* chart_ = nullptr;
    int chart_request_ = 0;  // the chart's latest question (0: the run's first reading)
};

}  // namespace trainscope::ui
