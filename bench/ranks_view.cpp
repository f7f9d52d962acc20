// SPDX-License-Identifier: Apache-2.0
// Issue 55's targets for the app: a job's timelines, one per rank (8 ranks of 1,000,000 calls;
// 64 of 100,000; bench/job_timelines.h), opened in the main window at its default size as a
// user opens them:
//   - the Ranks tab and the Timeline tab of every rank painted in < 3 s;
//   - every repaint while zooming and panning <= 16 ms;
//   - peak resident memory <= 1 GB.
// The first rank's calls are shown, the others collapsed to their titles; expanding one more
// (a click on its title) is timed and its memory counted too.
//
//   ranks_view [RANKS [CALLS]]     default 8 1000000
#include <QElapsedTimer>
#include <QTabWidget>
#include <QTest>
#include <cstdio>

#include "bench_report.h"
#include "gui_bench_app.h"
#include "job_timelines.h"
#include "main_window.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_widget.h"
#include "timeline_repaints.h"
#include "views/ranks_page.h"

using trainscope::ui::RanksPage;
using trainscope::ui::TimelinePage;

namespace {

template <typename Page>
Page* pageOf(QTabWidget* tabs) {
    for (int i = 0; tabs && i < tabs->count(); ++i)
        if (auto* page = qobject_cast<Page*>(tabs->widget(i)))
            return page;
    return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args = trainscope::bench::commandLine(
        argc, argv, "ranks_view [RANKS [CALLS]]",
        "Opens RANKS timelines of CALLS calls each (default 8 and 1,000,000; written once into\n"
        "/tmp/trainscope-ranks-RANKSxCALLS/) in the app (offscreen), times them to the painted\n"
        "Ranks and Timeline tabs, times every repaint while zooming and panning and the\n"
        "expanding of a second rank, and prints the peak memory.",
        0, 2);
    trainscope::bench::GuiBenchmarkApp app(argc, argv);
    const long ranks = args.size() > 0 ? trainscope::bench::positiveArgument(args[0], "RANKS") : 8;
    const long calls =
        args.size() > 1 ? trainscope::bench::positiveArgument(args[1], "CALLS") : 1000000;
    if (ranks < 2) {
        std::fprintf(stderr, "RANKS must be at least 2 (one rank has no Ranks tab)\n");
        return 2;
    }
    const std::vector<std::string> files =
        trainscope::bench::jobTimelines(ranks, calls, TRAINSCOPE_MAKE_LARGE_TIMELINE);
    if (files.empty())
        return 1;
    QStringList paths;
    for (const std::string& file : files)
        paths << QString::fromStdString(file);

    trainscope::ui::MainWindow window;
    window.resize(1100, 760);
    window.show();
    QApplication::processEvents();
    QElapsedTimer open;
    open.start();
    window.openReports(paths);
    trainscope::bench::spinUntil([&] { return !window.opening(); });
    const double checked_s = open.nsecsElapsed() / 1e9;
    QTabWidget* tabs = window.timelines();
    TimelinePage* timeline = pageOf<TimelinePage>(tabs);
    RanksPage* summary = pageOf<RanksPage>(tabs);
    if (!timeline || !summary) {
        std::fprintf(stderr, "ranks_view: no Timeline or Ranks tab: %s\n",
                     qPrintable(window.lastError()));
        return 1;
    }
    trainscope::bench::spinUntil([&] { return timeline->loaded() && summary->loaded(); });
    const double read_s = open.nsecsElapsed() / 1e9;
    if (!timeline->timeline()) {
        std::fprintf(stderr, "ranks_view: %s\n", qPrintable(timeline->status()->text()));
        return 1;
    }
    tabs->setCurrentWidget(summary);
    window.grab();
    tabs->setCurrentWidget(timeline);
    window.grab();
    const double open_s = open.nsecsElapsed() / 1e9;
    const double open_mb = trainscope::bench::peakResidentMiB() * 1048576.0 / 1e6;
    std::printf(
        "Opened: files checked at %.2f s, read at %.2f s, the Ranks and Timeline tabs painted at "
        "%.2f s; peak resident %.0f MB\n",
        checked_s, read_s, open_s, open_mb);

    const trainscope::bench::Repaints repaints = trainscope::bench::zoomAndPan(timeline);

    QElapsedTimer expand;
    expand.start();
    QTest::mouseClick(timeline->timeline(), Qt::LeftButton, {},
                      timeline->timeline()->titlePoint(1));
    trainscope::bench::spinUntil([&] { return timeline->state()->isExpanded(1); });
    window.grab();
    std::printf("A second rank expanded (a click on its title) and painted: %.2f s\n",
                expand.nsecsElapsed() / 1e9);
    const double peak_mb = trainscope::bench::peakResidentMiB() * 1048576.0 / 1e6;

    bool met = trainscope::bench::report("open to the painted Ranks and Timeline tabs", open_s, "s",
                                         3.0, "< 3 s");
    std::printf("  ratio to target: %.2f\n", open_s / 3.0);
    met &= trainscope::bench::report("slowest repaint while zooming and panning",
                                     repaints.slowest(), "ms", 16.0, "<= 16 ms");
    std::printf("  ratio to target: %.2f\n", repaints.slowest() / 16.0);
    met &= trainscope::bench::report("peak resident memory, a second rank expanded", peak_mb, "MB",
                                     1000.0, "<= 1 GB");
    std::printf("  ratio to target: %.2f\n", peak_mb / 1000.0);
    return met ? 0 : 1;
}
