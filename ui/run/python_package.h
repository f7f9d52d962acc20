// SPDX-License-Identifier: Apache-2.0
// Which trainscope package a Python entry point runs with: the interpreter's own, where its
// environment imports one built for its torch, else the package of the app's build folder,
// where that one is built for the interpreter's torch. A package built for another torch is
// never put in front of an interpreter: the interpreter refuses it, and the app says what to
// install instead.
#pragma once

#include <QString>
#include <atomic>

namespace trainscope::ui {

struct PythonPackage {
    QString folder;   // to put first on PYTHONPATH; empty: the interpreter's own
    QString refusal;  // one line: why neither can run and what to install; empty when one can
};

// Asks `interpreter` (a short import of trainscope, once or twice; on the worker thread) which
// package runs. `build_tree_package` is the build folder's python/ folder, or empty for an
// installed app. Throws trainscope::Cancelled when `cancel` is set while it asks.
PythonPackage choosePythonPackage(const QString& interpreter, const QString& build_tree_package,
                                  const std::atomic<bool>* cancel);

// The python/ folder of the app's build folder (build/<preset>/app/trainscope beside
// build/<preset>/python), or empty for an installed app.
QString buildTreePackageFolder();

}  // namespace trainscope::ui
