// SPDX-License-Identifier: Apache-2.0
// A TorchScript source file in Python syntax (the built-in models under resources/models),
// parsed once so that C++ can build modules whose methods come from it. The methods are
// compiled with the file's real path, so stack frames point at its lines.
#pragma once

#include <torch/csrc/jit/api/module.h>
#include <torch/csrc/jit/frontend/tree_views.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace trainscope {

class ScriptSource {
  public:
    // Reads and parses the file; throws trainscope::Error naming the file and the problem.
    explicit ScriptSource(const std::string& path);

    // A new, empty module of the file's class `class_name`, in training mode. Register its
    // parameters, attributes and submodules, then call defineMethods().
    torch::jit::Module newModule(const std::string& class_name) const;
    // Compiles the class's methods onto `module`.
    void defineMethods(torch::jit::Module& module, const std::string& class_name) const;

  private:
    std::string path_;
    std::shared_ptr<torch::jit::CompilationUnit> unit_;
    std::map<std::string, std::vector<torch::jit::Def>> methods_;
};

}  // namespace trainscope
