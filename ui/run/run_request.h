// What the app asks the engine to do: a run configuration, what to measure, and where the
// reports go. Plain data, shared by the New Profile dialog, the first-launch offer and the
// worker.
#pragma once

#include <QString>
#include <QStringList>

#include "trainscope/run_config.h"

namespace trainscope::ui {

enum class Measure { Both, Memory, Time };

struct RunRequest {
    RunConfig config;
    Measure measure = Measure::Both;
    QString output_prefix;  // reports go to PREFIX.memory.sqlite and PREFIX.time.sqlite

    QStringList outputPaths() const;  // the files this run writes, memory first
};

// Where runs started from the app are saved by default.
QString defaultRunsFolder();
// PREFIX for a new run of `model` in `folder` whose report files do not exist yet.
QString newRunPrefix(const QString& folder, const QString& model);

// The small built-in MLP of the first-launch offer: the CPU finishes it in seconds.
RunRequest exampleRunRequest(const QString& folder);

}  // namespace trainscope::ui
