// SPDX-License-Identifier: Apache-2.0
// Builds a built-in model from its TorchScript source and its parameters.
#pragma once

#include <c10/core/TensorOptions.h>
#include <torch/csrc/jit/api/module.h>

#include <map>
#include <string>
#include <vector>

#include "trainscope/run_config.h"

namespace trainscope {

struct BuiltModel {
    torch::jit::Module module;
    std::vector<InputSpec> default_inputs;
    LossKind default_loss = LossKind::Sum;
};

// Throws trainscope::Error for an unknown model or parameter, or a bad parameter value.
void validateBuiltinParams(const std::string& name,
                           const std::map<std::string, std::string>& params);

// Parameters are created with `options` (dtype, device) and initialised as PyTorch's own
// layers would be, from the current random seed.
BuiltModel buildBuiltinModel(const std::string& name,
                             const std::map<std::string, std::string>& params,
                             const c10::TensorOptions& options);

}  // namespace trainscope
