// SPDX-License-Identifier: Apache-2.0
// The German and Simplified Chinese interfaces: the embedded translations load and follow the
// locale, and windows and dialogs built under them keep no English text of their own.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QChartView>
#include <QComboBox>
#include <QFontInfo>
#include <QFontMetrics>
#include <QGlyphRun>
#include <QGroupBox>
#include <QLabel>
#include <QLegendMarker>
#include <QLineEdit>
#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QPieSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QStatusBar>
#include <QTabBar>
#include <QTest>
#include <QTextLayout>

#include "i18n/language.h"
#include "main_window.h"
#include "reading/sql_table_model.h"
#include "run/new_profile_dialog.h"
#include "settings/app_settings.h"
#include "settings/settings_dialog.h"
#include "source/editor_command.h"
#include "source/source_viewer.h"
#include "trainscope/builtin_models.h"
#include "ui/sample_run.h"
#include "views/welcome_page.h"

using namespace trainscope;
using namespace trainscope::ui;

namespace {

void addMenuTexts(QMenu* menu, QStringList& texts) {
    texts << menu->title();
    for (QAction* action : menu->actions()) {
        if (action->menu())
            addMenuTexts(action->menu(), texts);
        else if (!action->isSeparator())
            texts << action->text() << action->toolTip();
    }
}

void addChartTexts(QChart* chart, QStringList& texts) {
    texts << chart->title();
    for (QAbstractAxis* axis : chart->axes())
        texts << axis->titleText();
    for (QLegendMarker* marker : chart->legend()->markers())
        texts << marker->label();
    for (QAbstractSeries* series : chart->series()) {
        if (auto* pie = qobject_cast<QPieSeries*>(series)) {
            for (QPieSlice* slice : pie->slices())
                texts << slice->label();
        }
    }
}

// Every text that the interface itself supplies, in the order the widgets were made, so that
// two windows built alike under two languages can be compared text by text. Data (operation
// names, figures in table cells, source code) is left out; what frames it is kept.
QStringList interfaceTexts(QWidget* top) {
    QStringList texts{top->windowTitle()};
    QList<QWidget*> widgets{top};
    widgets += top->findChildren<QWidget*>();
    for (QWidget* widget : widgets) {
        // Menus' texts come through the menu bar's actions below. A menu widget of its own
        // may or may not exist: the menu bar makes one for its overflow button only when its
        // titles did not fit at some moment, which depends on the language's text widths.
        if (qobject_cast<QMenu*>(widget))
            continue;
        texts << widget->toolTip();
        if (auto* bar = qobject_cast<QMenuBar*>(widget)) {
            for (QAction* action : bar->actions())
                addMenuTexts(action->menu(), texts);
        } else if (auto* tabs = qobject_cast<QTabBar*>(widget)) {
            for (int i = 0; i < tabs->count(); ++i)
                texts << tabs->tabText(i);
        } else if (auto* label = qobject_cast<QLabel*>(widget)) {
            texts << label->text();
        } else if (auto* button = qobject_cast<QAbstractButton*>(widget)) {
            texts << button->text();
        } else if (auto* group = qobject_cast<QGroupBox*>(widget)) {
            texts << group->title();
        } else if (auto* edit = qobject_cast<QLineEdit*>(widget)) {
            texts << edit->placeholderText();
        } else if (auto* combo = qobject_cast<QComboBox*>(widget)) {
            for (int i = 0; i < combo->count(); ++i)
                texts << combo->itemText(i) << combo->itemData(i, Qt::ToolTipRole).toString();
        } else if (auto* viewer = qobject_cast<QPlainTextEdit*>(widget)) {
            texts << viewer->toPlainText();  // before a frame is chosen: the viewer's hint
        } else if (auto* chart = qobject_cast<QChartView*>(widget)) {
            addChartTexts(chart->chart(), texts);
        } else if (auto* status = qobject_cast<QStatusBar*>(widget)) {
            texts << status->currentMessage();
        }
        if (auto* view = qobject_cast<QAbstractItemView*>(widget); view && view->model()) {
            for (int column = 0; column < view->model()->columnCount(); ++column)
                texts << view->model()->headerData(column, Qt::Horizontal).toString();
        }
    }
    return texts;
}

// The English words of a text, less what is the same in every language: names (of the
// product, the editor presets, the languages as they call themselves), units, acronyms (CPU, MLP),
// code and data (paths, file names, identifiers such as d_model or aten::linear), and the words
// that the language shares with English or keeps as technical terms.
QSet<QString> englishWords(QString text, const QStringList& same_in_language) {
    static const QRegularExpression code(QStringLiteral("\\S*[/._()\\[\\]]\\S*|\\S*::\\S*"));
    static const QRegularExpression word(QStringLiteral("[A-Za-z]{2,}"));
    static const QRegularExpression identifier(QStringLiteral("^[a-z0-9_.:-]+$"));
    static const QStringList names = [] {
        QStringList names{QStringLiteral("TrainScope"),  QStringLiteral("TorchScript"),
                          QStringLiteral("Python"),      QStringLiteral("ResNet"),
                          QStringLiteral("Transformer"), QStringLiteral("KiB"),
                          QStringLiteral("MiB"),         QStringLiteral("GiB")};
        for (const EditorPreset& preset : editorPresets())
            names << preset.name;
        for (const Language& language : availableLanguages())
            names << language.native_name;
        return names;
    }();
    if (identifier.match(text).hasMatch())  // a value such as relu, float32, cross-entropy
        return {};
    text.remove(code);
    for (const QString& name : names)
        text.remove(name);
    QSet<QString> words;
    for (auto match = word.globalMatch(text); match.hasNext();) {
        const QString found = match.next().captured();
        if (found.toUpper() != found && !same_in_language.contains(found))
            words.insert(found);
    }
    return words;
}

// The English words left in `make()`'s window under `language`: the words of each text that
// the same text of the English window has too.
template <typename Make>
QStringList englishLeftovers(const QString& language, const QStringList& same_in_language,
                             Make make) {
    installTranslations(QLocale(QStringLiteral("en")));
    const QStringList english = interfaceTexts(make().get());
    EXPECT_TRUE(installTranslations(QLocale(language)));
    const QStringList translated = interfaceTexts(make().get());
    installTranslations(QLocale(QStringLiteral("en")));
    EXPECT_EQ(english.size(), translated.size()) << "the two windows differ in their widgets";
    QStringList leftovers;
    for (int i = 0; i < qMin(english.size(), translated.size()); ++i) {
        const QSet<QString> left = englishWords(translated[i], same_in_language) &
                                   englishWords(english[i], same_in_language);
        if (!left.isEmpty())
            leftovers
                << QStringLiteral("%1 (in \"%2\")").arg(left.values().join(u' '), translated[i]);
    }
    return leftovers;
}

struct LanguageCase {
    const char* code;
    QStringList same_in_language;  // words it shares with English or keeps as technical terms
};

// How GoogleTest and `ctest -N` show a case: its language, not its bytes.
void PrintTo(const LanguageCase& language, std::ostream* out) {
    *out << language.code;
}

const LanguageCase kGerman{
    "de",
    {QStringLiteral("Gradient"), QStringLiteral("Operation"), QStringLiteral("Editor"),
     QStringLiteral("Iteration"), QStringLiteral("Stack"), QStringLiteral("in"),
     QStringLiteral("ms"), QStringLiteral("trace"), QStringLiteral("Traces"),
     QStringLiteral("Interpreter")}};
const LanguageCase kChinese{"zh_CN",
                            {QStringLiteral("trace"), QStringLiteral("seed"), QStringLiteral("pre"),
                             QStringLiteral("norm")}};

class TranslationTest : public test::SampleRunTest,
                        public ::testing::WithParamInterface<LanguageCase> {
  protected:
    void TearDown() override {
        installTranslations(QLocale(QStringLiteral("en")));
        test::SampleRunTest::TearDown();
    }

    // A main window with the sample run open, as the user sees it after opening a report.
    std::unique_ptr<MainWindow> windowWithRun() {
        AppSettings::clearRecentFiles();  // the same Open Recent menu for each language
        auto window = std::make_unique<MainWindow>();
        window->show();
        EXPECT_TRUE(trainscope::test::openAndWait(*window, {path("run.time.sqlite")}));
        return window;
    }
};

}  // namespace

