// SPDX-License-Identifier: Apache-2.0
#include "source/project_root.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>

#include "trainscope/builtin_models.h"

namespace trainscope::ui {
namespace {

bool isInside(const QString& root, const QString& path) {
    return path.startsWith(root.endsWith(QLatin1Char('/')) ? root : root + QLatin1Char('/'));
}

}  // namespace

QString realPath(const QString& path) {
    return path.isEmpty() ? QString() : QFileInfo(path).canonicalFilePath();
}

QString trustedProjectRoot(const QString& recorded, const QString& report) {
    const QString real_recorded = realPath(recorded);
    if (real_recorded.isEmpty())
        return {};
    if (real_recorded == realPath(QString::fromStdString(builtinModelsDir())))
        return real_recorded;
    const QString home = realPath(QDir::homePath());
    const auto holds = [](const QString& folder, const QString& path) {
        return !folder.isEmpty() && !path.isEmpty() && isInside(folder, path);
    };
    const bool too_wide =
        real_recorded == QStringLiteral("/") || real_recorded == home || holds(real_recorded, home);
    return !too_wide && holds(real_recorded, realPath(report)) ? real_recorded : QString();
}

ResolvedSource resolveSource(const QString& project_root, const QString& frame_path) {
    if (project_root.isEmpty())
        return {{}, QObject::tr("No project root is set (File › Set Project Root…).")};
    if (frame_path.isEmpty() || QDir::isAbsolutePath(frame_path))
        return {{},
                QObject::tr("Refused to open %1: stack frames must be relative to the "
                            "project root.")
                    .arg(frame_path)};
    const QString root = QDir::cleanPath(QDir(project_root).absolutePath());
    const QString joined = QDir::cleanPath(root + QLatin1Char('/') + frame_path);
    if (!isInside(root, joined))
        return {{},
                QObject::tr("Refused to open %1: the path leaves the project root %2.")
                    .arg(frame_path, root)};
    const QFileInfo info(joined);
    if (!info.exists() || !info.isFile())
        return {{},
                QObject::tr("%1 is not in the project root %2. Set the project root to the "
                            "folder the model was profiled from (File › Set Project Root…).")
                    .arg(frame_path, root),
                true};
    // A link inside the root may point out of it: compare the real locations too.
    const QString real_root = QFileInfo(root).canonicalFilePath();
    if (!isInside(real_root, info.canonicalFilePath()))
        return {{},
                QObject::tr("Refused to open %1: it links to a file outside the project root.")
                    .arg(frame_path)};
    return {joined, {}};
}

}  // namespace trainscope::ui
