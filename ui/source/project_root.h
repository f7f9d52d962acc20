// SPDX-License-Identifier: Apache-2.0
// Where a stack frame's file is on this machine. Frames hold paths relative to the project
// root (docs/report-formats.md); a path that leaves the root (absolute, or `..` past it, or a
// symbolic link out of it) is refused, so that a report cannot make the app open any file.
#pragma once

#include <QString>

namespace trainscope::ui {

struct ResolvedSource {
    QString path;          // absolute path of an existing file under the root; empty on error
    QString error;         // why the frame cannot be shown
    bool missing = false;  // a safe path, but no file there
};

ResolvedSource resolveSource(const QString& project_root, const QString& frame_path);

// The real location of an existing folder or file (symbolic links resolved); empty otherwise.
QString realPath(const QString& path);

// The project root a report recorded, where it may be used without asking the user: the
// built-in models' folder, or a folder that holds the report (but not `/`, the home folder or
// its parents, which hold every report the user has). Empty otherwise.
QString trustedProjectRoot(const QString& recorded, const QString& report);

}  // namespace trainscope::ui
