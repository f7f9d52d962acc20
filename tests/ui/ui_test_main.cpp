// SPDX-License-Identifier: Apache-2.0
// GoogleTest main for the widget tests: a real QApplication on the offscreen platform, with
// settings kept apart from the user's and from other test processes running at the same time
// (ctest -j): each process has its own settings folder, removed at the end. It draws with the
// build's test fonts alone (tests/support/fonts.conf.in), so that the layout tests measure the
// same glyphs on every machine.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFontDatabase>
#include <QFontInfo>
#include <QLocale>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace {

// The fonts every layout test assumes: the interface's (DejaVu Sans 9 pt, Latin), the source
// viewer's (DejaVu Sans Mono) and a Chinese one. Without one of them the tests would measure a
// stand-in (Chinese as empty boxes), so they do not run.
bool testFontsPresent(const QByteArray& fontconfig) {
    const QStringList families = QFontDatabase::families();
    QStringList missing;
    for (const char* family : {"DejaVu Sans", "DejaVu Sans Mono"})
        if (!families.contains(QLatin1String(family)))
            missing << QLatin1String(family);
    if (QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty())
        missing << QStringLiteral("a Chinese font");
    if (!missing.isEmpty()) {
        fprintf(stderr,
                "trainscope_ui_tests: the test fonts lack %s (%s lists them; "
                "tools/install-debian-deps installs them)\n",
                qPrintable(missing.join(QLatin1String(", "))), fontconfig.constData());
        return false;
    }
    const QFontInfo interface_font(QApplication::font());
    if (interface_font.family() != QLatin1String("DejaVu Sans") ||
        interface_font.pointSize() != 9) {
        fprintf(stderr,
                "trainscope_ui_tests: the interface's font is %s %d pt, not DejaVu Sans 9 pt\n",
                qPrintable(interface_font.family()), interface_font.pointSize());
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    // The same platform, fonts, scale and theme whatever the desktop session around the tests
    // sets: a platform theme brings its own fonts and style, a scale factor shrinks the window.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    for (const char* setting :
         {"QT_QPA_PLATFORMTHEME", "QT_STYLE_OVERRIDE", "QT_SCALE_FACTOR", "QT_SCREEN_SCALE_FACTORS",
          "QT_ENABLE_HIGHDPI_SCALING", "QT_FONT_DPI", "QT_USE_PHYSICAL_DPI", "QTEST_KEYEVENT_DELAY",
          "QTEST_MOUSEEVENT_DELAY"})
        qunsetenv(setting);
    const QByteArray fontconfig = qEnvironmentVariableIsEmpty("TRAINSCOPE_TEST_FONTCONFIG")
                                      ? QByteArray(TRAINSCOPE_TEST_FONTCONFIG)
                                      : qgetenv("TRAINSCOPE_TEST_FONTCONFIG");
    qputenv("FONTCONFIG_FILE", fontconfig);
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    if (!testFontsPresent(fontconfig))
        return 1;
    // Figures as the English interface writes them, whatever the machine's locale (the tests of
    // other languages install theirs).
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    const QTemporaryDir settings_dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_dir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir.path());
    QApplication::setOrganizationName(QStringLiteral("TrainScopeTests"));
    QApplication::setApplicationName(QStringLiteral("trainscope_ui_tests"));
    QSettings().clear();
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
