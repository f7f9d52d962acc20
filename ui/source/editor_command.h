// SPDX-License-Identifier: Apache-2.0
// The user's editor, as a command line with placeholders: %f the file, %l the line, %c the
// column. Presets cover the common editors; Settings lets the user write any command.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace trainscope::ui {

struct EditorPreset {
    QString name;
    QString command;
};

const QVector<EditorPreset>& editorPresets();
QString defaultEditorCommand();

// The program and its arguments, placeholders filled in. The command is split like a shell
// would (quotes group words) before substitution, so a file name with spaces stays one
// argument. Empty when the command is empty.
QStringList editorArguments(const QString& command, const QString& file, int line, int column);

// Starts the editor detached. Returns false and sets `error` when it cannot be started.
bool launchEditor(const QString& command, const QString& file, int line, QString* error);

}  // namespace trainscope::ui
