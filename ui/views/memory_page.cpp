// SPDX-License-Identifier: Apache-2.0
#include "views/memory_page.h"

#include <QChartView>
#include <QHBoxLayout>
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
namespace {

// Bars in each of the tab's two charts, one above the other: as many as have room for their
// names at full size at the default window size (ten left the names on the bars).
constexpr int kMemoryBars = 6;

}  // namespace
MemoryPage::MemoryPage(ReportRun& run, RunFilter* filter, QWidget* parent)
    : QWidget(parent),
      weights_(new EntryTableView),
      activations_(new EntryTableView),
      largest_weights_(new ChartSlot),
      largest_activations_(new ChartSlot) {
    const RunContents& contents = run.contents();
    // A memory snapshot's entries are its blocks at the peak by category, not activations.
    activations_title_ = contents.memory_summary->lists_blocks_at_peak
                             ? tr("Largest blocks alive at the peak")
                             : tr("Largest activations");
    const QStringList& tables = contents.memory->tables;
    const qint64 peak = contents.memory_summary->peak;
    RowSource* rows = run.rows(ReportKind::Memory);
    weights_->setEntryModel(new SqlTableModel(rows, weightsTable(tables, peak), this));
    auto* activations = new SqlTableModel(
        rows, activationsTable(tables, peak, contents.memory_summary->lists_blocks_at_peak), this,
        {filter->current().name, std::nullopt});
    activations_->setEntryModel(activations);
    connect(filter, &RunFilter::changed, activations, [this, activations, filter, &run] {
        activations->setFilter(filter->current().name);
        readActivationsChart(run, filter->current().name);
    });

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
        largest_weights_->setChart(
            sizeChart(tr("Largest weights"), top.weights.first(kMemoryBars),
                      [this](qint64 id) { weights_->selectEntry(id, true); }));
        if (activations_request_ == 0)  // not yet asked again for a filter
            showActivationsChart(top.activations, {});
    });
}

// The activations chart shows what its table shows: the same name filter, read on the run's
// thread; an answer to an earlier question is dropped.
void MemoryPage::readActivationsChart(ReportRun& run, const QString& name) {
    const int request = ++activations_request_;
    run.readReports<TopEntries>(
        [name](const ReportFile* memory, const ReportFile*) {
            return memory ? topActivations(*memory, kActivationBars, name) : TopEntries{};
        },
        this,
        [this, request, name](const TopEntries& top) {
            if (request == activations_request_)
                showActivationsChart(top, name);
        });
}

void MemoryPage::showActivationsChart(const TopEntries& top, const QString& name) {
    const QString title =
        name.isEmpty() ? activations_title_ : tr("%1 — “%2”").arg(activations_title_, name);
    // A bar's click selects its row, and the frames follow.
    largest_activations_->setChart(sizeChart(
        title, top.first(kMemoryBars), [this](qint64 id) { activations_->selectEntry(id, true); }));
}

}  // namespace trainscope::ui
