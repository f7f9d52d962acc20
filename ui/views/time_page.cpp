// SPDX-License-Identifier: Apache-2.0
#include "views/time_page.h"

#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QVBoxLayout>

#include "report/report_run.h"
#include "views/charts.h"
#include "views/entry_table_view.h"
#include "views/layout.h"
#include "views/run_filter.h"
#include "views/run_filter_bar.h"
#include "views/run_filter_field.h"

namespace trainscope::ui {

TimePage::TimePage(ReportRun& run, RunFilter* filter, QWidget* parent)
    : QWidget(parent),
      rows_(run.rows(ReportKind::Time)),
      operations_ms_(run.contents().time_summary->operations_ms()),
      run_filter_(filter),
      view_(new EntryTableView),
      filter_(new RunFilterField(filter)),
      filter_bar_(new RunFilterBar(filter)),
      grouping_(new QComboBox) {
    grouping_->addItem(tr("Per invocation"));
    grouping_->addItem(tr("Grouped by operation"));
    connect(run_filter_, &RunFilter::changed, this, &TimePage::followRunFilter);
    connect(grouping_, &QComboBox::currentIndexChanged, this, &TimePage::applyGrouping);

    invocations_ = new SqlTableModel(
        rows_, operationsTable(run.contents().time->tables, operations_ms_), this, rowFilter());
    view_->setEntryModel(invocations_);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:")));
    bar->addWidget(grouping_);
    bar->addWidget(filter_, 1);
    auto* header = new QVBoxLayout;
    header->addLayout(bar);
    header->addWidget(filter_bar_);
    QWidget* table = withHeader(header, view_);

    auto* chart = new ChartSlot;
    run.whenChartsRead(this, [this, chart](const RunCharts& top) {
        // A bar's click selects its invocation, and the frames follow.
        chart->setChart(
            operationTimeChart(tr("Top operations by time"), top.operations, [this](qint64 id) {
                grouping_->setCurrentIndex(0);
                view_->selectEntry(id, true);
            }));
    });
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table);
    split->addWidget(chart);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({680, 420});  // the table's columns; bar names sit above the bars
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

bool TimePage::grouped() const {
    return grouping_->currentIndex() == 1;
}

RowFilter TimePage::rowFilter() const {
    return {run_filter_->current().name, run_filter_->current().entries};
}

// The shown table takes the run's filter; the other when it is shown again.
void TimePage::followRunFilter() {
    view_->entryModel()->setRowFilter(rowFilter());
}

void TimePage::applyGrouping() {
    if (grouped() && !groups_)
        groups_ =
            new SqlTableModel(rows_, groupedOperationsTable(operations_ms_), this, rowFilter());
    view_->setEntryModel(grouped() ? groups_ : invocations_);
    followRunFilter();
}

}  // namespace trainscope::ui
