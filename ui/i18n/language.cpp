// SPDX-License-Identifier: Apache-2.0
#include "i18n/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace trainscope::ui {
namespace {

// Owned by the application; kept so that a second call replaces rather than stacks them.
QTranslator* g_app_translator = nullptr;
QTranslator* g_qt_translator = nullptr;

// Removes and deletes the previous translator, then installs `fresh` if it loaded.
bool replaceTranslator(QTranslator*& slot, QTranslator* fresh, bool loaded) {
    if (slot) {
        QCoreApplication::removeTranslator(slot);
        delete slot;
        slot = nullptr;
    }
    if (!loaded) {
        delete fresh;
        return false;
    }
    slot = fresh;
    QCoreApplication::installTranslator(slot);
    return true;
}

}  // namespace

QList<Language> availableLanguages() {
    return {
        {QStringLiteral("en"), QStringLiteral("English")},
        {QStringLiteral("de"), QStringLiteral("Deutsch")},
        {QStringLiteral("zh_CN"), QStringLiteral("简体中文")},
    };
}

QLocale localeOfLanguages(const QStringList& ui_languages) {
    for (const QString& name : ui_languages) {
        const QLocale candidate(name);
        for (const Language& language : availableLanguages())
            if (candidate.language() == QLocale(language.code).language())
                return candidate;
    }
    return QLocale::system();
}

QLocale interfaceLocale(const QString& code) {
    return code.isEmpty() ? localeOfLanguages(QLocale::system().uiLanguages()) : QLocale(code);
}

bool installTranslations(const QLocale& locale) {
    // Numbers too: thousands separators and decimal marks of the interface language.
    QLocale::setDefault(locale);
    auto* qt = new QTranslator(QCoreApplication::instance());
    const bool qt_loaded = qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                                    QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    replaceTranslator(g_qt_translator, qt, qt_loaded);

    // English is the source language: no file, and no German fallback for an English locale.
    auto* app = new QTranslator(QCoreApplication::instance());
    const bool app_loaded = locale.language() != QLocale::English &&
                            app->load(locale, QStringLiteral("trainscope"), QStringLiteral("_"),
                                      QStringLiteral(":/i18n"));
    return replaceTranslator(g_app_translator, app, app_loaded);
}

QString engineText(const std::string& text) {
    return QCoreApplication::translate("trainscope", text.c_str());
}

}  // namespace trainscope::ui
