// SPDX-License-Identifier: Apache-2.0
#include "views/overview_page.h"

#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QLabel>
#include <QLegend>
#include <QLocale>
#include <QStringList>
#include <QVBoxLayout>
#include <algorithm>

#include "reading/report_run.h"
#include "trainscope/import_notes.h"
#include "trainscope/report_format.h"
#include "views/charts.h"

namespace trainscope::ui {
namespace {

// Bars per chart: the charts are laid out in two rows, so that the page fits the window at its
// default size below the toolbar; each bar's name needs the room above it.
constexpr int kTopCount = 8;
constexpr int kTimeTopCount = 4;
constexpr int kMemoryTopCount = 4;

// What the operations' times are the time of, by the run time report's metadata (the CLI's
// operationTimesText() in the user's language): the GPU's, the device's or the CPU's.
QStringList operationTimesLines(const RunMetadata& metadata) {
    const auto value = [&](const char* key) {
        const auto found = metadata.find(key);
        return found == metadata.end() ? QString() : QString::fromStdString(found->second);
    };
    QStringList lines;
    // The GPU and the rank an imported trace names (deviceProperties, distributedInfo).
    if (!value(report_format::kDeviceNameKey).isEmpty() &&
        value(report_format::kImportedFormatKey) == QLatin1String(kProfilerTraceFormat)) {
        QString device = value(report_format::kDeviceNameKey);
        if (value(report_format::kDeviceMemoryKey).toLongLong() > 0)
            device += QStringLiteral(", ") +
                      formatBytes(value(report_format::kDeviceMemoryKey).toLongLong());
        if (!value(report_format::kDeviceMultiprocessorsKey).isEmpty())
            device +=
                OverviewPage::tr(", %1 SMs").arg(value(report_format::kDeviceMultiprocessorsKey));
        lines << (value(report_format::kRankKey).isEmpty()
                      ? OverviewPage::tr("Recorded on %1").arg(device)
                  : value(report_format::kWorldSizeKey).isEmpty()
                      ? OverviewPage::tr("Recorded on %1, rank %2")
                            .arg(device, value(report_format::kRankKey))
                      : OverviewPage::tr("Recorded on %1, rank %2 of %3")
                            .arg(device, value(report_format::kRankKey),
                                 value(report_format::kWorldSizeKey)));
    }
    if (value("device") == QLatin1String("cuda")) {
        lines << OverviewPage::tr(
            "Operation times are GPU times, between CUDA events around each operation");
    } else if (value(report_format::kImportedFormatKey) == QLatin1String(kProfilerTraceFormat)) {
        lines << (value(report_format::kOperationTimesKey) ==
                          QLatin1String(report_format::kDeviceTimes)
                      ? OverviewPage::tr("Operation times are device times: the kernels, copies "
                                         "and sets each operation launched")
                      : OverviewPage::tr("Operation times are CPU times, each call's span on its "
                                         "thread"));
        namespace key = report_format::device_work;
        if (!value(key::kKernels).isEmpty()) {
            QString line = OverviewPage::tr(
                               "Device work: kernels %1, copies %2, sets %3 on "
                               "streams %4; joined to their operation %5")
                               .arg(value(key::kKernels), value(key::kCopies), value(key::kSets),
                                    value(key::kStreams), value(key::kJoined));
            const QString without = value(key::kWithoutLaunch);
            if (!without.isEmpty() && without != QLatin1String("0"))
                line += OverviewPage::tr(", without their launch in the trace %1").arg(without);
            const QString outside = value(key::kOutsideOperations);
            if (!outside.isEmpty() && outside != QLatin1String("0"))
                line += OverviewPage::tr(", launched outside any operation %1").arg(outside);
            lines << line;
            const auto ms = [&](const char* k) {
                return formatNumber(value(k).toDouble() / 1e6, 3);
            };
            if (!value(key::kStepNs).isEmpty())
                lines << OverviewPage::tr(
                             "Device time of the listed step: %1 ms from its first "
                             "task to its last; computation %2 ms, communication "
                             "%3 ms exposed (%6 ms more hidden behind computation), "
                             "copies and sets %4 ms, idle %5 ms")
                             .arg(ms(key::kStepNs), ms(key::kComputationNs),
                                  ms(key::kCommunicationNs), ms(key::kMemoryNs), ms(key::kIdleNs),
                                  ms(key::kOverlappedNs));
        }
    }
    return lines;
}

}  // namespace

OverviewPage::OverviewPage(ReportRun& run, QWidget* parent) : QWidget(parent) {
    const RunContents& contents = run.contents();
    QStringList lines;
    auto* charts = new QGridLayout;
    // Each chart of top entries: its slot now, the chart once the entries are read.
    QVector<std::function<void(const RunCharts&)>> fills;
    auto topChart = [&](std::function<QChartView*(const RunCharts&)> chart) {
        auto* slot = new ChartSlot;
        fills << [slot, chart](const RunCharts& top) { slot->setChart(chart(top)); };
        return slot;
    };
    if (const auto& memory_summary = contents.memory_summary) {
        const MemorySummary& m = *memory_summary;
        lines << tr("Peak memory: %1").arg(formatBytes(m.peak));
        // An imported file does not say which tensors are weights or optimizer state: not
        // known rather than none.
        const auto named = [&](qint64 bytes) {
            return m.names_weights || bytes != 0 ? formatBytes(bytes)
                                                 : tr("not named in the imported file");
        };
        if (const auto& p = m.at_peak) {
            lines << tr("At the peak: weights %1   gradients %2   optimizer state %3   "
                        "activations %4   other %5")
                         .arg(named(p->weights), formatBytes(p->gradients),
                              named(p->optimizer_state), formatBytes(p->activations),
                              formatBytes(p->other));
            if (p->unsharded_parameters > 0 || p->reduce_scatter > 0)
                lines << tr("Of the weights at the peak, %1 are parameters that FSDP all-gathered "
                            "for a unit's compute; of the gradients, %2 are its reduce-scatter "
                            "buffers.")
                             .arg(formatBytes(p->unsharded_parameters),
                                  formatBytes(p->reduce_scatter));
            if (p->total() != m.peak)
                lines << tr("The parts at the peak sum to %1, not to the peak.")
                             .arg(formatBytes(p->total()));
        }
        for (const ShardedLayout& sharded : m.sharded)
            lines << tr("Sharded over the ranks: %1 of the %2 parameters (%3); this rank holds "
                        "%4 of their %5.")
                         .arg(QLocale().toString(qint64(sharded.parameters)))
                         .arg(QLocale().toString(qint64(m.parameters)))
                         .arg(QString::fromStdString(sharded.layout),
                              formatBytes(sharded.held_bytes), formatBytes(sharded.whole_bytes));
        // A snapshot has no iteration: its entries are the peak's blocks (the chart below).
        if (!m.lists_blocks_at_peak) {
            if (m.names_weights)
                lines << tr("Over the iteration: weights %1   gradients %2   activations %3")
                             .arg(formatBytes(m.weights), formatBytes(m.gradients),
                                  formatBytes(m.activations));
            else
                lines << tr("Over the iteration: activations %1; no weights listed, nor their "
                            "gradients: the imported file names no parameters")
                             .arg(formatBytes(m.activations));
        }
        // What the figures cannot say (an imported file's unnamed weights, its device), as
        // `show` prints it.
        if (!m.note.isEmpty())
            lines << tr("Memory incomplete: %1").arg(m.note);
        // Two rows of three: the pies and the modules above, the top entries below.
        // A slice leads to the table of its entries (weights and their gradients, activations).
        charts->addWidget(memoryBreakdownChart(m,
                                               [this](MemoryPart part) {
                                                   if (part == MemoryPart::Activations)
                                                       emit activationsPartClicked();
                                                   else if (part != MemoryPart::Other)
                                                       emit weightsPartClicked();
                                               }),
                          0, 0);
        const int bars = m.at_peak ? kMemoryTopCount : kTopCount;
        if (m.at_peak) {
            charts->addWidget(topChart([bars](const RunCharts& top) {
                                  return sizeChart(tr("Modules at the peak"),
                                                   top.modules.first(bars));
                              }),
                              0, 2);
        }
        const QString entries = m.lists_blocks_at_peak ? tr("Largest blocks alive at the peak")
                                                       : tr("Top operations by activation memory");
        charts->addWidget(topChart([this, bars, entries](const RunCharts& top) {
                              return sizeChart(entries, top.activations.first(bars),
                                               [this](qint64 id) { emit activationClicked(id); });
                          }),
                          1, 0);
    }
    if (const auto& time_summary = contents.time_summary) {
        const TimeSummary& t = *time_summary;
        // The measured iteration and the operations' share of it (CLI: iterationText()).
        // The parts after the backward pass are named where the step ran such operations.
        QString parts =
            tr("forward %1 ms, backward %2 ms")
                .arg(formatNumber(t.times.forward_ms, 3), formatNumber(t.times.backward_ms, 3));
        if (t.times.after_backward_operations > 0)
            parts += tr(", after backward %1 ms").arg(formatNumber(t.times.after_backward_ms, 3));
        if (t.times.optimizer_operations > 0)
            parts += tr(", optimizer %1 ms").arg(formatNumber(t.times.optimizer_ms, 3));
        // A GPU trace's operation times are its device's: no share of the CPU's wall clock.
        const auto times = t.time_metadata.find(report_format::kOperationTimesKey);
        const bool device =
            times != t.time_metadata.end() && times->second == report_format::kDeviceTimes;
        const QString sum =
            (device ? tr("Sum of operations' device time: %1 ms (%2), %3 operations")
                    : tr("Sum of operations: %1 ms (%2), %3 operations"))
                .arg(formatNumber(t.operations_ms(), 3), parts, QLocale().toString(t.operations));
        // One iteration timed (an imported trace without steps: its whole recording) is no median.
        const auto timed = t.time_metadata.find("timed_steps");
        const bool one = timed != t.time_metadata.end() && timed->second == "1";
        if (t.wall_ms && *t.wall_ms > 0 && device)
            lines << (one ? tr("Iteration (wall, one iteration timed): %1 ms")
                          : tr("Iteration (wall, median of the timed iterations): %1 ms"))
                         .arg(formatNumber(*t.wall_ms, 3))
                  << sum;
        else if (t.wall_ms && *t.wall_ms > 0)
            // Two lines: on one, German ran past the window's width.
            lines << (one ? tr("Iteration (wall, one iteration timed): %1 ms\n%2, %3% of the "
                               "iteration")
                          : tr("Iteration (wall, median of the timed iterations): %1 ms\n%2, %3% "
                               "of the iteration"))
                         .arg(formatNumber(*t.wall_ms, 3), sum,
                              formatNumber(100.0 * t.operations_ms() / *t.wall_ms, 1));
        else
            lines << sum;
        if (!t.backward_not_attributed.isEmpty())
            lines << tr("Backward not attributed: %1").arg(t.backward_not_attributed);
        lines << operationTimesLines(t.time_metadata);
        charts->addWidget(iterationSplitChart(t, [this] { emit timePartClicked(); }), 0, 1);
        // A GPU trace's step on its device: where the memory pie would be, else beside the
        // others (the top operations below then reach under it).
        const int device_column = contents.memory_summary ? 3 : 0;
        if (QChartView* device = deviceTimeChart(t))
            charts->addWidget(device, 0, device_column);
        charts->addWidget(topChart([this](const RunCharts& top) {
                              QChartView* view = operationTimeChart(
                                  tr("Top operations by time"), top.operations.first(kTimeTopCount),
                                  [this](qint64 id) { emit operationClicked(id); });
                              // Two columns wide and one row high: the legend beside the bars.
                              view->chart()->legend()->setAlignment(Qt::AlignRight);
                              return view;
                          }),
                          1, contents.memory_summary ? 1 : 0, 1,
                          contents.memory_summary ? charts->columnCount() - 1
                                                  : std::max(2, charts->columnCount()));
    }
    if (!contents.summary_error.isEmpty())
        lines << tr("Could not read the report's totals: %1").arg(contents.summary_error);
    text_ = lines.join(QLatin1Char('\n'));

    auto* label = new QLabel(text_);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A line longer than the window (German's FSDP line) wraps rather than hide behind a
    // scroll bar.
    label->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(label);
    // Rows of equal height: the pies' row took more, and five bars with their names above them
    // were 3 px thick in the other.
    charts->setRowStretch(0, 1);
    charts->setRowStretch(1, 1);
    layout->addLayout(charts, 1);
    run.whenChartsRead(this, [fills](const RunCharts& top) {
        for (const auto& fill : fills)
            fill(top);
    });
}

}  // namespace trainscope::ui