TEST(Translations, GermanAndChineseMenusLoadFromTheEmbeddedFiles) {
    ASSERT_TRUE(installTranslations(QLocale(QStringLiteral("de_DE"))));
    {
        MainWindow window;
        EXPECT_EQ(window.menuBar()->actions().value(0)->text(), QStringLiteral("&Datei"));
        EXPECT_EQ(window.welcomePage()->exampleButton()->text(),
                  QStringLiteral("Eingebautes Beispiel profilieren"));
    }
    ASSERT_TRUE(installTranslations(QLocale(QStringLiteral("zh_CN"))));
    {
        MainWindow window;
        EXPECT_EQ(window.menuBar()->actions().value(0)->text(), QStringLiteral("文件(&F)"));
    }
    // English is the source language: no translation is installed, the texts are the source's.
    EXPECT_FALSE(installTranslations(QLocale(QStringLiteral("en_US"))));
    MainWindow window;
    EXPECT_EQ(window.menuBar()->actions().value(0)->text(), QStringLiteral("&File"));
}

namespace {

// The mnemonic of a menu text: the character after a single '&', lower-cased; none: null.
QChar mnemonicOf(const QString& text) {
    for (int i = 0; i + 1 < text.size(); ++i) {
        if (text[i] == QLatin1Char('&')) {
            if (text[i + 1] != QLatin1Char('&'))
                return text[i + 1].toLower();
            ++i;  // "&&" is a literal '&'
        }
    }
    return {};
}

// The items of a menu bar or menu whose mnemonics are taken twice.
QStringList clashingMnemonics(const QList<QAction*>& actions) {
    QMap<QChar, QStringList> by_mnemonic;
    for (QAction* action : actions) {
        const QChar mnemonic = mnemonicOf(action->text());
        if (!mnemonic.isNull())
            by_mnemonic[mnemonic] << action->text();
    }
    QStringList clashes;
    for (const QStringList& texts : by_mnemonic) {
        if (texts.size() > 1)
            clashes << texts.join(QStringLiteral(" / "));
    }
    return clashes;
}

}  // namespace

