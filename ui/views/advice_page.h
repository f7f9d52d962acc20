// SPDX-License-Identifier: Apache-2.0
// The what-ifs of an advice report (PREFIX.advice.sqlite, written by `python3 -m trainscope
// advise`): the step as it is, then each what-if's predicted and measured peak as bars, and a
// table of every figure, one unit per column. A click on a what-if (its row or its bars) asks
// for the module it changes (moduleChosen), which the report browser shows with its source
// line, or for the line it changes (lineChosen). The file is read on a worker; the window stays
// responsive.
#pragma once

#include <QFutureWatcher>
#include <QLabel>
#include <QTableWidget>
#include <QWidget>
#include <memory>

#include "trainscope/advice_report.h"
#include "views/settling_page.h"

class QChartView;
class QVBoxLayout;

namespace trainscope::ui {

struct AdviceRead {
    std::shared_ptr<const AdviceReport> report;
    QString error;
};

class AdvicePage : public QWidget, public SettlingPage {
    Q_OBJECT
  public:
    explicit AdvicePage(const QString& path, QWidget* parent = nullptr);
    ~AdvicePage() override;

    bool isRead() const { return read_; }
    bool isSettled() const override { return read_; }
    QString errorText() const { return error_; }
    QLabel* heading() const { return heading_; }
    QTableWidget* table() const { return table_; }
    QChartView* chart() const { return chart_; }
    // The module path a what-if changes ("" where it changes several: "every such module", or
    // a line of the user's code).
    QString moduleOf(int row) const;

  signals:
    void read(bool ok);
    void moduleChosen(const QString& module_path);
    // A what-if that changes a line of the user's code (a function call): its file, relative
    // to the project, and line.
    void lineChosen(const QString& file_path, int line);

  private:
    void show(const AdviceRead& result);
    void choose(int row);

    QString path_;
    bool read_ = false;
    QString error_;
    std::shared_ptr<const AdviceReport> report_;
    QVBoxLayout* layout_;
    QLabel* heading_;
    QTableWidget* table_;
    QChartView* chart_ = nullptr;
    QFutureWatcher<AdviceRead> watcher_;
};

}  // namespace trainscope::ui
