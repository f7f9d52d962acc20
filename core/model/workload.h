// SPDX-License-Identifier: Apache-2.0
// One instance of the user's training setup: the model (an archive or a built-in), its
// inputs, the loss and the optimizer, and the training iteration that runs them.
#pragma once

#include <torch/csrc/jit/api/module.h>
#include <torch/optim/optimizer.h>

#include <memory>
#include <string>
#include <vector>

#include "tracking/iteration_listener.h"
#include "trainscope/run_config.h"

namespace trainscope {

// A parameter tensor of the model. A tensor that several attributes name (tied weights,
// `head.weight = wte.weight`) is one parameter: `name` is its first name, `aliases` the others;
// it is trained, and counted, once.
struct NamedParameter {
    std::string name;
    torch::Tensor tensor;
    std::vector<std::string> aliases = {};
};

class Workload {
  public:
    // Seeds the random generators, loads or builds the model, creates the inputs.
    // Throws trainscope::Error with a one-line message for a bad model or input.
    explicit Workload(const RunConfig& config);
    ~Workload();

    // One training iteration: clear gradients, forward, loss, backward, optimizer step.
    void runIteration(IterationListener& listener);

    const std::vector<NamedParameter>& parameters() const { return parameters_; }
    // The tensors the optimizer keeps for parameter `index` between steps (Adam's moments,
    // SGD's momentum); none before the first step or without an optimizer.
    std::vector<torch::Tensor> optimizerState(size_t index) const;
    const torch::jit::Module& module() const { return module_; }
    const std::string& projectRoot() const { return project_root_; }
    const std::vector<InputSpec>& inputSpecs() const { return input_specs_; }
    LossKind loss() const { return loss_; }

  private:
    torch::Tensor computeLoss(const c10::IValue& output);
    void loadInputs(const std::string& path, c10::Device device);

    RunConfig config_;
    torch::jit::Module module_;
    std::vector<c10::IValue> inputs_;
    std::vector<InputSpec> input_specs_;
    LossKind loss_ = LossKind::Sum;
    torch::Tensor target_;  // mse and cross-entropy targets, made on the first iteration
    std::vector<NamedParameter> parameters_;
    std::unique_ptr<torch::optim::Optimizer> optimizer_;
    std::string project_root_;
};

// The parts of a model reference: "builtin:mlp" -> {true, "mlp"}; a path -> {false, path}.
struct ModelRef {
    bool builtin;
    std::string name;
};
ModelRef parseModelRef(const std::string& model);

}  // namespace trainscope
