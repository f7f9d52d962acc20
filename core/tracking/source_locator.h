// Maps the TorchScript interpreter's call stack to frames of the user's project: the original
// source file and line of each frame, kept only when the file lies under the project root,
// as a path relative to it.
#pragma once

#include <torch/csrc/jit/frontend/source_range.h>

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "trainscope/reports.h"

namespace trainscope {

class SourceLocator {
  public:
    explicit SourceLocator(const std::string& project_root);

    // `stack` as torch::jit::currentCallstack() returns it, which is most specific first, the
    // order of the reports (checked by the stack-frame tests).
    StackTrace frames(const std::vector<torch::jit::StackEntry>& stack);

    // The path of `file` relative to the project root, or nothing when it lies outside.
    // An archive records the absolute paths of the machine that scripted it; a project moved
    // since is matched by the longest tail of the path that exists under the root.
    std::optional<std::string> relativePath(const std::string& file);

  private:
    std::string root_;
    std::unordered_map<std::string, std::optional<std::string>> cache_;
};

}  // namespace trainscope
