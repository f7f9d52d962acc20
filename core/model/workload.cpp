// SPDX-License-Identifier: Apache-2.0
#include "model/workload.h"

#include <ATen/record_function.h>
#include <sys/sysinfo.h>

#include <torch/csrc/jit/serialization/import.h>
#include <torch/torch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unordered_map>
#include <utility>

#include "device/cuda.h"
#include "error_text.h"
#include "model/builtin_builder.h"
#include "torch_compat.h"
#include "trainscope/builtin_models.h"
#include "trainscope/error.h"

namespace fs = std::filesystem;

namespace trainscope {
namespace {

constexpr const char* kBuiltinPrefix = "builtin:";

// TrainScope's data types and LibTorch's, one pair each, read in both directions.
constexpr std::pair<DType, torch::ScalarType> kDTypes[] = {
    {DType::Float32, torch::kFloat32}, {DType::BFloat16, torch::kBFloat16},
    {DType::Float16, torch::kFloat16}, {DType::Int64, torch::kInt64},
    {DType::Int32, torch::kInt32},     {DType::Bool, torch::kBool},
};

torch::Dtype torchDtype(DType dtype) {
    for (const auto& [ours, theirs] : kDTypes) {
        if (ours == dtype) {
            return theirs;
        }
    }
    return torch::kFloat32;
}

std::optional<DType> fromTorchDtype(torch::ScalarType type) {
    for (const auto& [ours, theirs] : kDTypes) {
        if (theirs == type) {
            return ours;
        }
    }
    return std::nullopt;
}

torch::Device torchDevice(Device device) {
    return device == Device::Cuda ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
}

torch::Tensor makeInput(const InputSpec& spec, DType run_dtype, torch::Device device) {
    const DType dtype = spec.dtype.value_or(run_dtype);
    const auto options = torch::TensorOptions().dtype(torchDtype(dtype)).device(device);
    switch (dtype) {
        case DType::Float32:
        case DType::BFloat16:
        case DType::Float16:
            return torch::randn(spec.shape, options);
        case DType::Bool:
            return torch::randint(0, 2, spec.shape, options);
        default:
            return torch::randint(0, spec.high, spec.shape, options);
    }
}

// All the memory `device` has (the CPU's: RAM and swap), or none where it cannot be read.
std::optional<int64_t> memoryInAll(torch::Device device) {
    if (device.is_cuda()) {
        const auto gpu = cuda::deviceInfo();
        return gpu ? std::optional<int64_t>(gpu->total_bytes) : std::nullopt;
    }
    struct sysinfo info {};
    if (sysinfo(&info) != 0) {
        return std::nullopt;
    }
    return static_cast<int64_t>((info.totalram + info.totalswap) * uint64_t{info.mem_unit});
}

// makeInput(), with a one-line message for a shape whose size overflows or does not fit in
// memory (instead of LibTorch's multi-line error with a backtrace). A size beyond all the
// memory the device has is refused before allocating: where the kernel overcommits memory
// (vm.overcommit_memory=1), a 10 TB tensor is allocated and then filled until the process is
// killed.
torch::Tensor makeCheckedInput(const InputSpec& spec, DType run_dtype, torch::Device device,
                               size_t index) {
    const std::string which = "input " + std::to_string(index + 1) + " (" + toString(spec) + ")";
    int64_t bytes = torch::elementSize(torchDtype(spec.dtype.value_or(run_dtype)));
    for (int64_t dim : spec.shape) {
        if (__builtin_mul_overflow(bytes, dim, &bytes)) {
            throw Error(which + " is too large: its size in bytes overflows 64 bits");
        }
    }
    const std::optional<int64_t> in_all = memoryInAll(device);
    if (in_all && bytes > *in_all) {
        throw OutOfMemory(
            which + " does not fit in memory: it needs " + std::to_string(bytes) +
            " bytes, and the " + (device.is_cuda() ? "CUDA device has " : "machine has ") +
            std::to_string(*in_all) + (device.is_cuda() ? " bytes" : " bytes of RAM and swap"));
    }
    try {
        return makeInput(spec, run_dtype, device);
    } catch (const std::bad_alloc&) {
        throw OutOfMemory(which + " does not fit in memory: it needs " + std::to_string(bytes) +
                          " bytes");
    } catch (const std::exception& e) {
        if (isOutOfMemory(e)) {
            throw OutOfMemory(which + " does not fit in memory: it needs " + std::to_string(bytes) +
                              " bytes");
        }
        throw Error("cannot make " + which + " (" + std::to_string(bytes) +
                    " bytes): " + oneLineMessage(e));
    }
}

std::string shapeText(const torch::Tensor& tensor) {
    std::string text = "[";
    for (int64_t i = 0; i < tensor.dim(); ++i) {
        text += (i ? ", " : "") + std::to_string(tensor.size(i));
    }
    return text + "]";
}

// Moves every parameter and buffer to `device` and casts the floating-point ones to `dtype`.
// Module::to(device, dtype) would cast integer and bool state too: index buffers (swin's
// relative_position_index) then fail as indices, and BatchNorm's num_batches_tracked turns
// into a float.
void moveState(torch::jit::Module& module, torch::Device device, torch::Dtype dtype) {
    torch::NoGradGuard no_grad;
    auto move = [&](const torch::Tensor& tensor) {
        tensor.set_data(
            tensor.to(device, tensor.is_floating_point() ? dtype : tensor.scalar_type()));
    };
    for (const torch::Tensor& parameter : module.parameters(/*recurse=*/true)) {
        move(parameter);
    }
    for (const torch::Tensor& buffer : module.buffers(/*recurse=*/true)) {
        move(buffer);
    }
}

torch::jit::Module loadArchive(const std::string& path, torch::Device device) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        throw Error("model file not found: '" + path + "'");
    }
    if (!fs::is_regular_file(path, ec)) {
        throw Error("model path is not a file: '" + path + "'");
    }
    try {
        return torch::jit::load(path, device);
    } catch (const std::exception& e) {
        throw Error("'" + path + "' is not a loadable TorchScript archive: " + oneLineMessage(e));
    }
}

}  // namespace

