// SPDX-License-Identifier: Apache-2.0
// The Python of a project's own environment: a user whose default python3 has no torch keeps
// their training's torch in a virtual environment beside the code (`.venv`, `venv`, `env`, or
// this project's `.venv-torch2`).
#pragma once

#include <QString>

namespace trainscope::ui {

// The interpreter of the first environment found in the entry point's folder or the folders
// above it (three at most), or an empty string.
QString projectEnvironmentPython(const QString& entry_point);

}  // namespace trainscope::ui
