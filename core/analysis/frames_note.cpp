// SPDX-License-Identifier: Apache-2.0
#include "analysis/frames_note.h"

#include "trainscope/report_format.h"

namespace trainscope {

void noteMissingProjectFrames(RunMetadata& metadata, const std::vector<const StackTrace*>& traces,
                              const std::string& project_root_option) {
    if (traces.empty()) {
        return;  // no operation ran: no frame is missing
    }
    const StackFrame* library = nullptr;
    for (const StackTrace* trace : traces) {
        for (const StackFrame& frame : *trace) {
            if (!frame.isLibrary()) {
                return;
            }
            library = library ? library : &frame;
        }
    }
    if (!library) {
        metadata[report_format::kFramesNoteKey] =
            "the model recorded no source locations (a traced model, or an archive saved "
            "without debug information, keeps none)";
        return;
    }
    // A trace recorded elsewhere (torch.profiler's) names no project root.
    const auto root = metadata.find(report_format::kProjectRootKey);
    const std::string where = root == metadata.end() || root->second.empty()
                                  ? "no frame is the model's own code"
                                  : "no frame lies under the project root " + root->second;
    metadata[report_format::kFramesNoteKey] =
        where + ": the model's code is elsewhere (library frames such as " + library->file_path +
        "); pass " + project_root_option + " with the folder of the model's code";
}

}  // namespace trainscope
