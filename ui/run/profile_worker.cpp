// SPDX-License-Identifier: Apache-2.0
#include "run/profile_worker.h"

#include <QFile>
#include <optional>

#include "run/python_run.h"
#include "trainscope/error.h"
#include "trainscope/run.h"
#include "trainscope/sweep.h"

namespace trainscope::ui {
namespace {

// How many iterations the engine will run, for the estimate of the time left.
int plannedIterations(const RunRequest& request) {
    const RunConfig& config = request.config;
    if (request.sweep) {  // a memory and a time pass per batch size (three when not given)
        RunRequest each = request;
        each.sweep = false;
        each.measure = Measure::All;
        const int sizes = request.batch_sizes.empty() ? 3 : int(request.batch_sizes.size());
        return sizes * plannedIterations(each);
    }
    if (request.isPython())  // warm-up steps, the memory step, the timed steps
        return config.warmup + config.iterations;
    int planned = 0;
    // Each pass: its warm-up (at least one, which captures the frames), then what it measures.
    if (request.measure != Measure::Time)
        planned += std::max(config.warmup, 1) + 1;
    if (request.measure == Measure::All || request.measure == Measure::Time)
        planned += std::max(config.warmup, 1) + config.iterations;
    return planned;
}

QString firstLine(const char* text) {
    const QString message = QString::fromUtf8(text).trimmed();
    return message.section(QLatin1Char('\n'), 0, 0);
}

}  // namespace

QString RunProgress::stageText(const Progress& progress) {
    const bool memory = progress.pass == Pass::Memory;
    switch (progress.phase) {
        case Phase::LoadingModel:
            return memory ? tr("Memory: loading the model") : tr("Time: loading the model");
        case Phase::WarmUp:
            return memory ? tr("Memory: warm-up") : tr("Time: warm-up");
        case Phase::Measuring:
            break;
    }
    return memory ? tr("Memory: measuring") : tr("Time: measuring");
}

QString RunProgress::text() const {
    QString text = stage;
    if (total > 0)
        text += tr(", iteration %1 of %2").arg(iteration).arg(total);
    if (seconds_left >= 0)
        text += tr(" — about %1 s left").arg(qMax(1.0, seconds_left), 0, 'f', 0);
    return text;
}

void ProfileWorker::run(int run, const RunRequest& request,
                        std::shared_ptr<std::atomic<bool>> cancel) {
    const int planned = plannedIterations(request);
    int done = 0;
    QString context;  // a sweep's batch size
    auto report_progress = [&](const Progress& progress) {
        RunProgress out{context + RunProgress::stageText(progress), progress.iteration,
                        progress.total, -1};
        if (progress.iteration > 0 && progress.last_iteration_ms > 0) {
            ++done;
            out.seconds_left = qMax(0, planned - done) * progress.last_iteration_ms / 1000.0;
        }
        out.run_done = qMin(done, planned);
        out.run_planned = planned;
        emit progressed(run, out);
    };
    try {
        // Never over a user's file: the plan refuses existing paths, and writes all the reports
        // of a run or none.
        if (request.sweep) {
            const auto sweep_progress = [&](const SweepProgress& progress) {
                context = tr("Batch %1 (%2 of %3): ")
                              .arg(progress.batch_size)
                              .arg(progress.index)
                              .arg(progress.of);
                report_progress(progress.run);
            };
            runSweep(request.sweepPlan(), sweep_progress, cancel.get());
            emit finished(run, request.outputPaths());
            return;
        }
        if (request.isPython()) {
            const auto python_progress = [&](const RunProgress& progress) {
                emit progressed(run, progress);
            };
            emit finished(run, runPythonEntryPoint(request, python_progress, cancel.get()));
            return;
        }
        const RunResult result = runAndWrite(request.plan(), report_progress, cancel.get());
        QStringList paths;
        for (const std::string& path : result.paths)
            paths << QString::fromStdString(path);
        emit finished(run, paths);
    } catch (const std::bad_alloc&) {
        emit failed(run, tr("The run ran out of memory."));
    } catch (const std::exception& error) {
        // A cancelled run ends here too (trainscope::Cancelled); the runner drops its answer.
        emit failed(run, firstLine(error.what()));
    }
}

ProfileRunner::ProfileRunner(QObject* parent) : QObject(parent), worker_(new ProfileWorker) {
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &ProfileWorker::progressed, this, &ProfileRunner::onWorkerProgress);
    connect(worker_, &ProfileWorker::finished, this, &ProfileRunner::onWorkerFinished);
    connect(worker_, &ProfileWorker::failed, this, &ProfileRunner::onWorkerFailed);
    thread_.setObjectName(QStringLiteral("trainscope-engine"));
    thread_.start();
}

ProfileRunner::~ProfileRunner() {
    cancel();
    thread_.quit();
    thread_.wait();
}

bool ProfileRunner::start(const RunRequest& request) {
    if (busy())
        return false;
    current_ = next_run_++;
    ++in_flight_;
    cancel_flag_ = std::make_shared<std::atomic<bool>>(false);
    QMetaObject::invokeMethod(
        worker_,
        [worker = worker_, run = current_, request, flag = cancel_flag_] {
            worker->run(run, request, flag);
        },
        Qt::QueuedConnection);
    return true;
}

void ProfileRunner::cancel() {
    if (!busy())
        return;
    cancel_flag_->store(true);
    current_ = 0;  // whatever this run sends from now on is dropped
    emit cancelled();
}

void ProfileRunner::onWorkerProgress(int run, const RunProgress& progress) {
    if (run == current_)
        emit progressed(progress);
}

void ProfileRunner::onWorkerFinished(int run, const QStringList& report_paths) {
    --in_flight_;
    if (run != current_) {
        // Finished after a cancel: the files are new (the writer never overwrites), and the
        // user asked for nothing, so they go.
        for (const QString& path : report_paths)
            QFile::remove(path);
        return;
    }
    current_ = 0;
    emit finished(report_paths);
}

void ProfileRunner::onWorkerFailed(int run, const QString& message) {
    --in_flight_;
    if (run != current_)
        return;  // cancelled: cancel() already said so
    current_ = 0;
    emit failed(message);
}

}  // namespace trainscope::ui
