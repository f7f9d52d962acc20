// The Time tab: operations per invocation or grouped by name, filtered by name once typing
// pauses, sorted by SQL, with the top operations' forward and backward time stacked.
#pragma once

#include <QSqlDatabase>
#include <QWidget>

#include "report/report_queries.h"

class QComboBox;
class QLineEdit;
class QTimer;

namespace trainscope::ui {

class EntryTableView;

class TimePage : public QWidget {
    Q_OBJECT
  public:
    static constexpr int kFilterDelayMs = 300;

    // `top_operations`: the operations by total time, largest first (read once by the browser).
    TimePage(QSqlDatabase db, const TimeSummary& summary, const TopEntries& top_operations,
             QWidget* parent = nullptr);
    EntryTableView* operationsView() const { return view_; }
    QLineEdit* filterField() const { return filter_; }
    QComboBox* groupingChoice() const { return grouping_; }
    bool grouped() const;

  private:
    void applyFilter();
    void applyGrouping();

    QSqlDatabase db_;
    TimeSummary summary_;
    EntryTableView* view_;
    QLineEdit* filter_;
    QComboBox* grouping_;
    QTimer* filter_delay_;
    SqlTableModel* invocations_ = nullptr;
    SqlTableModel* groups_ = nullptr;  // made when first asked for
};

}  // namespace trainscope::ui