// Alt plus a letter opens one menu, and in a menu chooses one item, in every language.
TEST(Translations, EveryMenusMnemonicsAreUnique) {
    for (const char* language : {"en", "de", "zh_CN"}) {
        installTranslations(QLocale(QString::fromLatin1(language)));
        MainWindow window;
        QMenuBar* bar = window.menuBar();
        EXPECT_TRUE(clashingMnemonics(bar->actions()).isEmpty())
            << language << ": " << clashingMnemonics(bar->actions()).join(", ").toStdString();
        for (QAction* title : bar->actions()) {
            QMenu* menu = title->menu();
            ASSERT_NE(menu, nullptr);
            EXPECT_TRUE(clashingMnemonics(menu->actions()).isEmpty())
                << language << ": " << clashingMnemonics(menu->actions()).join(", ").toStdString();
        }
    }
    installTranslations(QLocale(QStringLiteral("en")));
}

// Thousands separators and decimal marks are the interface language's.
TEST(Translations, NumbersFollowTheInterfaceLanguage) {
    installTranslations(QLocale(QStringLiteral("de")));
    EXPECT_EQ(formatNumber(1234.5, 1), QStringLiteral("1.234,5"));
    EXPECT_EQ(formatBytes(1536), QStringLiteral("1,5 KiB"));
    installTranslations(QLocale(QStringLiteral("en")));
    EXPECT_EQ(formatNumber(1234.5, 1), QStringLiteral("1,234.5"));
    EXPECT_EQ(formatBytes(1536), QStringLiteral("1.5 KiB"));
}

