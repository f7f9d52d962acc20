// SPDX-License-Identifier: Apache-2.0
// The Qt Charts the report browser shows. Values are drawn in human units; hovering shows
// the exact figure.
#pragma once

#include <QVector>
#include <QWidget>
#include <functional>
#include <optional>

#include "reading/report_queries.h"

class QChart;
class QChartView;
class QLabel;

namespace trainscope::ui {

// The parts of the memory pie, for what a click on a slice does.
enum class MemoryPart { Weights, Gradients, OptimizerState, Activations, Other };
using MemoryPartClicked = std::function<void(MemoryPart)>;
// Peak memory: weights, gradients, activations and the rest of the peak.
QChartView* memoryBreakdownChart(const MemorySummary& summary, MemoryPartClicked clicked = {});
// The iteration split into forward and backward time (`clicked`: either slice's click).
QChartView* iterationSplitChart(const TimeSummary& summary, std::function<void()> clicked = {});
// A GPU trace's listed step as its device spent it (the run time report's device_* metadata,
// each instant once): computation, exposed communication, copies and sets, idle. Null where the
// report has no such figures.
QChartView* deviceTimeChart(const TimeSummary& summary);
// The data key of a bar's name (a QGraphicsSimpleTextItem above the bar, in the chart) that
// holds the name in full; the item's text is the name as shown, elided when the plot is narrow.
constexpr int kBarLabelFullText = 0;
// What a click on an entry's bar does, given its TopEntry id (none: bars are not clickable).
using BarClicked = std::function<void(qint64 entry_id)>;
// Operations by time, forward and backward stacked (TopEntry first/second).
QChartView* operationTimeChart(const QString& title, const TopEntries& entries,
                               BarClicked clicked = {});
// A view of `chart` that follows the palette's light or dark theme and offers to save the chart
// as an image (the other charts' views are made here).
QChartView* chartView(QChart* chart);

// What-ifs by peak: each one's predicted and measured peak in bytes (measured none: not run),
// top to bottom in the order given; `clicked` gets the what-if's index.
QChartView* whatIfPeakChart(const QStringList& names, const QVector<double>& predicted,
                            const QVector<std::optional<double>>& measured,
                            std::function<void(int)> clicked = {});

// Entries by size in bytes (TopEntry first).
QChartView* sizeChart(const QString& title, const TopEntries& entries, BarClicked clicked = {});

// Where a chart goes once the entries it shows are read (the run reads them after the totals):
// it says so until then.
class ChartSlot : public QWidget {
    Q_OBJECT
  public:
    explicit ChartSlot(QWidget* parent = nullptr);
    void setChart(QChartView* chart);
    QChartView* chart() const { return chart_; }

  private:
    QLabel* waiting_;
    QChartView* chart_ = nullptr;
};

}  // namespace trainscope::ui
