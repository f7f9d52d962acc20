// SPDX-License-Identifier: Apache-2.0
// Why a report has no project frames, told to the user (the CLI summary and the app read it).
#pragma once

#include <string>
#include <vector>

#include "trainscope/reports.h"

namespace trainscope {

// Records in the metadata (report_format::kFramesNoteKey) why none of `traces` holds a project
// frame, if none does; `project_root_option` names the option that sets the root.
void noteMissingProjectFrames(RunMetadata& metadata, const std::vector<const StackTrace*>& traces,
                              const std::string& project_root_option = "--project-root");

}  // namespace trainscope
