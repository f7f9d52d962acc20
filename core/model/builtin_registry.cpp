// SPDX-License-Identifier: Apache-2.0
// The list of built-in models and where their sources live. No LibTorch here: the CLI's
// `models` command and the GUI's dialog read it.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "decimal_text.h"
#include "trainscope/builtin_models.h"
#include "trainscope/translatable.h"

namespace fs = std::filesystem;

namespace trainscope {

const std::vector<BuiltinModelInfo>& builtinModels() {
    static const std::vector<BuiltinModelInfo> models = {
        {"mlp",
         TRAINSCOPE_TR("trainscope",
                       "Transformer MLP block: Linear(d, 4d), activation, Linear(4d, d), "
                       "dropout"),
         "mlp.py",
         {{"d_model",
           "1024",
           TRAINSCOPE_TR("trainscope", "model width d"),
           ParamKind::PositiveInt,
           {}},
          {"act",
           "gelu",
           TRAINSCOPE_TR("trainscope", "activation"),
           ParamKind::Choice,
           {"relu", "gelu", "tanh"}},
          {"dropout",
           "0",
           TRAINSCOPE_TR("trainscope", "dropout probability after lin_1 (0: none)"),
           ParamKind::Probability,
           {}}},
         "2x1024x{d_model}",
         "sum"},
        {"transformer",
         TRAINSCOPE_TR(
             "trainscope",
             "GPT-style decoder: token and position embeddings, n_layers pre-norm blocks of causal "
             "self-attention and MLP, final norm, LM head"),
         "transformer.py",
         {{"vocab",
           "8192",
           TRAINSCOPE_TR("trainscope", "vocabulary size"),
           ParamKind::PositiveInt,
           {}},
          {"d_model",
           "256",
           TRAINSCOPE_TR("trainscope", "model width d"),
           ParamKind::PositiveInt,
           {}},
          {"n_heads",
           "4",
           TRAINSCOPE_TR("trainscope", "attention heads (d_model must be a multiple)"),
           ParamKind::PositiveInt,
           {}},
          {"seq_len",
           "128",
           TRAINSCOPE_TR("trainscope", "sequence length (position embeddings)"),
           ParamKind::PositiveInt,
           {}},
          {"n_layers",
           "4",
           TRAINSCOPE_TR("trainscope", "decoder blocks"),
           ParamKind::PositiveInt,
           {}},
          {"act",
           "gelu",
           TRAINSCOPE_TR("trainscope", "MLP activation"),
           ParamKind::Choice,
           {"relu", "gelu"}},
          {"attention",
           "math",
           TRAINSCOPE_TR("trainscope",
                         "attention: matmul and softmax, or fused scaled_dot_product_attention "
                         "(sdpa: LibTorch 2.0 or later)"),
           ParamKind::Choice,
           {"math", "sdpa"}}},
         "8x{seq_len}:int64:{vocab}",
         "cross-entropy"},
        {"resnet",
         TRAINSCOPE_TR(
             "trainscope",
             "ResNet-style image classifier with basic blocks in 4 stages (widths w, 2w, 4w, 8w)"),
         "resnet.py",
         {{"depth",
           "18",
           TRAINSCOPE_TR("trainscope", "layers: 2 + 8n, n basic blocks per stage"),
           ParamKind::PositiveInt,
           {}},
          {"width",
           "64",
           TRAINSCOPE_TR("trainscope", "channels of the first stage"),
           ParamKind::PositiveInt,
           {}},
          {"image_size",
           "64",
           TRAINSCOPE_TR("trainscope", "height and width of the input images"),
           ParamKind::PositiveInt,
           {}},
          {"classes",
           "100",
           TRAINSCOPE_TR("trainscope", "output classes"),
           ParamKind::PositiveInt,
           {}}},
         "8x3x{image_size}x{image_size}",
         "cross-entropy"},
    };
    return models;
}

std::string checkParameterCombination(const BuiltinModelInfo& model,
                                      const std::map<std::string, std::string>& values) {
    auto integer = [&](const char* key) -> long long {
        const auto it = values.find(key);
        try {
            return it == values.end() ? 0 : std::stoll(it->second);
        } catch (const std::exception&) {
            return 0;  // checkParameterValue() reports a malformed value
        }
    };
    if (model.name == "transformer") {
        const long long d = integer("d_model"), heads = integer("n_heads");
        if (d > 0 && heads > 0 && d % heads != 0) {
            return "parameter 'd_model' of built-in model 'transformer' (" + std::to_string(d) +
                   ") must be a multiple of 'n_heads' (" + std::to_string(heads) + ")";
        }
    }
    if (model.name == "resnet") {
        const long long depth = integer("depth");
        if (depth > 0 && (depth < 10 || (depth - 2) % 8 != 0)) {
            return "parameter 'depth' of built-in model 'resnet' must be 2 + 8n for n >= 1 "
                   "(10, 18, 26, ...), not " +
                   std::to_string(depth);
        }
    }
    return {};
}

std::string checkParameterValue(const BuiltinParameter& parameter, const std::string& value) {
    size_t used = 0;
    switch (parameter.kind) {
        case ParamKind::PositiveInt: {
            long long number = 0;
            try {
                number = std::stoll(value, &used);
            } catch (const std::exception&) {
            }
            // Sizes beyond 2^31 - 1 only overflow (or exhaust memory) later on.
            return used == value.size() && number > 0 && number <= 2147483647
                       ? ""
                       : TRAINSCOPE_TR("trainscope", "a positive integer (at most 2147483647)");
        }
        case ParamKind::Probability: {
            const double number = parseDecimal(value).value_or(-1.0);
            return number >= 0.0 && number < 1.0
                       ? ""
                       : TRAINSCOPE_TR("trainscope", "a number in [0, 1)");
        }
        case ParamKind::Choice: {
            std::string list;
            for (const std::string& choice : parameter.choices) {
                if (choice == value) {
                    return "";
                }
                list += (list.empty() ? "" : ", ") + choice;
            }
            return "one of " + list;
        }
    }
    return TRAINSCOPE_TR("trainscope", "a valid value");
}

const BuiltinModelInfo* findBuiltinModel(const std::string& name) {
    for (const BuiltinModelInfo& info : builtinModels()) {
        if (info.name == name) {
            return &info;
        }
    }
    return nullptr;
}

std::string builtinModelsDir() {
    if (const char* env = std::getenv("TRAINSCOPE_MODELS_DIR"); env && *env) {
        return env;
    }
    // An installed tree: <prefix>/bin/trainscope (the app) or
    // <prefix>/libexec/trainscope/trainscope-cli-engine, and <prefix>/share/trainscope/models.
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        for (const fs::path& prefix :
             {exe.parent_path().parent_path(), exe.parent_path().parent_path().parent_path()}) {
            const fs::path installed = prefix / "share/trainscope/models";
            if (fs::is_directory(installed, ec)) {
                return installed.string();
            }
        }
    }
    return TRAINSCOPE_SOURCE_MODELS_DIR;
}

}  // namespace trainscope