TEST(Translations, TheEnginesMarkedTextsAreTranslated) {
    ASSERT_TRUE(installTranslations(QLocale(QStringLiteral("de"))));
    const BuiltinModelInfo* mlp = findBuiltinModel("mlp");
    ASSERT_NE(mlp, nullptr);
    EXPECT_EQ(engineText(mlp->parameters.at(0).description), QStringLiteral("Modellbreite d"));
    EXPECT_EQ(engineText(checkParameterValue(mlp->parameters.at(0), "-3")),
              QStringLiteral("eine positive ganze Zahl (höchstens 2147483647)"));
    // A text the engine did not mark (an error with a file name in it) stays as it is.
    EXPECT_EQ(engineText("cannot open /x.pt"), QStringLiteral("cannot open /x.pt"));
    installTranslations(QLocale(QStringLiteral("en")));
}

TEST(Translations, NumbersFollowTheLanguageTheInterfaceIsShownIn) {
    // LANGUAGE=de with LANG=C: the German interface, with German numbers.
    const QLocale german = localeOfLanguages({QStringLiteral("de"), QStringLiteral("C")});
    EXPECT_EQ(german.language(), QLocale::German);
    EXPECT_EQ(german.toString(17.5, 'f', 1), QStringLiteral("17,5"));
    // The first language the interface has: zh before de when the user prefers it.
    EXPECT_EQ(
        localeOfLanguages({QStringLiteral("fr"), QStringLiteral("zh-CN"), QStringLiteral("de")})
            .language(),
        QLocale::Chinese);
    // None of them: the system's, whose language the interface then falls back from.
    EXPECT_EQ(localeOfLanguages({QStringLiteral("fr")}), QLocale::system());
}

TEST(Translations, TheSettingFollowsTheSystemUnlessALanguageIsChosen) {
    AppSettings::setLanguage(QString());
    EXPECT_EQ(interfaceLocale(AppSettings::language()),
              localeOfLanguages(QLocale::system().uiLanguages()));
    AppSettings::setLanguage(QStringLiteral("zh_CN"));
    EXPECT_EQ(interfaceLocale(AppSettings::language()).language(), QLocale::Chinese);

    // The Settings dialog offers every language and stores the choice, with a restart note.
    SettingsDialog dialog;
    QComboBox* choice = dialog.languageChoice();
    EXPECT_EQ(choice->currentData().toString(), QStringLiteral("zh_CN"));
    EXPECT_EQ(choice->count(), availableLanguages().size() + 1);  // and "System default"
    choice->setCurrentIndex(choice->findData(QStringLiteral("de")));
    EXPECT_FALSE(dialog.restartNote()->isHidden());
    dialog.accept();
    EXPECT_EQ(AppSettings::language(), QStringLiteral("de"));
    AppSettings::setLanguage(QString());
}

// The characters of `text` that `font` and its fallbacks have no glyph for: drawn as empty boxes.
// Each character is laid out alone, so that a glyph is known to be its own.
QString charactersWithoutGlyphs(const QString& text, const QFont& font) {
    QString missing;
    for (const uint character : text.toUcs4()) {
        const QString alone = QString::fromUcs4(reinterpret_cast<const char32_t*>(&character), 1);
        if (QChar::isSpace(character) || !QChar::isPrint(character) || missing.contains(alone))
            continue;
        QTextLayout layout(alone, font);
        layout.beginLayout();
        layout.createLine();
        layout.endLayout();
        for (const QGlyphRun& run : layout.glyphRuns())
            if (run.glyphIndexes().contains(0))
                missing += alone;
    }
    return missing;
}

