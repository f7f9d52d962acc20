// SPDX-License-Identifier: Apache-2.0
// The memory step's gradients as the step makes them. PyTorch 2.x's zero_grad() frees the
// gradients (set_to_none=True), and a loop that calls it after the optimizer's step has none
// left when the step ends: asked only then, the parameters named no gradient and the gradients
// alive at the peak read as "other". So the parameters are asked each time a backward pass
// ends (each micro-batch's) and again at the step's end, and each gradient block is known by
// its address and its allocation in the memory meter's record: a later block at the same
// address is not taken for it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "records/memory_record.h"
#include "tracking/iteration_listener.h"

namespace trainscope {

class MemoryObserver;
class ParameterSource;

class GradientSampler : public IterationListener {
  public:
    GradientSampler(ParameterSource* parameters, MemoryObserver* memory)
        : parameters_(parameters), memory_(memory) {}

    void backwardEnded() override { sample(); }
    // Asks the parameters for their gradients now. Never throws: it runs inside the step's
    // callbacks, and a host that cannot answer costs only this sample.
    void sample() noexcept;

    const GradientBlocks& blocks() const { return blocks_; }
    // The largest gradient seen of each parameter, by the parameter's name.
    const std::map<std::string, int64_t>& bytesByParameter() const { return bytes_; }

  private:
    ParameterSource* parameters_;
    MemoryObserver* memory_;
    GradientBlocks blocks_;
    std::map<std::string, int64_t> bytes_;
};

}  // namespace trainscope
