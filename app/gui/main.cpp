// trainscope: the desktop app. `trainscope [REPORT…]` opens the given reports.
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include "main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("TrainScope"));
    QApplication::setApplicationVersion(QStringLiteral(TRAINSCOPE_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Training profile viewer"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("reports"),
                                 QApplication::translate("main", "Reports to open"),
                                 QStringLiteral("[REPORT…]"));
    // For documentation and checks: render the window with its reports to a PNG and exit.
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QApplication::translate("main",
                                                          "Save the window to FILE.png "
                                                          "once shown, then quit"),
                                  QStringLiteral("FILE"));
    parser.addOption(screenshot);
    parser.process(app);

    trainscope::ui::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openReports(parser.positionalArguments());
    if (parser.isSet(screenshot)) {
        QTimer::singleShot(1500, &window, [&] {
            const bool saved = window.grab().save(parser.value(screenshot));
            QApplication::exit(saved ? 0 : 1);
        });
    }
    return app.exec();
}
