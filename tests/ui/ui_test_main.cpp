// SPDX-License-Identifier: Apache-2.0
// GoogleTest main for the widget tests: a real QApplication on the offscreen platform, with
// settings kept apart from the user's and from other test processes running at the same time
// (ctest -j): each process has its own settings folder, removed at the end.
#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    const QTemporaryDir settings_dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_dir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir.path());
    QApplication::setOrganizationName(QStringLiteral("TrainScopeTests"));
    QApplication::setApplicationName(QStringLiteral("trainscope_ui_tests"));
    QSettings().clear();
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
