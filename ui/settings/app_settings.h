// SPDX-License-Identifier: Apache-2.0
// What the app remembers between sessions, in one place (QSettings under the hood): the
// editor command, the interface language, recent reports, each report's project root.
#pragma once

#include <QString>
#include <QStringList>

namespace trainscope::ui {

class AppSettings {
  public:
    static QString editorCommand();
    static void setEditorCommand(const QString& command);

    // A code of availableLanguages(), or empty to follow the system's locale (the default).
    // "system", "light" or "dark" (theme.h).
    static QString theme();
    static void setTheme(const QString& code);
    static QString language();
    static void setLanguage(const QString& code);

    static constexpr int kMaxRecentFiles = 10;
    static QStringList recentFiles();  // most recent first
    static void addRecentFile(const QString& path);
    static void clearRecentFiles();

    // The project root chosen for a report; empty when the user never chose one.
    static QString projectRootFor(const QString& report_path);
    static void setProjectRootFor(const QString& report_path, const QString& root);

    // The user's answer to "show files from the folders this report names?": 1 yes, 0 no,
    // -1 never asked.
    static int sourceFoldersAnswer(const QString& report_path);
    static void setSourceFoldersAnswer(const QString& report_path, bool allowed);
};

}  // namespace trainscope::ui
