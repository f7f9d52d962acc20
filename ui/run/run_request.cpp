// SPDX-License-Identifier: Apache-2.0
#include "run_request.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

#include "trainscope/report_format.h"
#include "trainscope/run_files.h"

namespace trainscope::ui {

RunPlan RunRequest::plan() const {
    RunPlan plan;
    plan.config = config;
    plan.measure = measure;
    plan.output = outputFor(output_prefix.toStdString(), measure);
    return plan;
}

SweepPlan RunRequest::sweepPlan() const {
    SweepPlan plan;
    plan.config = config;
    plan.batch_sizes = batch_sizes;
    plan.memory_budget = memory_budget;
    plan.output = output_prefix.toStdString();
    return plan;
}

QStringList RunRequest::outputPaths() const {
    if (sweep)
        return {output_prefix + report_format::kSweepSuffix};
    QStringList paths;
    for (const std::string& path : reportPaths(plan()))
        paths << QString::fromStdString(path);
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
        if (existingRunReports(prefix.toStdString()).empty())
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
