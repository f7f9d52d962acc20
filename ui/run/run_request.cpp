#include "run_request.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace trainscope::ui {

QStringList RunRequest::outputPaths() const {
    QStringList paths;
    if (measure != Measure::Time)
        paths << output_prefix + QStringLiteral(".memory.sqlite");
    if (measure != Measure::Memory)
        paths << output_prefix + QStringLiteral(".time.sqlite");
    return paths;
}

QString defaultRunsFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
           QStringLiteral("/runs");
}

QString newRunPrefix(const QString& folder, const QString& model) {
    // "builtin:mlp" -> "mlp", "/p/model.pt" -> "model"
    QString stem = model.startsWith(QStringLiteral("builtin:"))
                       ? model.mid(8)
                       : QFileInfo(model).completeBaseName();
    stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("_"));
    if (stem.isEmpty())
        stem = QStringLiteral("run");
    const QString base = QDir(folder).filePath(
        stem + QLatin1Char('-') +
        QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    for (int n = 1;; ++n) {
        const QString prefix = n == 1 ? base : QStringLiteral("%1-%2").arg(base).arg(n);
        if (!QFileInfo::exists(prefix + QStringLiteral(".memory.sqlite")) &&
            !QFileInfo::exists(prefix + QStringLiteral(".time.sqlite")))
            return prefix;
    }
}

RunRequest exampleRunRequest(const QString& folder) {
    RunRequest request;
    request.config.model = "builtin:mlp";
    request.config.params = {{"d_model", "256"}, {"act", "gelu"}};
    request.config.inputs = {parseInputSpec("4x256x256")};
    request.output_prefix = newRunPrefix(folder, QStringLiteral("builtin:mlp"));
    return request;
}

}  // namespace trainscope::ui
