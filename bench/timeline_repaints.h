// SPDX-License-Identifier: Apache-2.0
// The Timeline tab's repaints while a user zooms and pans, for the timeline benchmarks: from
// fully out towards three anchors, panning at each level, then out again; each repaint is both
// widgets painted (QWidget::repaint, synchronous), timed from the call to its return.
#pragma once

#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "timeline/memory_curve_widget.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_widget.h"

namespace trainscope::bench {

struct Repaints {
    std::vector<double> ms;  // sorted
    double fully_out_ms = 0, slowest_timeline_ms = 0, slowest_curve_ms = 0;
    double slowest() const { return ms.empty() ? 0 : ms.back(); }
};

inline Repaints zoomAndPan(trainscope::ui::TimelinePage* page) {
    trainscope::ui::TimelineViewState* state = page->state();
    Repaints r;
    auto repaint = [&] {
        QElapsedTimer timer;
        timer.start();
        page->timeline()->repaint();
        page->memoryCurve()->repaint();
        r.ms.push_back(timer.nsecsElapsed() / 1e6);
        r.slowest_timeline_ms = std::max(r.slowest_timeline_ms, page->timeline()->lastPaintMs());
        r.slowest_curve_ms = std::max(r.slowest_curve_ms, page->memoryCurve()->lastPaintMs());
    };
    for (const double where : {0.1, 0.5, 0.93}) {
        state->fit();
        repaint();
        r.fully_out_ms = std::max(r.fully_out_ms, r.ms.back());
        for (int step = 0; step < 60; ++step) {
            const int64_t anchor =
                state->fullStart() + int64_t(where * double(state->fullEnd() - state->fullStart()));
            state->zoom(1.25, anchor);
            repaint();
            const int64_t width = state->viewEnd() - state->viewStart();
            for (int pan = 0; pan < 3; ++pan) {
                state->setVisibleRange(state->viewStart() + width / 7,
                                       state->viewEnd() + width / 7);
                repaint();
            }
        }
        for (int step = 0; step < 60; ++step) {
            state->zoom(0.8, state->viewStart());
            repaint();
        }
    }
    std::sort(r.ms.begin(), r.ms.end());
    std::printf(
        "Repaints: %zu; median %.2f ms, 99th percentile %.2f ms, slowest %.2f ms; "
        "fully zoomed out: %.2f ms\n",
        r.ms.size(), r.ms[r.ms.size() / 2], r.ms[r.ms.size() * 99 / 100], r.ms.back(),
        r.fully_out_ms);
    std::printf("Slowest paint of each: timeline %.2f ms, memory curve %.2f ms\n",
                r.slowest_timeline_ms, r.slowest_curve_ms);
    return r;
}

}  // namespace trainscope::bench
