// SPDX-License-Identifier: Apache-2.0
// Maps the TorchScript interpreter's call stack to source frames: the original file and line of
// each frame. A file under the project root becomes a project frame, a path relative to that
// root. Any other file becomes a library frame (torch, torchvision, a package of the user's),
// a path relative to its library's root, which the frame records.
#pragma once

#include <torch/csrc/jit/frontend/source_range.h>

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "trainscope/call_site.h"
#include "trainscope/reports.h"

namespace trainscope {

class SourceLocator {
  public:
    // `library_roots`: folders whose files are shown relative to them (--frames-root); other
    // library files are placed by their package (see libraryRoot() in the .cpp).
    explicit SourceLocator(const std::string& project_root,
                           const std::vector<std::string>& library_roots = {});

    // `stack` as torch::jit::currentCallstack() returns it, which is most specific first, the
    // order of the reports (checked by the stack-frame tests).
    StackTrace frames(const std::vector<torch::jit::StackEntry>& stack);

    // Where `file` lies: under the project root (library_root empty) or in a library. An
    // archive records the absolute paths of the machine that scripted it; a project moved
    // since is matched by the longest tail of the path that exists under the root. Nothing
    // for a file name that is no path at all.
    std::optional<StackFrame> locate(const std::string& file);

  private:
    std::string root_;
    std::vector<std::string> library_roots_;
    std::unordered_map<std::string, std::optional<StackFrame>> cache_;
};

// The frames of the TorchScript interpreter's current call stack (archives and built-ins).
class TorchScriptFrames : public FrameSource {
  public:
    explicit TorchScriptFrames(SourceLocator& locator) : locator_(locator) {}
    StackTrace currentFrames() override;

  private:
    SourceLocator& locator_;
};

}  // namespace trainscope
