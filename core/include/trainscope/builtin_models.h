// SPDX-License-Identifier: Apache-2.0
// The built-in models: TorchScript sources under resources/models, compiled at run time.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace trainscope {

enum class ParamKind { PositiveInt, Probability, Choice };

struct BuiltinParameter {
    std::string name;
    std::string default_value;
    std::string description;
    ParamKind kind = ParamKind::PositiveInt;
    std::vector<std::string> choices;  // for ParamKind::Choice
};

// Checks a value against the parameter's kind; returns an empty string when it is valid,
// otherwise what was expected ("a positive integer", "one of relu, gelu, tanh").
std::string checkParameterValue(const BuiltinParameter& parameter, const std::string& value);

struct BuiltinModelInfo;

// Checks what single values cannot show (the transformer's d_model must be a multiple of
// n_heads, resnet's depth 2 + 8n). `values` holds every parameter, defaults filled in.
// Returns an empty string when the combination is valid, otherwise the one-line problem.
std::string checkParameterCombination(const BuiltinModelInfo& model,
                                      const std::map<std::string, std::string>& values);

struct BuiltinModelInfo {
    std::string name;
    std::string description;
    std::string source_file;  // file name under the models folder
    std::vector<BuiltinParameter> parameters;
    std::string default_inputs;  // shown to users, e.g. "2x1024x{d_model}"
    std::string default_loss;
};

const std::vector<BuiltinModelInfo>& builtinModels();
const BuiltinModelInfo* findBuiltinModel(const std::string& name);

// The folder holding the built-in sources: $TRAINSCOPE_MODELS_DIR, the installed share
// folder next to the executable, or the source tree it was built from.
std::string builtinModelsDir();

}  // namespace trainscope
