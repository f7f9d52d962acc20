// The first tab: the run's totals in words and charts (peak memory breakdown, forward and
// backward split, the top operations by time and by activation memory).
#pragma once

#include <QWidget>
#include <optional>

#include "report/report_queries.h"

namespace trainscope::ui {

class OverviewPage : public QWidget {
    Q_OBJECT
  public:
    // A summary is empty when the run has no report of that kind; `error` says why the totals
    // could not be read, if they could not. The top entries come largest first; the overview
    // shows the first few.
    OverviewPage(const std::optional<MemorySummary>& memory_summary,
                 const TopEntries& top_activations, const TopEntries& top_modules,
                 const std::optional<TimeSummary>& time_summary, const TopEntries& top_operations,
                 const QString& error, QWidget* parent = nullptr);
    const QString& text() const { return text_; }

  private:
    QString text_;
};

}  // namespace trainscope::ui
