// SPDX-License-Identifier: Apache-2.0
// Runs the engine for the app, off the GUI thread. ProfileRunner lives on the GUI thread and
// owns a worker thread; each run carries its own cancellation flag, which the engine checks
// between iterations and their phases. Signals are typed; a result that arrives after a
// cancel is dropped (and its files removed), so a cancelled run leaves nothing behind.
#pragma once

#include <QCoreApplication>
#include <QObject>
#include <QStringList>
#include <QThread>
#include <atomic>
#include <memory>

#include "run/run_request.h"
#include "trainscope/profiler.h"

namespace trainscope::ui {

struct RunProgress {
    Q_DECLARE_TR_FUNCTIONS(RunProgress)

  public:
    static QString stageText(const Progress& progress);  // translated, e.g. "Time: measuring"

    QString stage;      // stageText() of the engine's progress
    int iteration = 0;  // 1-based within the stage; 0 when it has none
    int total = 0;
    double seconds_left = -1;  // estimate once an iteration has been measured; -1 unknown
    // Iterations of the whole run (every pass) ended so far, and planned: the progress bar
    // moves forward across the run, never back at a new pass.
    int run_done = 0;
    int run_planned = 0;
    QString text() const;  // for the status bar
};

class ProfileWorker;

class ProfileRunner : public QObject {
    Q_OBJECT
  public:
    explicit ProfileRunner(QObject* parent = nullptr);
    ~ProfileRunner() override;  // cancels a run in flight and waits for the thread

    // Starts a run; returns false (and does nothing) while another run is in flight.
    bool start(const RunRequest& request);
    // Stops the current run: the app is free at once, the engine stops at its next check.
    void cancel();
    bool busy() const { return current_ != 0; }
    // True while the engine still works on a run, a cancelled one included.
    bool engineRunning() const { return in_flight_ > 0; }

  signals:
    void progressed(const trainscope::ui::RunProgress& progress);
    void finished(const QStringList& report_paths);
    void failed(const QString& message);
    void cancelled();

  private:
    void onWorkerProgress(int run, const trainscope::ui::RunProgress& progress);
    void onWorkerFinished(int run, const QStringList& report_paths);
    void onWorkerFailed(int run, const QString& message);

    QThread thread_;
    ProfileWorker* worker_;
    int next_run_ = 1;
    int current_ = 0;    // the run the app waits for; 0: none
    int in_flight_ = 0;  // runs the worker has not answered yet
    std::shared_ptr<std::atomic<bool>> cancel_flag_;
};

// The part that runs on the worker thread.
class ProfileWorker : public QObject {
    Q_OBJECT
  public:
    void run(int run, const RunRequest& request, std::shared_ptr<std::atomic<bool>> cancel);

  signals:
    void progressed(int run, const trainscope::ui::RunProgress& progress);
    void finished(int run, const QStringList& report_paths);
    void failed(int run, const QString& message);
};

}  // namespace trainscope::ui

Q_DECLARE_METATYPE(trainscope::ui::RunProgress)
