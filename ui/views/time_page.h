// The Time tab: operations per invocation or grouped by name, filtered by name once typing
// pauses, sorted by SQL, with the top operations' forward and backward time stacked.
#pragma once

#include <QWidget>

class QComboBox;
class QLineEdit;
class QTimer;

namespace trainscope::ui {

class EntryTableView;
class ReportRun;
class RowSource;
class SqlTableModel;

class TimePage : public QWidget {
    Q_OBJECT
  public:
    static constexpr int kFilterDelayMs = 300;

    // The run must be opened, with its run time report's totals read.
    explicit TimePage(ReportRun& run, QWidget* parent = nullptr);
    EntryTableView* operationsView() const { return view_; }
    QLineEdit* filterField() const { return filter_; }
    QComboBox* groupingChoice() const { return grouping_; }
    bool grouped() const;

  private:
    void applyFilter();
    void applyGrouping();

    RowSource* rows_;
    double iteration_ms_;
    EntryTableView* view_;
    QLineEdit* filter_;
    QComboBox* grouping_;
    QTimer* filter_delay_;
    SqlTableModel* invocations_ = nullptr;
    SqlTableModel* groups_ = nullptr;  // made when first asked for
};

}  // namespace trainscope::ui
