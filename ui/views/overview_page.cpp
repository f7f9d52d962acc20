#include "views/overview_page.h"

#include <QChartView>
#include <QGridLayout>
#include <QLabel>
#include <QStringList>
#include <QVBoxLayout>

#include "views/charts.h"

namespace trainscope::ui {
namespace {

constexpr int kTopCount = 8;
// Bars per chart when the memory column stacks three charts: fewer, so that their labels fit.
constexpr int kStackedTopCount = 5;

}  // namespace

OverviewPage::OverviewPage(const std::optional<MemorySummary>& memory_summary,
                           const TopEntries& top_activations, const TopEntries& top_modules,
                           const std::optional<TimeSummary>& time_summary,
                           const TopEntries& top_operations, const QString& error, QWidget* parent)
    : QWidget(parent) {
    QStringList lines;
    auto* charts = new QGridLayout;
    if (memory_summary) {
        const MemorySummary& m = *memory_summary;
        lines << tr("Peak memory: %1").arg(formatBytes(m.peak));
        if (const auto& p = m.at_peak) {
            lines << tr("At the peak: weights %1   gradients %2   optimizer state %3   "
                        "activations %4   other %5")
                         .arg(formatBytes(p->weights), formatBytes(p->gradients),
                              formatBytes(p->optimizer_state), formatBytes(p->activations),
                              formatBytes(p->other));
            if (p->total() != m.peak)
                lines << tr("The parts at the peak sum to %1, not to the peak.")
                             .arg(formatBytes(p->total()));
        }
        lines << tr("Over the iteration: weights %1   gradients %2   activations %3")
                     .arg(formatBytes(m.weights), formatBytes(m.gradients),
                          formatBytes(m.activations));
        charts->addWidget(memoryBreakdownChart(m), 0, 0);
        int row = 1;
        const int bars = m.at_peak ? kStackedTopCount : kTopCount;
        if (m.at_peak) {
            charts->addWidget(sizeChart(tr("Modules at the peak"), top_modules.first(bars)), row++,
                              0);
        }
        charts->addWidget(
            sizeChart(tr("Top operations by activation memory"), top_activations.first(bars)), row,
            0);
    }
    if (time_summary) {
        const TimeSummary& t = *time_summary;
        lines << tr("Iteration time (sum of operations): %1 ms   Forward: %2 ms   "
                    "Backward: %3 ms   Operations: %4")
                     .arg(t.iteration_ms(), 0, 'f', 3)
                     .arg(t.forward_ms, 0, 'f', 3)
                     .arg(t.backward_ms, 0, 'f', 3)
                     .arg(t.operations);
        charts->addWidget(iterationSplitChart(t), 0, 1);
        // Beside the memory column, which may have a chart more.
        charts->addWidget(
            operationTimeChart(tr("Top operations by time"), top_operations.first(kTopCount)), 1, 1,
            charts->rowCount() > 2 ? 2 : 1, 1);
    }
    if (!error.isEmpty())
        lines << tr("Could not read the report's totals: %1").arg(error);
    text_ = lines.join(QLatin1Char('\n'));

    auto* label = new QLabel(text_);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(label);
    layout->addLayout(charts, 1);
}

}  // namespace trainscope::ui
