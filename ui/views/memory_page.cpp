// SPDX-License-Identifier: Apache-2.0
#include "views/memory_page.h"

#include <QChartView>
#include <QHBoxLayout>
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

MemoryPage::MemoryPage(ReportRun& run, RunFilter* filter, QWidget* parent)
    : QWidget(parent),
      weights_(new EntryTableView),
      activations_(new EntryTableView),
      largest_weights_(new ChartSlot),
      largest_activations_(new ChartSlot) {
    const RunContents& contents = run.contents();
    const QStringList& tables = contents.memory->tables;
    const qint64 peak = contents.memory_summary->peak;
    RowSource* rows = run.rows(ReportKind::Memory);
    weights_->setEntryModel(new SqlTableModel(rows, weightsTable(tables, peak), this));
    auto* activations = new SqlTableModel(rows, activationsTable(tables, peak), this,
                                          {filter->current().name, std::nullopt});
    activations_->setEntryModel(activations);
    connect(filter, &RunFilter::changed, activations,
            [activations, filter] { activations->setFilter(filter->current().name); });

    auto* views = new QSplitter(Qt::Vertical);
    views->addWidget(weights_);
    auto* header = new QVBoxLayout;
    header->addWidget(new RunFilterField(filter));
    header->addWidget(new RunFilterBar(filter));
    views->addWidget(withHeader(header, activations_));
    auto* charts = new QSplitter(Qt::Vertical);
    charts->addWidget(largest_weights_);
    charts->addWidget(largest_activations_);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(views);
    split->addWidget(charts);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    run.whenChartsRead(this, [this](const RunCharts& top) {
        // A bar's click selects its row, and the frames follow.
        largest_weights_->setChart(sizeChart(tr("Largest weights"), top.weights, [this](qint64 id) {
            weights_->selectEntry(id, true);
        }));
        largest_activations_->setChart(
            sizeChart(tr("Largest activations"), top.activations,
                      [this](qint64 id) { activations_->selectEntry(id, true); }));
    });
}

}  // namespace trainscope::ui
