#include "views/time_page.h"

#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include "report/report_run.h"
#include "views/charts.h"
#include "views/entry_table_view.h"
#include "views/layout.h"

namespace trainscope::ui {

TimePage::TimePage(ReportRun& run, QWidget* parent)
    : QWidget(parent),
      rows_(run.rows(ReportKind::Time)),
      iteration_ms_(run.contents().time_summary->iteration_ms()),
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

    invocations_ =
        new SqlTableModel(rows_, operationsTable(run.contents().time->tables, iteration_ms_), this);
    view_->setEntryModel(invocations_);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:")));
    bar->addWidget(grouping_);
    bar->addWidget(filter_, 1);
    QWidget* table = withHeader(bar, view_);

    auto* chart = new ChartSlot;
    run.whenChartsRead(this, [chart](const RunCharts& top) {
        chart->setChart(operationTimeChart(tr("Top operations by time"), top.operations));
    });
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table);
    split->addWidget(chart);
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
        groups_ = new SqlTableModel(rows_, groupedOperationsTable(iteration_ms_), this);
    SqlTableModel* model = grouped() ? groups_ : invocations_;
    model->setFilter(filter_->text());
    view_->setEntryModel(model);
}

}  // namespace trainscope::ui
