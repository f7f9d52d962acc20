// The Memory tab: weights (size, gradient, share of peak) and activations (operation, size,
// share), sortable by SQL, with charts of the largest of each.
#pragma once

#include <QSqlDatabase>
#include <QWidget>

#include "report/report_queries.h"

namespace trainscope::ui {

class EntryTableView;

class MemoryPage : public QWidget {
    Q_OBJECT
  public:
    // `top_activations`: the largest activations, largest first (the browser reads them once).
    MemoryPage(QSqlDatabase db, const MemorySummary& summary, const TopEntries& top_activations,
               QWidget* parent = nullptr);
    EntryTableView* weightsView() const { return weights_; }
    EntryTableView* activationsView() const { return activations_; }

  private:
    EntryTableView* weights_;
    EntryTableView* activations_;
};

}  // namespace trainscope::ui
