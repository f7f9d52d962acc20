// SPDX-License-Identifier: Apache-2.0
// The interface languages. TrainScope's own translations are embedded in the binary
// (translations/*.ts, built by qt_add_translations into :/i18n); Qt's own strings (standard
// dialog buttons, file dialogs) come from the system's Qt translations when they are installed
// (Debian: qt6-translations-l10n).
#pragma once

#include <QList>
#include <QLocale>
#include <QString>
#include <string>

namespace trainscope::ui {

struct Language {
    QString code;         // "de", "zh_CN"; "en" is the source language
    QString native_name;  // as the language calls itself, so that anyone can find their own
};

// Every language the interface is available in, English first.
QList<Language> availableLanguages();

// The locale whose translations a language setting selects: an empty code follows the
// system (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), any other is one of availableLanguages().
// Numbers follow it too (installTranslations), so it is the locale of the language the
// interface is shown in: with LANGUAGE=de and LANG=C, German.
QLocale interfaceLocale(const QString& code);

// The first of `ui_languages` (most preferred first, as QLocale::uiLanguages() lists them)
// that the interface is available in, else the system's locale.
QLocale localeOfLanguages(const QStringList& ui_languages);

// Installs the translations for `locale` into the application, replacing those installed
// before. Affects widgets created afterwards. Returns false when TrainScope has no
// translation for the locale, which leaves the interface in English.
bool installTranslations(const QLocale& locale);

// A text of the engine, translated where the engine marked it with
// TRAINSCOPE_TR("trainscope", ...) (trainscope/translatable.h); any other text stays as is.
QString engineText(const std::string& text);

}  // namespace trainscope::ui