ModelRef parseModelRef(const std::string& model) {
    if (model.rfind(kBuiltinPrefix, 0) == 0) {
        return {true, model.substr(std::string(kBuiltinPrefix).size())};
    }
    return {false, model};
}

void validateConfig(const RunConfig& config) {
    if (config.model.empty()) {
        throw Error("no model given (a TorchScript archive, or builtin:NAME)");
    }
    const ModelRef ref = parseModelRef(config.model);
    if (ref.builtin) {
        validateBuiltinParams(ref.name, config.params);
    } else {
        std::error_code ec;
        if (!fs::exists(ref.name, ec)) {
            throw Error("model file not found: '" + ref.name + "'");
        }
        if (!config.params.empty()) {
            throw Error("--param applies to built-in models only; '" + ref.name +
                        "' is an archive");
        }
        if (config.inputs.empty() && config.inputs_file.empty()) {
            throw Error(
                "a TorchScript archive needs its inputs (--input SHAPE, one per argument, or "
                "--inputs FILE)");
        }
    }
    if (config.device == Device::Cuda && !cudaAvailable()) {
        throw Error(at::Context::hasCUDA()
                        ? "--device cuda: no CUDA device is visible to this process"
                        : "--device cuda: this TrainScope was built against a LibTorch "
                          "without CUDA support");
    }
    if (config.warmup < 0 || config.warmup > kMaxWarmup || config.iterations < 1 ||
        config.iterations > kMaxIterations) {
        throw Error("warm-up iterations must be 0 to " + std::to_string(kMaxWarmup) +
                    " and measured iterations 1 to " + std::to_string(kMaxIterations));
    }
    for (const InputSpec& spec : config.inputs) {
        if (spec.shape.empty()) {
            throw Error("an input has no shape");
        }
    }
    if (!config.inputs_file.empty()) {
        if (!config.inputs.empty()) {
            throw Error(
                "give the inputs either as shapes (--input) or as a file (--inputs), "
                "not both");
        }
        if (config.batch_size) {
            throw Error("--batch-size cannot change the inputs saved in '" + config.inputs_file +
                        "'; export them again with the batch size you want");
        }
        std::error_code ec;
        if (!fs::is_regular_file(config.inputs_file, ec)) {
            throw Error("inputs file not found: '" + config.inputs_file + "'");
        }
    }
    if (config.batch_size && *config.batch_size <= 0) {
        throw Error("--batch-size must be positive");
    }
    std::error_code ec;
    if (!config.project_root.empty() && !fs::is_directory(config.project_root, ec)) {
        throw Error("project root is not a folder: '" + config.project_root + "'");
    }
    for (const std::string& root : config.frames_roots) {
        if (!fs::is_directory(root, ec)) {
            throw Error("frames root is not a folder: '" + root + "'");
        }
    }
}

