// SPDX-License-Identifier: Apache-2.0
// The application object of the desktop-app benchmarks (the offscreen platform unless one is
// set, and settings kept apart from the user's), and what they measure the GUI thread with.
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <functional>

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

// Records the worst lateness of a periodic timer while it runs.
class StallMeter {
  public:
    static constexpr int kIntervalMs = 10;
    StallMeter() {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(kIntervalMs);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const double now = clock_.nsecsElapsed() / 1e6;
            worst_ms_ = std::max(worst_ms_, now - last_ms_ - kIntervalMs);
            last_ms_ = now;
        });
    }
    void start() {
        clock_.start();
        last_ms_ = 0;
        worst_ms_ = 0;
        timer_.start();
    }
    double stop() {
        timer_.stop();
        return worst_ms_;
    }

  private:
    QTimer timer_;
    QElapsedTimer clock_;
    double last_ms_ = 0;
    double worst_ms_ = 0;
};

// Runs the event loop until `done` holds, waking for each event (no polling delay: what is
// timed is the app's work, not a sleep).
inline void spinUntil(const std::function<bool()>& done) {
    while (!done())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
}

}  // namespace trainscope::bench
