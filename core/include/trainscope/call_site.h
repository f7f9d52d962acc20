// SPDX-License-Identifier: Apache-2.0
// Where an operation is called from: its source frames and its module. Each is a small source
// with one implementation per kind of code: TorchScript's call stack and the archive's module
// hierarchy for archives (core/tracking), Python's frames and nn.Module hooks for a user's
// eager step (python/). The operation observer asks them as each top-level operation starts,
// on the thread that runs it.
#pragma once

#include <string>

#include "trainscope/reports.h"

namespace trainscope {

class FrameSource {
  public:
    virtual ~FrameSource() = default;
    // The calling code's frames, most specific first: project frames relative to the project
    // root, library frames with their library's root (StackFrame).
    virtual StackTrace currentFrames() = 0;
};

class ModuleSource {
  public:
    virtual ~ModuleSource() = default;
    // The module whose forward is running now, as PyTorch names it ("blocks.0.attn"); empty:
    // the model itself, or code outside every module.
    virtual std::string currentModulePath() = 0;
};

}  // namespace trainscope