std::string defaultProjectRoot(const RunConfig& config) {
    const ModelRef ref = parseModelRef(config.model);
    if (ref.builtin) {
        return builtinModelsDir();
    }
    const fs::path folder = fs::absolute(ref.name).parent_path();
    std::ifstream recorded(folder / kExportedRootFile);
    std::string root;
    std::error_code ec;
    if (recorded && std::getline(recorded, root) && !root.empty() && fs::is_directory(root, ec)) {
        return root;
    }
    return folder.string();
}

bool cudaAvailable() {
    return torch::cuda::is_available();
}

Workload::Workload(const RunConfig& config) : config_(config) {
    validateConfig(config_);
    torch::manual_seed(config_.seed);
    const torch::Device device = torchDevice(config_.device);
    const ModelRef ref = parseModelRef(config_.model);
    LossKind default_loss = LossKind::Sum;
    if (ref.builtin) {
        const auto options = torch::TensorOptions().dtype(torchDtype(config_.dtype)).device(device);
        BuiltModel built = buildBuiltinModel(ref.name, config_.params, options);
        module_ = built.module;
        input_specs_ = config_.inputs.empty() ? built.default_inputs : config_.inputs;
        default_loss = built.default_loss;
    } else {
        module_ = loadArchive(ref.name, device);
        moveState(module_, device, torchDtype(config_.dtype));
        input_specs_ = config_.inputs;
    }
    project_root_ =
        config_.project_root.empty() ? defaultProjectRoot(config_) : config_.project_root;
    loss_ = config_.loss.value_or(default_loss);
    module_.train();

    if (!config_.inputs_file.empty()) {
        loadInputs(config_.inputs_file, device);
    } else {
        for (InputSpec& spec : input_specs_) {
            if (config_.batch_size) {
                spec.shape[0] = *config_.batch_size;
            }
            inputs_.emplace_back(makeCheckedInput(spec, config_.dtype, device, inputs_.size()));
        }
    }

    std::vector<torch::Tensor> trainable;
    // A TorchScript module lists a tied tensor under each attribute that names it; eager
    // PyTorch's parameters() yields it once, and so do we.
    std::unordered_map<const c10::TensorImpl*, size_t> seen;
    for (const auto& named : module_.named_parameters(/*recurse=*/true)) {
        const auto [it, first] =
            seen.emplace(named.value.unsafeGetTensorImpl(), parameters_.size());
        if (!first) {
            parameters_[it->second].aliases.push_back(named.name);
            continue;
        }
        parameters_.push_back({named.name, named.value});
        if (named.value.requires_grad()) {
            trainable.push_back(named.value);
        }
    }
    if (trainable.empty()) {
        throw Error("the model has no parameters that require gradients; nothing to train");
    }
    switch (config_.optimizer) {
        case OptimizerKind::None:
            break;
        case OptimizerKind::Sgd:
            optimizer_ =
                std::make_unique<torch::optim::SGD>(trainable, torch::optim::SGDOptions(1e-3));
            break;
        case OptimizerKind::Adam:
            optimizer_ =
                std::make_unique<torch::optim::Adam>(trainable, torch::optim::AdamOptions(1e-3));
            break;
    }
}

Workload::~Workload() = default;

std::vector<torch::Tensor> Workload::optimizerState(size_t index) const {
    if (!optimizer_) {
        return {};
    }
    const auto& states = optimizer_->state();
    const auto it =
        compat::findParameterState(states, parameters_.at(index).tensor.unsafeGetTensorImpl());
    if (it == states.end()) {
        return {};
    }
    std::vector<torch::Tensor> tensors;
    if (const auto* adam = dynamic_cast<const torch::optim::AdamParamState*>(it->second.get())) {
        tensors = {adam->exp_avg(), adam->exp_avg_sq(), adam->max_exp_avg_sq()};
    } else if (const auto* sgd =
                   dynamic_cast<const torch::optim::SGDParamState*>(it->second.get())) {
        tensors = {sgd->momentum_buffer()};
    }
    tensors.erase(std::remove_if(tensors.begin(), tensors.end(),
                                 [](const torch::Tensor& t) { return !t.defined(); }),
                  tensors.end());
    return tensors;
}

