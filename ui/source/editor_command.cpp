// SPDX-License-Identifier: Apache-2.0
#include "source/editor_command.h"

#include <QObject>
#include <QProcess>

namespace trainscope::ui {

const QVector<EditorPreset>& editorPresets() {
    static const QVector<EditorPreset> presets = {
        {QStringLiteral("VS Code"), QStringLiteral("code --goto %f:%l:%c")},
        {QStringLiteral("Kate"), QStringLiteral("kate --line %l --column %c %f")},
        {QStringLiteral("Qt Creator"), QStringLiteral("qtcreator -client %f:%l:%c")},
        {QStringLiteral("gvim"), QStringLiteral("gvim +%l %f")},
        {QStringLiteral("Emacs"), QStringLiteral("emacs +%l:%c %f")},
    };
    return presets;
}

QString defaultEditorCommand() {
    return editorPresets().front().command;
}

QStringList editorArguments(const QString& command, const QString& file, int line, int column) {
    QStringList words = QProcess::splitCommand(command);
    for (QString& word : words) {
        // One pass over the word, so that a file name containing "%l" is left alone.
        QString out;
        for (int i = 0; i < word.size(); ++i) {
            if (word[i] == QLatin1Char('%') && i + 1 < word.size()) {
                const QChar key = word[i + 1];
                if (key == QLatin1Char('f')) {
                    out += file;
                } else if (key == QLatin1Char('l')) {
                    out += QString::number(line);
                } else if (key == QLatin1Char('c')) {
                    out += QString::number(column);
                } else if (key == QLatin1Char('%')) {
                    out += QLatin1Char('%');
                } else {
                    out += word[i];
                    continue;
                }
                ++i;
            } else {
                out += word[i];
            }
        }
        word = out;
    }
    return words;
}

bool launchEditor(const QString& command, const QString& file, int line, QString* error) {
    QStringList words = editorArguments(command, file, line, 1);
    if (words.isEmpty()) {
        *error = QObject::tr("No editor command is set (Settings › Editor).");
        return false;
    }
    const QString program = words.takeFirst();
    if (!QProcess::startDetached(program, words)) {
        *error = QObject::tr(
                     "Could not start the editor \"%1\". Check the editor command in "
                     "Settings.")
                     .arg(program);
        return false;
    }
    return true;
}

}  // namespace trainscope::ui
