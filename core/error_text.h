// SPDX-License-Identifier: Apache-2.0
// LibTorch's exceptions carry multi-line texts (C++ backtraces, TorchScript tracebacks).
// Users get one line: the cause, without the noise.
#pragma once

#include <exception>
#include <string>

namespace trainscope {

std::string oneLineMessage(const std::exception& error);

// Whether LibTorch's error says that an allocation failed (CUDA's "out of memory", the CPU
// allocator's "can't allocate memory", std::bad_alloc).
bool isOutOfMemory(const std::exception& error);

}  // namespace trainscope
