// The application object of the desktop-app benchmarks: the offscreen platform unless one is
// set, and settings kept apart from the user's.
#pragma once

#include <QApplication>

namespace trainscope::bench {

struct OffscreenByDefault {
    OffscreenByDefault() {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    }
};

// The platform must be chosen before QApplication exists: hence the base class order.
class GuiBenchmarkApp : private OffscreenByDefault, public QApplication {
  public:
    GuiBenchmarkApp(int& argc, char** argv) : OffscreenByDefault(), QApplication(argc, argv) {
        setOrganizationName(QStringLiteral("TrainScopeBenchmarks"));
    }
};

}  // namespace trainscope::bench