// An inputs file is a TorchScript module whose buffers input_0, input_1, ... are the forward
// arguments (tools/trainscope-export writes it; LibTorch can read it whatever PyTorch wrote).
// Floating inputs take the run's dtype, like the model's parameters.
void Workload::loadInputs(const std::string& path, torch::Device device) {
    torch::jit::Module saved;
    try {
        saved = torch::jit::load(path, device);
    } catch (const std::exception& e) {
        throw Error("'" + path +
                    "' is not an inputs file written by trainscope-export: " + oneLineMessage(e));
    }
    std::map<int, torch::Tensor> by_index;
    for (const auto& buffer : saved.named_buffers(/*recurse=*/false)) {
        if (buffer.name.rfind("input_", 0) == 0) {
            by_index[std::stoi(buffer.name.substr(6))] = buffer.value;
        }
    }
    if (by_index.empty() || by_index.rbegin()->first != static_cast<int>(by_index.size()) - 1) {
        throw Error("'" + path +
                    "' holds no inputs input_0, input_1, ... (write it with "
                    "tools/trainscope-export)");
    }
    input_specs_.clear();
    for (auto& [index, tensor] : by_index) {
        torch::Tensor input = tensor.to(device);
        if (input.is_floating_point()) {
            input = input.to(torchDtype(config_.dtype));
        }
        InputSpec spec;
        spec.shape = input.sizes().vec();
        spec.dtype = fromTorchDtype(input.scalar_type());
        input_specs_.push_back(spec);
        inputs_.emplace_back(input.detach());
    }
}

namespace {

// The loss target is made once, in the first iteration: outside autograd, and invisible to
// the operation observer, so that the first iteration runs the same operations as the rest.
struct TargetGuard {
    torch::NoGradGuard no_grad;
    at::DisableRecordFunctionGuard no_record;
};

}  // namespace

torch::Tensor Workload::computeLoss(const c10::IValue& output) {
    torch::Tensor out;
    if (output.isTensor()) {
        out = output.toTensor();
    } else if (output.isTuple() && !output.toTupleRef().elements().empty() &&
               output.toTupleRef().elements()[0].isTensor()) {
        out = output.toTupleRef().elements()[0].toTensor();
    } else if (output.isTensorList() && !output.toTensorVector().empty()) {
        out = output.toTensorVector()[0];
    } else {
        throw Error("the model returned " + output.tagKind() +
                    "; TrainScope needs a tensor (or a tuple whose first element is one)");
    }
    switch (loss_) {
        case LossKind::Sum:
            return out.sum();
        case LossKind::Mse:
            if (!target_.defined()) {
                TargetGuard quiet;
                target_ = torch::randn_like(out);
            }
            return torch::mse_loss(out, target_);
        case LossKind::CrossEntropy: {
            if (out.dim() < 1 || !out.is_floating_point()) {
                throw Error(
                    "loss cross-entropy needs floating class scores, but the model "
                    "returned a tensor of shape " +
                    shapeText(out));
            }
            const int64_t classes = out.size(-1);
            torch::Tensor logits = out.reshape({-1, classes});
            if (!target_.defined()) {
                TargetGuard quiet;
                target_ = torch::randint(
                    0, classes, {logits.size(0)},
                    torch::TensorOptions().dtype(torch::kInt64).device(out.device()));
            }
            return torch::nn::functional::cross_entropy(logits, target_);
        }
        case LossKind::Model:
            if (out.numel() != 1) {
                throw Error(
                    "loss 'model' needs the forward to return the loss, a scalar, but it "
                    "returned a tensor of shape " +
                    shapeText(out));
            }
            return out.reshape({});
    }
    return out.sum();
}

void Workload::runIteration(IterationListener& listener) {
    for (NamedParameter& parameter : parameters_) {
        parameter.tensor.mutable_grad().reset();  // zero_grad(set_to_none=True)
    }
    listener.forwardBegins();
    // The output stays alive through the backward pass, as in a Python training loop
    // (`out = model(x); loss = loss_fn(out); loss.backward()`): it is activation memory.
    c10::IValue output;
    torch::Tensor loss;
    try {
        output = module_.forward(inputs_);
        loss = computeLoss(output);
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        if (isOutOfMemory(e)) {
            throw OutOfMemory("out of memory in the forward pass: " + oneLineMessage(e));
        }
        throw Error("the model failed on its inputs: " + oneLineMessage(e));
    }
    if (!loss.requires_grad()) {
        throw Error("the loss does not depend on any parameter that requires gradients");
    }
    listener.backwardBegins();
    try {
        loss.backward();
    } catch (const std::exception& e) {
        if (isOutOfMemory(e)) {
            throw OutOfMemory("out of memory in the backward pass: " + oneLineMessage(e));
        }
        throw Error("the backward pass failed: " + oneLineMessage(e));
    }
    listener.backwardEnded();
    loss.reset();
    output = c10::IValue();
    if (optimizer_) {
        optimizer_->step();
    }
    if (config_.device == Device::Cuda) {
        cuda::synchronize();  // the iteration ends when the GPU's work does
    }
    listener.iterationEnded();
}

}  // namespace trainscope
