// SPDX-License-Identifier: Apache-2.0
// Maps the TorchScript interpreter's call stack to source frames: the original file and line of
// each frame, placed as trainscope/source_files.h places files.
#pragma once

#include <torch/csrc/jit/frontend/source_range.h>

#include <vector>

#include "trainscope/call_site.h"
#include "trainscope/reports.h"
#include "trainscope/source_files.h"

namespace trainscope {

class SourceLocator : public SourceFiles {
  public:
    using SourceFiles::SourceFiles;

    // `stack` as torch::jit::currentCallstack() returns it, which is most specific first, the
    // order of the reports (checked by the stack-frame tests).
    StackTrace frames(const std::vector<torch::jit::StackEntry>& stack);
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