// Every text of the window is drawn in real glyphs: the Chinese interface with a Chinese font
// (without one it was a row of boxes), in the regular and the bold face.
TEST_P(TranslationTest, EveryTextOfTheWindowIsDrawnInRealGlyphs) {
    ASSERT_TRUE(installTranslations(QLocale(QString::fromLatin1(GetParam().code))));
    const std::unique_ptr<MainWindow> window = windowWithRun();
    QFont bold = window->font();
    bold.setBold(true);
    int checked = 0;
    for (const QString& text : interfaceTexts(window.get())) {
        if (text.isEmpty())
            continue;
        ++checked;
        for (const QFont& font : {window->font(), bold}) {
            const QString missing = charactersWithoutGlyphs(text, font);
            EXPECT_TRUE(missing.isEmpty())
                << "'" << text.toStdString() << "': no glyph for '" << missing.toStdString()
                << "' in " << QFontInfo(font).family().toStdString();
        }
    }
    EXPECT_GT(checked, 100);
}

// Source code stays aligned in every language: with Chinese as the interface language,
// fontconfig's "monospace" is a proportional CJK font on Debian; the viewer names its fonts.
TEST_P(TranslationTest, TheSourceViewerIsMonospacedInEveryLanguage) {
    ASSERT_TRUE(installTranslations(QLocale(QString::fromLatin1(GetParam().code))));
    SourceViewer viewer;
    const QFontMetrics metrics(viewer.font());
    EXPECT_EQ(metrics.horizontalAdvance(QLatin1Char('i')),
              metrics.horizontalAdvance(QLatin1Char('W')))
        << QFontInfo(viewer.font()).family().toStdString();
    EXPECT_TRUE(QFontInfo(viewer.font()).fixedPitch())
        << QFontInfo(viewer.font()).family().toStdString();
    installTranslations(QLocale(QStringLiteral("en")));
}

TEST_P(TranslationTest, TheMainWindowWithARunOpenKeepsNoEnglish) {
    // The title names the run: "run" (its files' name) is data, not an English word.
    const QStringList leftovers =
        englishLeftovers(QString::fromLatin1(GetParam().code),
                         GetParam().same_in_language + QStringList{QStringLiteral("run")},
                         [this] { return windowWithRun(); });
    EXPECT_TRUE(leftovers.isEmpty()) << leftovers.join(QStringLiteral(" | ")).toStdString();
}

TEST_P(TranslationTest, TheWelcomePageKeepsNoEnglish) {
    const QStringList leftovers =
        englishLeftovers(QString::fromLatin1(GetParam().code), GetParam().same_in_language, [] {
            AppSettings::clearRecentFiles();
            return std::make_unique<MainWindow>();
        });
    EXPECT_TRUE(leftovers.isEmpty()) << leftovers.join(QStringLiteral(" | ")).toStdString();
}

TEST_P(TranslationTest, TheDialogsKeepNoEnglish) {
    const QString code = QString::fromLatin1(GetParam().code);
    const QStringList profile_leftovers =
        englishLeftovers(code, GetParam().same_in_language,
                         [this] { return std::make_unique<NewProfileDialog>(dir_); });
    EXPECT_TRUE(profile_leftovers.isEmpty())
        << profile_leftovers.join(QStringLiteral(" | ")).toStdString();
    const QStringList settings_leftovers = englishLeftovers(
        code, GetParam().same_in_language, [] { return std::make_unique<SettingsDialog>(); });
    EXPECT_TRUE(settings_leftovers.isEmpty())
        << settings_leftovers.join(QStringLiteral(" | ")).toStdString();
}

INSTANTIATE_TEST_SUITE_P(Languages, TranslationTest, ::testing::Values(kGerman, kChinese),
                         [](const auto& info) { return std::string(info.param.code); });
