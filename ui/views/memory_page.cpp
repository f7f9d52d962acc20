#include "views/memory_page.h"

#include <QChartView>
#include <QHBoxLayout>
#include <QSplitter>

#include "views/charts.h"
#include "views/entry_table_view.h"

namespace trainscope::ui {
namespace {

constexpr int kChartCount = 10;

}  // namespace

MemoryPage::MemoryPage(QSqlDatabase db, const MemorySummary& summary,
                       const TopEntries& top_activations, QWidget* parent)
    : QWidget(parent), weights_(new EntryTableView), activations_(new EntryTableView) {
    weights_->setEntryModel(weightsModel(db, summary.peak, this));
    activations_->setEntryModel(activationsModel(db, summary.peak, this));

    auto* tables = new QSplitter(Qt::Vertical);
    tables->addWidget(weights_);
    tables->addWidget(activations_);
    auto* charts = new QSplitter(Qt::Vertical);
    charts->addWidget(sizeChart(tr("Largest weights"), topWeights(db, kChartCount)));
    charts->addWidget(sizeChart(tr("Largest activations"), top_activations));
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(tables);
    split->addWidget(charts);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

}  // namespace trainscope::ui
