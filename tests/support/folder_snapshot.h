// SPDX-License-Identifier: Apache-2.0
// Test helper: what a folder holds, to check that viewing a report created or changed nothing.
#pragma once

#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace trainscope::test {

// Every entry of the folder (hidden ones too) with its size and modification time.
inline QStringList folderSnapshot(const QString& dir) {
    QStringList entries;
    for (const QFileInfo& info :
         QDir(dir).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot))
        entries << QStringLiteral("%1 %2 %3")
                       .arg(info.fileName())
                       .arg(info.size())
                       .arg(info.lastModified().toMSecsSinceEpoch());
    return entries;
}

}  // namespace trainscope::test
