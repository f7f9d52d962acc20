// SPDX-License-Identifier: Apache-2.0
#include "run/python_environment.h"

#include <QDir>
#include <QFileInfo>

namespace trainscope::ui {

QString projectEnvironmentPython(const QString& entry_point) {
    if (entry_point.trimmed().isEmpty()) {
        return {};
    }
    QDir folder = QFileInfo(entry_point.trimmed()).absoluteDir();
    for (int level = 0; level < 4; ++level) {
        for (const char* environment : {".venv", "venv", "env", ".venv-torch2"}) {
            const QFileInfo python(
                folder.filePath(QLatin1String(environment) + QStringLiteral("/bin/python")));
            if (python.isFile() && python.isExecutable()) {
                return python.filePath();
            }
        }
        if (!folder.cdUp()) {
            break;
        }
    }
    return {};
}

}  // namespace trainscope::ui
