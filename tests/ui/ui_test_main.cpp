// GoogleTest main for the widget tests: a real QApplication on the offscreen platform, with
// settings kept apart from the user's (QStandardPaths test mode) and cleared at the start.
#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("TrainScopeTests"));
    QApplication::setApplicationName(QStringLiteral("trainscope_ui_tests"));
    QSettings().clear();
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
