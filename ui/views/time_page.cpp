#include "views/time_page.h"

#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include "views/charts.h"
#include "views/entry_table_view.h"
#include "views/layout.h"

namespace trainscope::ui {
TimePage::TimePage(QSqlDatabase db, const TimeSummary& summary, const TopEntries& top_operations,
                   QWidget* parent)
    : QWidget(parent),
      db_(db),
      summary_(summary),
      view_(new EntryTableView),
      filter_(new QLineEdit),
      grouping_(new QComboBox),
      filter_delay_(new QTimer(this)) {
    filter_->setPlaceholderText(tr("Filter operations by name"));
    filter_->setClearButtonEnabled(true);
    grouping_->addItem(tr("Per invocation"));
    grouping_->addItem(tr("Grouped by operation"));
    filter_delay_->setSingleShot(true);
    filter_delay_->setInterval(kFilterDelayMs);
    connect(filter_, &QLineEdit::textChanged, filter_delay_, qOverload<>(&QTimer::start));
    connect(filter_delay_, &QTimer::timeout, this, &TimePage::applyFilter);
    connect(grouping_, &QComboBox::currentIndexChanged, this, &TimePage::applyGrouping);

    invocations_ = operationsModel(db_, summary_.iteration_ms(), this);
    view_->setEntryModel(invocations_);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:")));
    bar->addWidget(grouping_);
    bar->addWidget(filter_, 1);
    QWidget* table = withHeader(bar, view_);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table);
    split->addWidget(operationTimeChart(tr("Top operations by time"), top_operations));
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

bool TimePage::grouped() const {
    return grouping_->currentIndex() == 1;
}

void TimePage::applyFilter() {
    view_->entryModel()->setFilter(filter_->text());
}

void TimePage::applyGrouping() {
    if (grouped() && !groups_)
        groups_ = groupedOperationsModel(db_, summary_.iteration_ms(), this);
    SqlTableModel* model = grouped() ? groups_ : invocations_;
    model->setFilter(filter_->text());
    view_->setEntryModel(model);
}

}  // namespace trainscope::ui
