// SPDX-License-Identifier: Apache-2.0
// Frames of the Python calls that torch.profiler records (`with_stack`). Their files are named
// as Python imported them, with the `sys.path` folder they were found in taken off
// ("torch/nn/modules/linear.py", "typing.py", "train.py"): which of them are the user's is not in
// the trace, so a frame is a library's when its first folder (or its module) is a library that
// PyTorch users train with or Python's own, and the project's otherwise.
#pragma once

#include <optional>
#include <string>

#include "trainscope/reports.h"

namespace trainscope {

// The library root named for a library frame of an imported trace: where Python found it is
// not recorded.
inline constexpr char kInstalledPackagesRoot[] = "site-packages";
inline constexpr char kPythonStandardRoot[] = "python";

// "file.py:30" (a python_function's CallFrom) as a frame; nothing when it has no line. An
// absolute path is placed by its folders (site-packages, dist-packages, lib/python3.x).
std::optional<StackFrame> pythonFrame(const std::string& call_from);

// "nn.Module: Linear_0": the module's name in the trace ("Linear_0"), or "".
std::string traceModuleName(const std::string& python_call);

}  // namespace trainscope
