// SPDX-License-Identifier: Apache-2.0
// Where a source file lies, as the reports show it: a file under the project root becomes a
// project frame, a path relative to that root; any other file a library frame (torch,
// torchvision, a package of the user's), a path relative to its library's root, which the
// frame records. What each host's frame source (trainscope/call_site.h) places its frames with.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "trainscope/reports.h"

namespace trainscope {

class SourceFiles {
  public:
    // `library_roots`: folders whose files are shown relative to them (--frames-root); other
    // library files are placed by their package (see libraryRoot() in the .cpp).
    explicit SourceFiles(const std::string& project_root,
                         const std::vector<std::string>& library_roots = {});

    // Where `file` lies: under the project root (library_root empty) or in a library. An
    // archive records the absolute paths of the machine that scripted it; a project moved
    // since is matched by the longest tail of the path that exists under the root. Nothing
    // for a file name that is no path at all. The frame's line is 0: the caller's to set.
    std::optional<StackFrame> locate(const std::string& file);

  private:
    std::string root_;
    std::vector<std::string> library_roots_;
    std::unordered_map<std::string, std::optional<StackFrame>> cache_;
};

}  // namespace trainscope
