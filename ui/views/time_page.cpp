// SPDX-License-Identifier: Apache-2.0
#include "views/time_page.h"

#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QVBoxLayout>

#include "reading/report_run.h"
#include "views/charts.h"
#include "views/entry_table_view.h"
#include "views/layout.h"
#include "views/run_filter.h"
#include "views/run_filter_bar.h"
#include "views/run_filter_field.h"

namespace trainscope::ui {

TimePage::TimePage(ReportRun& run, RunFilter* filter, QWidget* parent)
    : QWidget(parent),
      run_(run),
      rows_(run.rows(ReportKind::Time)),
      times_(run.contents().time_summary->times),
      run_filter_(filter),
      view_(new EntryTableView),
      filter_(new RunFilterField(filter)),
      filter_bar_(new RunFilterBar(filter)),
      grouping_(new QComboBox) {
    grouping_->addItem(tr("Per invocation"));
    grouping_->addItem(tr("Grouped by operation"));
    connect(run_filter_, &RunFilter::changed, this, &TimePage::followRunFilter);
    connect(grouping_, &QComboBox::currentIndexChanged, this, &TimePage::applyGrouping);

    invocations_ = new SqlTableModel(rows_, operationsTable(run.contents().time->tables, times_),
                                     this, rowFilter());
    view_->setEntryModel(invocations_);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:")));
    bar->addWidget(grouping_);
    bar->addWidget(filter_, 1);
    auto* header = new QVBoxLayout;
    header->addLayout(bar);
    header->addWidget(filter_bar_);
    QWidget* table = withHeader(header, view_);

    chart_ = new ChartSlot;
    run.whenChartsRead(this, [this](const RunCharts& top) {
        if (chart_request_ == 0)  // not yet asked again for a filter or the grouping
            showChart(top.operations.first(kOperationBars), false);
    });
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table);
    split->addWidget(chart_);
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

// The chart shows what the table shows: the same filter, per invocation or per operation. It
// is read on the run's thread; an answer to an earlier question is dropped.
void TimePage::readChart() {
    const RowFilter filter = rowFilter();
    const bool per_operation = grouped();
    const int request = ++chart_request_;
    run_.readReports<TopEntries>(
        [filter, per_operation](const ReportFile*, const ReportFile* time) {
            return time ? topOperationsByTime(*time, kOperationBars, filter, per_operation)
                        : TopEntries{};
        },
        this,
        [this, request, per_operation](const TopEntries& top) {
            if (request == chart_request_)
                showChart(top, per_operation);
        });
}

void TimePage::showChart(const TopEntries& top, bool per_operation) {
    const QString name = run_filter_->current().name;
    QString title = per_operation ? tr("Top operations by time, summed per operation")
                                  : tr("Top operations by time");
    if (!name.isEmpty())
        title = tr("%1 — “%2”").arg(title, name);
    // A bar's click selects its row (an invocation, or an operation's group), and the frames
    // follow.
    chart_->setChart(
        operationTimeChart(title, top, [this](qint64 id) { view_->selectEntry(id, true); }));
}

// The shown table takes the run's filter; the other when it is shown again.
void TimePage::followRunFilter() {
    view_->entryModel()->setRowFilter(rowFilter());
    readChart();
}

void TimePage::applyGrouping() {
    if (grouped() && !groups_)
        groups_ = new SqlTableModel(
            rows_, groupedOperationsTable(run_.contents().time->tables, times_), this, rowFilter());
    view_->setEntryModel(grouped() ? groups_ : invocations_);
    followRunFilter();
}

}  // namespace trainscope::ui
