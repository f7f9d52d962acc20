// SPDX-License-Identifier: Apache-2.0
#include "run/python_package.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>

#include "trainscope/error.h"

namespace trainscope::ui {
namespace {

constexpr int kProbeLimitMs = 120000;  // torch's first import from a cold disk takes seconds

// What importing trainscope says in `interpreter`, with `folder` first on PYTHONPATH: an empty
// string where it imports, else the one line that refused it.
QString importRefusal(const QString& interpreter, const QString& folder,
                      const std::atomic<bool>* cancel) {
    QProcess probe;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    if (!folder.isEmpty()) {
        const QString path = environment.value(QStringLiteral("PYTHONPATH"));
        environment.insert(QStringLiteral("PYTHONPATH"),
                           path.isEmpty() ? folder : folder + QLatin1Char(':') + path);
    }
    probe.setProcessEnvironment(environment);
    probe.setProgram(interpreter);
    probe.setArguments({QStringLiteral("-c"),
                        QStringLiteral("import sys\n"
                                       "try:\n"
                                       "    import trainscope\n"
                                       "except BaseException as e:\n"
                                       "    print((str(e).splitlines() or [type(e).__name__])[0])\n"
                                       "    sys.exit(3)\n")});
    probe.start();
    if (!probe.waitForStarted(30000)) {
        throw Error(
            QCoreApplication::translate("trainscope::ui::PythonRun", "Could not start %1: %2")
                .arg(interpreter, probe.errorString())
                .toStdString());
    }
    for (int waited = 0; !probe.waitForFinished(100); waited += 100) {
        if ((cancel && cancel->load()) || waited > kProbeLimitMs) {
            probe.kill();
            probe.waitForFinished();
            if (cancel && cancel->load())
                throw Cancelled();
            return QCoreApplication::translate("trainscope::ui::PythonRun",
                                               "%1 did not import trainscope within %2 s")
                .arg(interpreter)
                .arg(kProbeLimitMs / 1000);
        }
    }
    if (probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0)
        return {};
    const QString said = QString::fromUtf8(probe.readAllStandardOutput()).trimmed();
    if (probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 3 && !said.isEmpty())
        return said;
    // A package of an earlier TrainScope, without the record of its torch, aborts the process.
    return QCoreApplication::translate("trainscope::ui::PythonRun",
                                       "%1 ended while importing trainscope, which is likely "
                                       "built for another torch")
        .arg(interpreter);
}

}  // namespace

QString buildTreePackageFolder() {
    const QString folder = QCoreApplication::applicationDirPath() + QStringLiteral("/../python");
    return QFile::exists(folder + QStringLiteral("/trainscope/__init__.py"))
               ? QDir(folder).absolutePath()
               : QString();
}

PythonPackage choosePythonPackage(const QString& interpreter, const QString& build_tree_package,
                                  const std::atomic<bool>* cancel) {
    const QString own = importRefusal(interpreter, {}, cancel);
    if (own.isEmpty())
        return {};
    const bool has_none = own.startsWith(QLatin1String("No module named 'trainscope'"));
    if (!build_tree_package.isEmpty()) {
        const QString built = importRefusal(interpreter, build_tree_package, cancel);
        if (built.isEmpty())
            return {build_tree_package, {}};
        if (has_none)  // the build's package names its torch and the one to build for
            return {{}, built};
    }
    if (has_none) {
        return {{},
                QCoreApplication::translate(
                    "trainscope::ui::PythonRun",
                    "%1 has no trainscope: install it into that environment with `%1 -m pip "
                    "install --no-build-isolation` and TrainScope's source folder")
                    .arg(interpreter)};
    }
    return {{}, own};
}

}  // namespace trainscope::ui
