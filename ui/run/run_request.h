// SPDX-License-Identifier: Apache-2.0
// What the app asks the engine to do: a run configuration, what to measure, and where the
// reports go. Plain data, shared by the New Profile dialog, the first-launch offer and the
// worker.
#pragma once

#include <QString>
#include <QStringList>

#include "trainscope/run.h"
#include "trainscope/sweep.h"

namespace trainscope::ui {

struct RunRequest {
    RunConfig config;
    Measure measure = Measure::All;  // the dialog's choices are in this order
    QString output_prefix;           // reports go to PREFIX.memory.sqlite and PREFIX.time.sqlite
    // A batch-size sweep instead (PREFIX.sweep.sqlite): its sizes (empty: three around the
    // configured batch) and memory budget (empty: the device's).
    bool sweep = false;
    std::vector<int64_t> batch_sizes;
    std::optional<int64_t> memory_budget;
    // A Python entry point instead of the engine's own step (its model_provider,
    // input_provider and iteration_provider), run by this interpreter as
    // `python3 -m trainscope profile` (run/python_run.h). It writes the three reports.
    QString python_entry;
    QString python_interpreter = QStringLiteral("python3");
    bool isPython() const { return !python_entry.isEmpty(); }

    // The engine's plan: every report is named after its run, whatever is measured.
    RunPlan plan() const;
    SweepPlan sweepPlan() const;
    QStringList outputPaths() const;  // the files this run writes, memory first
};

// Where runs started from the app are saved by default.
QString defaultRunsFolder();
// PREFIX for a new run of `model` in `folder` whose report files do not exist yet.
QString newRunPrefix(const QString& folder, const QString& model);

// The small built-in MLP of the first-launch offer: the CPU finishes it in seconds.
RunRequest exampleRunRequest(const QString& folder);

}  // namespace trainscope::ui
