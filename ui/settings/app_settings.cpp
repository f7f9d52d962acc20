// SPDX-License-Identifier: Apache-2.0
#include "settings/app_settings.h"

#include <QFileInfo>
#include <QSettings>
#include <QUrl>

#include "source/editor_command.h"

namespace trainscope::ui {
namespace {

const QString kEditorKey = QStringLiteral("editor/command");
const QString kLanguageKey = QStringLiteral("interface/language");
const QString kThemeKey = QStringLiteral("interface/theme");
const QString kRecentKey = QStringLiteral("recentFiles");

// QSettings treats '/' as a group separator: a report's path is stored percent-encoded.
QString projectRootKey(const QString& report_path) {
    const QString absolute = QFileInfo(report_path).absoluteFilePath();
    return QStringLiteral("projectRoots/") + QString::fromLatin1(QUrl::toPercentEncoding(absolute));
}

}  // namespace

QString AppSettings::editorCommand() {
    return QSettings().value(kEditorKey, defaultEditorCommand()).toString();
}

void AppSettings::setEditorCommand(const QString& command) {
    QSettings().setValue(kEditorKey, command);
}

QString AppSettings::theme() {
    return QSettings().value(kThemeKey, QStringLiteral("system")).toString();
}

void AppSettings::setTheme(const QString& code) {
    QSettings().setValue(kThemeKey, code);
}

QString AppSettings::language() {
    return QSettings().value(kLanguageKey).toString();
}

void AppSettings::setLanguage(const QString& code) {
    QSettings().setValue(kLanguageKey, code);
}

QStringList AppSettings::recentFiles() {
    return QSettings().value(kRecentKey).toStringList();
}

void AppSettings::addRecentFile(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(kRecentKey, files);
}

void AppSettings::clearRecentFiles() {
    QSettings().remove(kRecentKey);
}

int AppSettings::sourceFoldersAnswer(const QString& report_path) {
    const QVariant answer =
        QSettings().value(QStringLiteral("sourceFolders/") + projectRootKey(report_path));
    return answer.isValid() ? (answer.toBool() ? 1 : 0) : -1;
}

void AppSettings::setSourceFoldersAnswer(const QString& report_path, bool allowed) {
    QSettings().setValue(QStringLiteral("sourceFolders/") + projectRootKey(report_path), allowed);
}

QString AppSettings::projectRootFor(const QString& report_path) {
    return QSettings().value(projectRootKey(report_path)).toString();
}

void AppSettings::setProjectRootFor(const QString& report_path, const QString& root) {
    QSettings().setValue(projectRootKey(report_path), root);
}

}  // namespace trainscope::ui
