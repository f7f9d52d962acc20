// SPDX-License-Identifier: Apache-2.0
#include "run/python_run.h"

#include <QCoreApplication>
#include <QProcess>
#include <QProcessEnvironment>

#include "run/profile_worker.h"
#include "run/python_package.h"
#include "trainscope/error.h"

namespace trainscope::ui {
namespace {

QStringList arguments(const RunRequest& request) {
    const RunConfig& config = request.config;
    QStringList args{QStringLiteral("-m"),
                     QStringLiteral("trainscope"),
                     QStringLiteral("profile"),
                     request.python_entry,
                     QStringLiteral("-o"),
                     request.output_prefix,
                     QStringLiteral("--warmup"),
                     QString::number(config.warmup),
                     QStringLiteral("--iterations"),
                     QString::number(config.iterations),
                     QStringLiteral("--device"),
                     QString::fromStdString(toString(config.device)),
                     QStringLiteral("--progress-lines")};
    if (config.batch_size)
        args << QStringLiteral("--batch-size") << QString::number(*config.batch_size);
    if (!config.project_root.empty())
        args << QStringLiteral("--project-root") << QString::fromStdString(config.project_root);
    return args;
}

}  // namespace

bool parsePythonProgress(const QString& line, int warmup, int iterations, RunProgress* progress) {
    static const QString kPrefix = QStringLiteral("trainscope-progress: ");
    if (!line.startsWith(kPrefix))
        return false;
    const QStringList parts = line.mid(kPrefix.size()).split(QLatin1Char(' '));
    if (parts.size() != 3)
        return false;
    const int step = parts[1].toInt(), of = parts[2].toInt();
    Progress engine;
    if (parts[0] == QLatin1String("warmup")) {
        engine = {Pass::Memory, Phase::WarmUp, step, of};
    } else if (parts[0] == QLatin1String("memory")) {
        engine = {Pass::Memory, Phase::Measuring, step, of};
    } else if (parts[0] == QLatin1String("time")) {
        engine = {Pass::Time, Phase::Measuring, step, of};
    } else {
        return false;
    }
    progress->stage = RunProgress::stageText(engine);
    progress->iteration = step;
    progress->total = of;
    progress->run_planned = warmup + iterations;
    progress->run_done = (engine.phase == Phase::WarmUp ? 0 : warmup) + step;
    return true;
}

QStringList runPythonEntryPoint(const RunRequest& request,
                                const std::function<void(const RunProgress&)>& progress,
                                const std::atomic<bool>* cancel) {
    const PythonPackage package =
        choosePythonPackage(request.python_interpreter, buildTreePackageFolder(), cancel);
    if (!package.refusal.isEmpty())
        throw Error(package.refusal.toStdString());
    QProcess child;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    if (!package.folder.isEmpty()) {
        const QString path = environment.value(QStringLiteral("PYTHONPATH"));
        environment.insert(
            QStringLiteral("PYTHONPATH"),
            path.isEmpty() ? package.folder : package.folder + QLatin1Char(':') + path);
    }
    child.setProcessEnvironment(environment);
    child.setProgram(request.python_interpreter);
    child.setArguments(arguments(request));
    child.setProcessChannelMode(QProcess::SeparateChannels);
    child.start();
    if (!child.waitForStarted(30000)) {
        throw Error(
            QCoreApplication::translate("trainscope::ui::PythonRun", "Could not start %1: %2")
                .arg(request.python_interpreter, child.errorString())
                .toStdString());
    }
    QString error_line, last_line, pending;
    const auto readLines = [&] {
        child.readAllStandardOutput();  // the summary: the app shows the reports instead
        pending += QString::fromUtf8(child.readAllStandardError());
        int end;
        while ((end = pending.indexOf(QLatin1Char('\n'))) >= 0) {
            const QString line = pending.left(end).trimmed();
            pending.remove(0, end + 1);
            RunProgress step;
            if (parsePythonProgress(line, request.config.warmup, request.config.iterations,
                                    &step)) {
                progress(step);
            } else if (!line.isEmpty()) {
                last_line = line;
                if (line.startsWith(QLatin1String("trainscope: error: ")))
                    error_line = line.mid(int(qstrlen("trainscope: error: ")));
            }
        }
    };
    while (!child.waitForFinished(100)) {
        readLines();
        if (cancel && cancel->load()) {
            // SIGTERM: the child ends its step and writes nothing (python -m trainscope).
            child.terminate();
            if (!child.waitForFinished(10000)) {
                child.kill();
                child.waitForFinished();
            }
            throw Cancelled();
        }
    }
    readLines();
    if (child.exitStatus() != QProcess::NormalExit || child.exitCode() != 0) {
        const QString message = !error_line.isEmpty() ? error_line
                                : !last_line.isEmpty()
                                    ? last_line
                                    : QCoreApplication::translate("trainscope::ui::PythonRun",
                                                                  "%1 ended with exit code %2")
                                          .arg(request.python_interpreter)
                                          .arg(child.exitCode());
        throw Error(message.toStdString());
    }
    return request.outputPaths();
}

}  // namespace trainscope::ui
