// SPDX-License-Identifier: Apache-2.0
#include "model/builtin_builder.h"

#include <torch/torch.h>
#include <torch/version.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <optional>

#include "decimal_text.h"
#include "model/script_source.h"
#include "torch_compat.h"
#include "trainscope/builtin_models.h"
#include "trainscope/error.h"

namespace trainscope {
namespace {

const BuiltinModelInfo& infoOf(const std::string& name) {
    const BuiltinModelInfo* info = findBuiltinModel(name);
    if (!info) {
        std::string known;
        for (const BuiltinModelInfo& model : builtinModels()) {
            known += (known.empty() ? "" : ", ") + model.name;
        }
        throw Error("unknown built-in model '" + name + "' (available: " + known + ")");
    }
    return *info;
}

// A built-in's parameters: the user's values over the defaults, all checked on construction.
class Params {
  public:
    Params(const BuiltinModelInfo& info, const std::map<std::string, std::string>& given) {
        std::string known;
        for (const BuiltinParameter& p : info.parameters) {
            values_[p.name] = p.default_value;
            known += (known.empty() ? "" : ", ") + p.name;
        }
        for (const auto& [key, value] : given) {
            if (!values_.count(key)) {
                throw Error("unknown parameter '" + key + "' for built-in model '" + info.name +
                            "' (known: " + known + ")");
            }
            values_[key] = value;
        }
        for (const BuiltinParameter& p : info.parameters) {
            const std::string expected = checkParameterValue(p, values_[p.name]);
            if (!expected.empty()) {
                throw Error("parameter '" + p.name + "' of built-in model '" + info.name +
                            "' must be " + expected + ", not '" + values_[p.name] + "'");
            }
        }
        if (const std::string problem = checkParameterCombination(info, values_);
            !problem.empty()) {
            throw Error(problem);
        }
    }

    int64_t integer(const std::string& key) const { return std::stoll(values_.at(key)); }
    double number(const std::string& key) const {
        return parseDecimal(values_.at(key)).value_or(0.0);  // checked by the registry
    }
    const std::string& text(const std::string& key) const { return values_.at(key); }

