// SPDX-License-Identifier: Apache-2.0
// The Batch Size view of a sweep report (PREFIX.sweep.sqlite): the measured batch sizes and the
// lines fitted to them, for peak memory and for throughput, with the memory budget and the
// largest batch within it; a slider and a spin box choose any batch size, and the predicted
// peak and throughput are read out as they move (Skyline's interaction), saying when the
// prediction extrapolates beyond what was measured. The report is read off the GUI thread.
#pragma once

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QWidget>
#include <atomic>
#include <memory>

#include "trainscope/sweep.h"
#include "views/settling_page.h"

class QChartView;
class QLabel;
class QSlider;
class QSplitter;
class QSpinBox;
class QTableWidget;
class QTimer;
class QValueAxis;
class QLineSeries;
class QPushButton;

namespace trainscope::ui {

class BatchSizePage : public QWidget, public SettlingPage {
    Q_OBJECT
  public:
    explicit BatchSizePage(const QString& path, QWidget* parent = nullptr);
    ~BatchSizePage() override;

    bool isRead() const { return report_ != nullptr; }
    bool isSettled() const override { return isRead() || !error_.isEmpty(); }
    const QString& errorText() const { return error_; }
    const SweepReport* report() const { return report_.get(); }
    QSlider* slider() const { return slider_; }
    QSpinBox* batchSize() const { return spin_; }
    QLabel* prediction() const { return prediction_; }
    QLabel* summary() const { return summary_; }
    QChartView* memoryChart() const { return memory_chart_; }
    QChartView* throughputChart() const { return throughput_chart_; }
    QTableWidget* pointsTable() const { return points_; }
    // Runs the chosen batch size as the sweep ran its own, when the prediction says it fits
    // and the report says how its model was run; the result joins the report (and its file).
    QPushButton* verifyButton() const { return verify_; }
    bool verifying() const { return verifying_.isRunning(); }

    // The read-out for batch size `batch`: predicted peak against the budget, throughput, and
    // whether it extrapolates.
    QString predictionText(int64_t batch) const;

  signals:
    void read(bool ok);
    void verified(bool ok);  // a verification ended: measured (or out of memory), or failed
    // What a running verification is doing, as the read-out says it (on the GUI thread).
    void verifyingSaid(const QString& text);
    void verifyProgressed();  // from the verification's thread: its progress changed

  private:
    struct Result;
    struct Verification;
    void show(const SweepReport& report);
    // The charts and the table of the report's points (its verified batch among them), made
    // again when a verification joins the report.
    void showPoints(const SweepReport& report);
    QString summaryText(const SweepReport& report) const;
    void verifyChosen();
    void updateVerifyButton();
    void choose(int64_t batch);
    QChartView* chartOf(bool memory);

    QString path_;
    QFutureWatcher<std::shared_ptr<Result>> reading_;
    std::unique_ptr<SweepReport> report_;
    QString error_;
    QLabel* summary_;
    QLabel* prediction_;
    QSlider* slider_;
    QSpinBox* spin_;
    QTableWidget* points_;
    QPushButton* verify_;
    QString cannot_verify_;  // why the report's batch sizes cannot be run again, or empty
    QFutureWatcher<std::shared_ptr<Verification>> verifying_;
    // The running verification's: set by its Cancel, or when the page closes.
    std::shared_ptr<std::atomic<bool>> cancel_ = std::make_shared<std::atomic<bool>>(false);
    int64_t verifying_batch_ = 0;
    QElapsedTimer verify_started_;
    QTimer* verify_clock_;  // what it is doing and the seconds it has run, each second
    // The running verification's latest progress, set on its thread, read by the clock.
    struct LatestProgress;
    std::shared_ptr<LatestProgress> verify_progress_;
    QString verifyingText() const;
    void sayVerifying();
    QSplitter* charts_ = nullptr;
    QChartView* memory_chart_ = nullptr;
    QChartView* throughput_chart_ = nullptr;
    QLineSeries* markers_[2] = {nullptr, nullptr};  // the chosen batch, on each chart
    int64_t largest_shown_ = 1;                     // the x axes' end
};

}  // namespace trainscope::ui
