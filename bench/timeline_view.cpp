// SPDX-License-Identifier: Apache-2.0
// Issue 14's timeline targets, on a timeline of 1,000,000 framework calls and 1,200,001 memory
// records (bench/make_large_timeline.cpp, the engine's own writer):
//   - opening to a painted timeline and memory curve in < 2 s;
//   - every repaint while zooming and panning <= 16 ms, zoomed fully out and anywhere else;
//   - peak resident memory <= 400 MB.
// A repaint is both widgets painted (QWidget::repaint, synchronous), timed from the call to its
// return, on the offscreen platform at the default window size.
//
//   timeline_view [TIMELINE]
//   (default TIMELINE: /tmp/trainscope-large-calls.timeline.sqlite, generated once)
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "bench_report.h"
#include "gui_bench_app.h"
#include "timeline/memory_curve_widget.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_widget.h"
#include "timeline_repaints.h"

using trainscope::ui::TimelinePage;

int main(int argc, char** argv) {
    trainscope::bench::commandLine(
        argc, argv, "timeline_view [TIMELINE]",
        "Opens a timeline of 1,000,000 calls in the Timeline tab (offscreen), times it to a\n"
        "painted timeline and memory curve, times every repaint while zooming and panning, and\n"
        "prints the peak memory. Default TIMELINE: /tmp/trainscope-large-calls.timeline.sqlite,\n"
        "generated once (bench/make_large_timeline) when it does not exist.",
        0, 1);
    trainscope::bench::GuiBenchmarkApp app(argc, argv);
    const QString path = argc > 1 ? QString::fromLocal8Bit(argv[1])
                                  : QStringLiteral("/tmp/trainscope-large-calls.timeline.sqlite");
    if (!QFile::exists(path)) {
        std::printf("Generating %s (1,000,000 calls)...\n", qPrintable(path));
        std::fflush(stdout);
        if (QProcess::execute(QStringLiteral(TRAINSCOPE_MAKE_LARGE_TIMELINE), {path}) != 0) {
            std::fprintf(stderr, "timeline_view: could not generate %s\n", qPrintable(path));
            return 1;
        }
    }
    std::printf("Timeline: %s (%.0f MiB)\n", qPrintable(path), QFile(path).size() / 1048576.0);

    // The default window size of the app's main window.
    QWidget window;
    window.resize(1100, 930);
    QElapsedTimer open;
    open.start();
    auto* page = new TimelinePage({path}, nullptr, &window);
    page->resize(window.size());
    window.show();
    if (!QTest::qWaitFor([page] { return page->loaded(); }, 60000) || !page->timeline()) {
        std::fprintf(stderr, "timeline_view: the timeline did not load\n");
        return 1;
    }
    page->timeline()->repaint();
    page->memoryCurve()->repaint();
    const double open_s = open.nsecsElapsed() / 1e9;
    std::printf("Loaded and painted: timeline %.1f ms, memory curve %.1f ms to paint\n",
                page->timeline()->lastPaintMs(), page->memoryCurve()->lastPaintMs());

    const trainscope::bench::Repaints repaints = trainscope::bench::zoomAndPan(page);

    bool met = trainscope::bench::report("open to painted timeline and memory curve", open_s, "s",
                                         2.0, "< 2 s");
    std::printf("  ratio to target: %.2f\n", open_s / 2.0);
    met &= trainscope::bench::report("slowest repaint while zooming and panning",
                                     repaints.slowest(), "ms", 16.0, "<= 16 ms");
    std::printf("  ratio to target: %.2f\n", repaints.slowest() / 16.0);
    const double peak_mib = trainscope::bench::peakResidentMiB();
    met &= trainscope::bench::report("peak resident memory of the process", peak_mib, "MiB",
                                     400.0 * 1000 * 1000 / 1048576.0, "<= 400 MB");
    std::printf("  ratio to target: %.2f\n", peak_mib * 1048576.0 / 400e6);
    return met ? 0 : 1;
}