  private:
    std::map<std::string, std::string> values_;
};

torch::Tensor uniformParameter(std::vector<int64_t> shape, double bound,
                               const torch::TensorOptions& options) {
    // Drawn in float32 then converted, so every dtype starts from the same values.
    torch::Tensor value = torch::empty(shape, torch::kFloat32).uniform_(-bound, bound);
    return value.to(options).requires_grad_(true);
}

// nn.Linear's layout and initialisation (kaiming_uniform with a = sqrt(5): bound 1/sqrt(in)).
torch::jit::Module linear(const ScriptSource& source, int64_t in, int64_t out,
                          const torch::TensorOptions& options) {
    const double bound = 1.0 / std::sqrt(static_cast<double>(in));
    torch::jit::Module module = source.newModule("Linear");
    module.register_parameter("weight", uniformParameter({out, in}, bound, options), false);
    module.register_parameter("bias", uniformParameter({out}, bound, options), false);
    source.defineMethods(module, "Linear");
    return module;
}

torch::jit::Module layerNorm(const ScriptSource& source, int64_t d,
                             const torch::TensorOptions& options) {
    torch::jit::Module module = source.newModule("LayerNorm");
    module.register_parameter("weight", torch::ones({d}, options).requires_grad_(true), false);
    module.register_parameter("bias", torch::zeros({d}, options).requires_grad_(true), false);
    source.defineMethods(module, "LayerNorm");
    return module;
}

// nn.Embedding's initialisation: N(0, 1).
torch::jit::Module embedding(const ScriptSource& source, int64_t count, int64_t d,
                             const torch::TensorOptions& options) {
    torch::jit::Module module = source.newModule("Embedding");
    module.register_parameter(
        "weight", torch::randn({count, d}, torch::kFloat32).to(options).requires_grad_(true),
        false);
    source.defineMethods(module, "Embedding");
    return module;
}

// nn.Conv2d without bias (followed by BatchNorm): kaiming_uniform, bound 1/sqrt(fan_in).
torch::jit::Module conv2d(const ScriptSource& source, int64_t in, int64_t out, int64_t kernel,
                          int64_t stride, const torch::TensorOptions& options) {
    const double bound = 1.0 / std::sqrt(static_cast<double>(in * kernel * kernel));
    torch::jit::Module module = source.newModule("Conv2d");
    module.register_parameter("weight", uniformParameter({out, in, kernel, kernel}, bound, options),
                              false);
    module.register_attribute("stride", c10::IntType::get(), stride);
    module.register_attribute("padding", c10::IntType::get(), kernel / 2);
    source.defineMethods(module, "Conv2d");
    return module;
}

torch::jit::Module batchNorm(const ScriptSource& source, int64_t channels,
                             const torch::TensorOptions& options) {
    torch::jit::Module module = source.newModule("BatchNorm2d");
    module.register_parameter("weight", torch::ones({channels}, options).requires_grad_(true),
                              false);
    module.register_parameter("bias", torch::zeros({channels}, options).requires_grad_(true),
                              false);
    module.register_buffer("running_mean", torch::zeros({channels}, options));
    module.register_buffer("running_var", torch::ones({channels}, options));
    source.defineMethods(module, "BatchNorm2d");
    return module;
}

// Gives every parameter of `module` (and its submodules) a fresh tensor: matrices and kernels
// drawn again with their layer's bound, vectors copied. Used for the copies of a block.
void freshParameters(torch::jit::Module& module) {
    torch::NoGradGuard no_grad;
    for (const torch::jit::NameModule& sub : module.named_modules()) {
        torch::jit::Module owner = sub.value;
        for (const torch::jit::NameTensor& parameter : owner.named_parameters(false)) {
            const torch::Tensor& old = parameter.value;
            torch::Tensor fresh;
            if (old.dim() >= 2) {
                const double bound = 1.0 / std::sqrt(static_cast<double>(old[0].numel()));
                fresh = torch::empty(old.sizes(), torch::kFloat32).uniform_(-bound, bound);
                fresh = fresh.to(old.options());
            } else {
                fresh = old.clone();
            }
            owner.register_parameter(parameter.name, fresh.detach().requires_grad_(true), false);
        }
    }
}

// A stack of blocks of one TorchScript type that a `for block in self.NAME` loop can iterate:
// copies of `first` in a list attribute NAME, each also a submodule NAME_i (so its parameters
// are named and trained). `first_index` numbers the submodules.
void registerBlockList(torch::jit::Module& parent, const std::string& name,
                       const torch::jit::Module& prototype, int64_t count, int64_t first_index) {
    c10::impl::GenericList blocks(prototype.type());
    for (int64_t i = 0; i < count; ++i) {
        torch::jit::Module block = i == 0 ? prototype : prototype.deepcopy();
        if (i > 0)
            freshParameters(block);
        parent.register_module(name + "_" + std::to_string(first_index + i), block);
        blocks.push_back(block._ivalue());
    }
    parent.register_attribute(name, c10::ListType::create(prototype.type()), blocks);
}

using Builder =
    std::function<BuiltModel(const ScriptSource&, const Params&, const torch::TensorOptions&)>;

// The MLP class of mlp.py and of transformer.py: Linear(d, 4d), activation, Linear(4d, d);
// mlp.py's also takes a dropout probability.
torch::jit::Module mlpBlock(const ScriptSource& source, int64_t d, const std::string& act,
                            std::optional<double> dropout, const torch::TensorOptions& options) {
    torch::jit::Module mlp = source.newModule("MLP");
    mlp.register_module("lin_0", linear(source, d, 4 * d, options));
    mlp.register_module("lin_1", linear(source, 4 * d, d, options));
    mlp.register_attribute("act", c10::StringType::get(), act);
    if (dropout) {
        mlp.register_attribute("dropout", c10::FloatType::get(), *dropout);
    }
    source.defineMethods(mlp, "MLP");
    return mlp;
}

BuiltModel buildMlp(const ScriptSource& source, const Params& params,
                    const torch::TensorOptions& options) {
    const int64_t d = params.integer("d_model");
    return {mlpBlock(source, d, params.text("act"), params.number("dropout"), options),
            {InputSpec{{2, 1024, d}, std::nullopt, 2}},
            LossKind::Sum};
}

BuiltModel buildTransformer(const ScriptSource& source, const Params& params,
                            const torch::TensorOptions& options) {
    const int64_t vocab = params.integer("vocab");
    const int64_t d = params.integer("d_model");
    const int64_t heads_count = params.integer("n_heads");
    const int64_t seq = params.integer("seq_len");
    const bool fused = params.text("attention") == "sdpa";
    if (fused && !compat::hasScaledDotProductAttention()) {
        throw Error(
            "attention=sdpa needs a LibTorch with scaled_dot_product_attention (2.0 or later); "
            "this one is " TORCH_VERSION);
    }
    const char* heads_class = fused ? "FusedHeads" : "MathHeads";
    torch::jit::Module heads = source.newModule(heads_class);
    if (!fused) {
        heads.register_buffer(
            "causal_mask",
            torch::ones({seq, seq},
                        torch::TensorOptions().dtype(torch::kBool).device(options.device()))
                .triu(1));
    }
    source.defineMethods(heads, heads_class);
    torch::jit::Module attn = source.newModule("Attention");
    attn.register_module("qkv", linear(source, d, 3 * d, options));
    attn.register_module("heads", heads);
    attn.register_module("proj", linear(source, d, d, options));
    attn.register_attribute("n_heads", c10::IntType::get(), heads_count);
    source.defineMethods(attn, "Attention");
    torch::jit::Module block = source.newModule("Block");
    block.register_module("ln_1", layerNorm(source, d, options));
    block.register_module("attn", attn);
    block.register_module("ln_2", layerNorm(source, d, options));
    block.register_module("mlp", mlpBlock(source, d, params.text("act"), std::nullopt, options));
    source.defineMethods(block, "Block");

    torch::jit::Module gpt = source.newModule("GPT");
    gpt.register_module("wte", embedding(source, vocab, d, options));
    gpt.register_module("wpe", embedding(source, seq, d, options));
    registerBlockList(gpt, "blocks", block, params.integer("n_layers"), 0);
    gpt.register_module("ln_f", layerNorm(source, d, options));
    torch::jit::Module head = source.newModule("Head");
    head.register_parameter(
        "weight", uniformParameter({vocab, d}, 1.0 / std::sqrt(double(d)), options), false);
    source.defineMethods(head, "Head");
    gpt.register_module("lm_head", head);
    source.defineMethods(gpt, "GPT");
    return {gpt, {InputSpec{{8, seq}, DType::Int64, vocab}}, LossKind::CrossEntropy};
}

// The two 3x3 convolutions of a basic block, each followed by BatchNorm; the first one may
// change the channels and the resolution.
void registerConvPair(torch::jit::Module& block, const ScriptSource& source, int64_t in,
                      int64_t out, int64_t stride, const torch::TensorOptions& options) {
    block.register_module("conv1", conv2d(source, in, out, 3, stride, options));
    block.register_module("bn1", batchNorm(source, out, options));
    block.register_module("conv2", conv2d(source, out, out, 3, 1, options));
    block.register_module("bn2", batchNorm(source, out, options));
}

torch::jit::Module basicBlock(const ScriptSource& source, int64_t channels,
                              const torch::TensorOptions& options) {
    torch::jit::Module block = source.newModule("BasicBlock");
    registerConvPair(block, source, channels, channels, 1, options);
    source.defineMethods(block, "BasicBlock");
    return block;
}

// The first block of stages 2-4: half the resolution, twice the channels, projected shortcut.
torch::jit::Module downBlock(const ScriptSource& source, int64_t in, int64_t out,
                             const torch::TensorOptions& options) {
    torch::jit::Module block = source.newModule("DownBlock");
    registerConvPair(block, source, in, out, 2, options);
    block.register_module("down_conv", conv2d(source, in, out, 1, 2, options));
    block.register_module("down_bn", batchNorm(source, out, options));
    source.defineMethods(block, "DownBlock");
    return block;
}

BuiltModel buildResnet(const ScriptSource& source, const Params& params,
                       const torch::TensorOptions& options) {
    const int64_t depth = params.integer("depth");
    const int64_t width = params.integer("width");
    const int64_t image = params.integer("image_size");
    const int64_t classes = params.integer("classes");
    const int64_t blocks_per_stage = (depth - 2) / 8;
    torch::jit::Module net = source.newModule("ResNet");
    net.register_module("conv", conv2d(source, 3, width, 7, 2, options));
    net.register_module("bn", batchNorm(source, width, options));
    registerBlockList(net, "layer1", basicBlock(source, width, options), blocks_per_stage, 0);
    for (int stage = 2; stage <= 4; ++stage) {
        const int64_t out = width << (stage - 1);
        const std::string name = "layer" + std::to_string(stage);
        net.register_module(name + "_0", downBlock(source, out / 2, out, options));
        registerBlockList(net, name, basicBlock(source, out, options), blocks_per_stage - 1, 1);
    }
    net.register_module("fc", linear(source, 8 * width, classes, options));
    source.defineMethods(net, "ResNet");
    return {net, {InputSpec{{8, 3, image, image}, std::nullopt, 2}}, LossKind::CrossEntropy};
}

const std::map<std::string, Builder>& builders() {
    static const std::map<std::string, Builder> table = {
        {"mlp", buildMlp}, {"transformer", buildTransformer}, {"resnet", buildResnet}};
    return table;
}

}  // namespace

void validateBuiltinParams(const std::string& name,
                           const std::map<std::string, std::string>& params) {
    Params checked(infoOf(name), params);
    (void)checked;
}

BuiltModel buildBuiltinModel(const std::string& name,
                             const std::map<std::string, std::string>& params,
                             const torch::TensorOptions& options) {
    const BuiltinModelInfo& info = infoOf(name);
    const Params checked(info, params);
    const ScriptSource source(
        (std::filesystem::path(builtinModelsDir()) / info.source_file).string());
    return builders().at(name)(source, checked, options);
}

}  // namespace trainscope
