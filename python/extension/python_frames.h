// SPDX-License-Identifier: Apache-2.0
// The call site of an operation in a user's eager step: the Python frames of the thread that
// runs it, and the module whose forward is running (kept by nn.Module hooks from Python).
#pragma once

#include <Python.h>

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trainscope/call_site.h"
#include "trainscope/source_files.h"

namespace trainscope::python {

// Python frames, most specific first, each placed by the core's SourceFiles (a project
// frame under the project root, else a library frame). TrainScope's own package is left out:
// its frames are the host's, not the user's.
class PythonFrames : public FrameSource {
  public:
    PythonFrames(const std::string& project_root, const std::string& own_package_dir);
    ~PythonFrames() override;  // with the GIL (the host's object is freed by Python)
    PythonFrames(const PythonFrames&) = delete;
    PythonFrames& operator=(const PythonFrames&) = delete;
    // Called as an operation starts, often with the GIL released by the operation's binding:
    // it takes the GIL to read the thread's frames.
    StackTrace currentFrames() override;
    // Frames read elsewhere (Inductor's provenance of a compiled kernel): (file, line), most
    // specific first, placed as the thread's own are.
    StackTrace place(const std::vector<std::pair<std::string, int>>& frames);
    // The code objects held, let go of (with the GIL): the session ended.
    void forget();

  private:
    bool keeps(const std::string& file) const {
        return !file.empty() && file.rfind(own_package_dir_, 0) != 0 && file[0] != '<';
    }
    SourceFiles files_;
    std::string own_package_dir_;
    // Per code object, held (a reference of ours, so that its address names it alone while it
    // is a key): its file placed (nothing: a frame to leave out), and the line of each
    // instruction seen (Python finds a line by scanning the code's line table from its start,
    // for every frame of every operation: most of a deep step's cost of reading frames).
    struct Placed {
        bool keep = false;
        StackFrame frame;
        std::unordered_map<int, int> lines;
    };
    std::unordered_map<PyObject*, Placed> placed_;
};

// The module path stack: pushed by a forward pre-hook, popped by a forward hook.
class ModuleStack : public ModuleSource {
  public:
    void push(std::string path) { stack_.push_back(std::move(path)); }
    // The module `path` returned: it leaves the stack, with any module above it whose forward
    // raised and never returned (an exception that the caller caught).
    void pop(const std::string& path) {
        for (size_t i = stack_.size(); i-- > 0;) {
            if (stack_[i] == path) {
                stack_.resize(i);
                return;
            }
        }
    }
    void clear() { stack_.clear(); }
    std::string currentModulePath() override { return stack_.empty() ? "" : stack_.back(); }

  private:
    std::vector<std::string> stack_;
};

}  // namespace trainscope::python
