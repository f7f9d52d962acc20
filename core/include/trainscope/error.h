// SPDX-License-Identifier: Apache-2.0
// Errors the engine reports to its callers. Every message is one line that a user can act on.
#pragma once

#include <stdexcept>
#include <string>

namespace trainscope {

// A problem with the user's input, model or environment (bad file, wrong shape, unwritable
// output). The message names what is wrong; callers print it as is.
class Error : public std::runtime_error {
  public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// The device ran out of memory (the model at this size does not fit): a batch-size sweep takes
// it as the edge of what fits.
class OutOfMemory : public Error {
  public:
    explicit OutOfMemory(const std::string& message) : Error(message) {}
};

// The run was cancelled through its cancellation flag.
class Cancelled : public Error {
  public:
    Cancelled() : Error("the run was cancelled") {}
};

}  // namespace trainscope
