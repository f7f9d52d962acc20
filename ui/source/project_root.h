// SPDX-License-Identifier: Apache-2.0
// Where a stack frame's file is on this machine. Frames hold paths relative to the project
// root (REFERENCE section 1); a path that leaves the root (absolute, or `..` past it, or a
// symbolic link out of it) is refused, so that a report cannot make the app open any file.
#pragma once

#include <QString>

namespace trainscope::ui {

struct ResolvedSource {
    QString path;   // absolute path of an existing file under the root; empty on error
    QString error;  // why the frame cannot be shown
};

ResolvedSource resolveSource(const QString& project_root, const QString& frame_path);

}  // namespace trainscope::ui
