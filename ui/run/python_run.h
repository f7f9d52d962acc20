// SPDX-License-Identifier: Apache-2.0
// A Python entry point profiled in its own interpreter, as `python3 -m trainscope profile`:
// the user's step runs in the user's Python with the user's torch, never in the app. Runs on
// the worker thread; the child's progress lines move the app's progress, a cancel ends the
// child (which writes no report then), and its one-line error becomes the run's.
#pragma once

#include <QStringList>
#include <atomic>
#include <functional>

#include "run/run_request.h"

namespace trainscope::ui {

struct RunProgress;

// Runs the request's entry point and returns the report paths it wrote. Throws
// trainscope::Error with the child's message when it fails, trainscope::Cancelled when
// `cancel` is set first.
QStringList runPythonEntryPoint(const RunRequest& request,
                                const std::function<void(const RunProgress&)>& progress,
                                const std::atomic<bool>* cancel);

// The line of the child's progress ("trainscope-progress: memory 1 3") as the app shows it;
// false when `line` is no progress line.
bool parsePythonProgress(const QString& line, int warmup, int iterations, RunProgress* progress);

}  // namespace trainscope::ui
