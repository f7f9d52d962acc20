#include "model/builtin_builder.h"

#include <torch/torch.h>

#include <cmath>
#include <filesystem>
#include <functional>

#include "model/script_source.h"
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
    }

    int64_t integer(const std::string& key) const { return std::stoll(values_.at(key)); }
    double number(const std::string& key) const { return std::stod(values_.at(key)); }
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

using Builder =
    std::function<BuiltModel(const ScriptSource&, const Params&, const torch::TensorOptions&)>;

BuiltModel buildMlp(const ScriptSource& source, const Params& params,
                    const torch::TensorOptions& options) {
    const int64_t d = params.integer("d_model");
    torch::jit::Module mlp = source.newModule("MLP");
    mlp.register_module("lin_0", linear(source, d, 4 * d, options));
    mlp.register_module("lin_1", linear(source, 4 * d, d, options));
    mlp.register_attribute("act", c10::StringType::get(), params.text("act"));
    mlp.register_attribute("dropout", c10::FloatType::get(), params.number("dropout"));
    source.defineMethods(mlp, "MLP");
    return {mlp, {InputSpec{{2, 1024, d}, std::nullopt, 2}}, LossKind::Sum, {}};
}

const std::map<std::string, Builder>& builders() {
    static const std::map<std::string, Builder> table = {{"mlp", buildMlp}};
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
    const std::string dir = builtinModelsDir();
    const ScriptSource source((std::filesystem::path(dir) / info.source_file).string());
    BuiltModel model = builders().at(name)(source, checked, options);
    model.source_dir = dir;
    return model;
}

}  // namespace trainscope
