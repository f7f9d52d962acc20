// The first tab: the run's totals in words and charts (peak memory breakdown, forward and
// backward split, the top operations by time and by activation memory).
#pragma once

#include <QSqlDatabase>
#include <QWidget>
#include <optional>

#include "report/report_queries.h"

namespace trainscope::ui {

class OverviewPage : public QWidget {
    Q_OBJECT
  public:
    // A database is invalid when the run has no report of that kind; `error` says why the
    // totals could not be read, if they could not.
    OverviewPage(QSqlDatabase memory, const std::optional<MemorySummary>& memory_summary,
                 QSqlDatabase time, const std::optional<TimeSummary>& time_summary,
                 const QString& error, QWidget* parent = nullptr);
    const QString& text() const { return text_; }

  private:
    QString text_;
};

}  // namespace trainscope::ui
