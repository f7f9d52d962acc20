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

}  // namespace

OverviewPage::OverviewPage(const std::optional<MemorySummary>& memory_summary,
                           const TopEntries& top_activations,
                           const std::optional<TimeSummary>& time_summary,
                           const TopEntries& top_operations, const QString& error, QWidget* parent)
    : QWidget(parent) {
    QStringList lines;
    auto* charts = new QGridLayout;
    if (memory_summary) {
        const MemorySummary& m = *memory_summary;
        lines << tr("Peak memory: %1").arg(formatBytes(m.peak))
              << tr("Weights: %1   Gradients: %2   Activations: %3   Other: %4")
                     .arg(formatBytes(m.weights), formatBytes(m.gradients),
                          formatBytes(m.activations), formatBytes(m.other()));
        charts->addWidget(memoryBreakdownChart(m), 0, 0);
        charts->addWidget(
            sizeChart(tr("Top operations by activation memory"), top_activations.first(kTopCount)),
            1, 0);
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
        charts->addWidget(
            operationTimeChart(tr("Top operations by time"), top_operations.first(kTopCount)), 1,
            1);
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
