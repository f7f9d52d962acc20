// SPDX-License-Identifier: Apache-2.0
// The built-in transformer and ResNet: parameter counts against their closed formulas, the
// transformer MLP sub-block's activation memory against the activation-memory article's 18·b·s·d
// (GELU) and 10·b·s·d (ReLU) in bfloat16, and stack frames that point into resources/models.
#include <gtest/gtest.h>
#include <torch/version.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "torch_compat.h"
#include "trainscope/error.h"
#include "trainscope/profiler.h"

using namespace trainscope;

namespace {

int64_t parameterCount(const MemoryReport& report, int64_t bytes_per_value) {
    EXPECT_EQ(report.weightBytes() % bytes_per_value, 0);
    return report.weightBytes() / bytes_per_value;
}

MemoryReport profileMemory(const std::string& model, std::map<std::string, std::string> params,
                           const std::string& input, DType dtype = DType::Float32) {
    RunConfig config;
    config.model = "builtin:" + model;
    config.params = std::move(params);
    if (!input.empty())
        config.inputs = {parseInputSpec(input)};
    config.dtype = dtype;
    config.warmup = 1;
    return Profiler(config).measureMemory();
}

// Lines [first, last] of `class NAME:` in a built-in's source, up to the next class.
std::pair<int, int> classLines(const std::string& file, const std::string& name) {
    std::ifstream in(std::string(TRAINSCOPE_MODELS_SOURCE) + "/" + file);
    std::string line;
    int number = 0, first = 0, last = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.rfind("class ", 0) == 0) {
            if (first && !last)
                last = number - 1;
            if (line == "class " + name + ":")
                first = number;
        }
    }
    return {first, last ? last : number};
}

bool passesThrough(const StackTrace& frames, const std::string& file, std::pair<int, int> lines) {
    for (const StackFrame& frame : frames) {
        if (frame.file_path == file && frame.line_number >= lines.first &&
            frame.line_number <= lines.second)
            return true;
    }
    return false;
}

}  // namespace

TEST(BuiltinTransformer, ParameterCountMatchesItsFormula) {
    const int64_t V = 100, d = 32, S = 16, L = 3;
    const MemoryReport report = profileMemory("transformer",
                                              {{"vocab", "100"},
                                               {"d_model", "32"},
                                               {"n_heads", "4"},
                                               {"seq_len", "16"},
                                               {"n_layers", "3"}},
                                              "2x16:int64:100");
    // Embeddings, per block (2 norms, qkv, projection, MLP 4d), final norm, LM head (no bias).
    const int64_t per_block = 12 * d * d + 13 * d;
    EXPECT_EQ(parameterCount(report, 4), V * d + S * d + L * per_block + 2 * d + d * V);
    EXPECT_EQ(report.gradientBytes(), report.weightBytes());
}

TEST(BuiltinResnet, ParameterCountMatchesItsFormula) {
    for (const int64_t depth : {10, 18}) {
        const int64_t w = 8, C = 10, n = (depth - 2) / 8;
        const MemoryReport report = profileMemory("resnet",
                                                  {{"depth", std::to_string(depth)},
                                                   {"width", "8"},
                                                   {"image_size", "32"},
                                                   {"classes", "10"}},
                                                  "");
        auto basic = [](int64_t c) { return 18 * c * c + 4 * c; };  // 2 convs 3x3, 2 norms
        auto down = [](int64_t in, int64_t out) {  // and a 1x1 projection with its norm
            return 9 * in * out + 9 * out * out + in * out + 6 * out;
        };
        int64_t expected = 3 * 49 * w + 2 * w + n * basic(w);  // stem and stage 1
        for (int64_t c = 2 * w; c <= 8 * w; c *= 2)
            expected += down(c / 2, c) + (n - 1) * basic(c);
        expected += 8 * w * C + C;  // classifier
        EXPECT_EQ(parameterCount(report, 4), expected) << "depth " << depth;
    }
}

// The activation-memory article: the MLP sub-block keeps its input (for lin_0's backward, 2·bsd
// bytes in bfloat16), lin_0's output (8·bsd, GELU's backward needs it) and the activation's output
// (8·bsd, for lin_1). With ReLU, lin_0's output is freed: ReLU's backward needs its own output
// only.
TEST(BuiltinTransformer, MlpSubBlockActivationMemoryIs18bsd) {
    const int64_t b = 2, s = 64, d = 128;
    const int64_t bsd = b * s * d;
    const auto mlp = classLines("transformer.py", "MLP");
    const auto block = classLines("transformer.py", "Block");
    ASSERT_GT(mlp.first, 0);
    for (const auto& [act, factor] : {std::pair<std::string, int64_t>{"gelu", 18}, {"relu", 10}}) {
        const MemoryReport report = profileMemory("transformer",
                                                  {{"vocab", "256"},
                                                   {"d_model", std::to_string(d)},
                                                   {"n_heads", "4"},
                                                   {"seq_len", std::to_string(s)},
                                                   {"n_layers", "1"},
                                                   {"act", act}},
                                                  "2x64:int64:256", DType::BFloat16);
        int64_t inside_mlp = 0, mlp_input = -1;
        for (const ActivationEntry& entry : report.activations) {
            if (passesThrough(entry.frames, "transformer.py", mlp)) {
                inside_mlp += entry.size_bytes;
            } else if (entry.operation_name == "aten::layer_norm" && entry.frames.size() >= 2 &&
                       passesThrough({entry.frames[1]}, "transformer.py", block) &&
                       entry.frames[1].line_number == block.first + 3) {
                // ln_2, on the MLP's line of Block.forward: its output is the MLP's input. It
                // also keeps its per-row mean and rstd (b·s values each, bfloat16).
                mlp_input = entry.size_bytes - 2 * b * s * 2;
            }
        }
        EXPECT_EQ(mlp_input, 2 * bsd) << act;
        EXPECT_EQ(inside_mlp + mlp_input, factor * bsd) << act;
    }
}

TEST(BuiltinModels, FramesPointIntoResourcesModels) {
    RunConfig config;
    config.model = "builtin:resnet";
    config.params = {{"depth", "10"}, {"width", "8"}, {"image_size", "32"}, {"classes", "10"}};
    config.warmup = 1;
    config.iterations = 1;
    const TimeReport report = Profiler(config).measureTime();
    const auto basic = classLines("resnet.py", "BasicBlock");
    int in_basic_blocks = 0;
    for (const RunTimeEntry& entry : report.entries) {
        if (entry.operation_name == "aten::conv2d") {
            ASSERT_FALSE(entry.frames.empty());
            EXPECT_EQ(entry.frames[0].file_path, "resnet.py");
            in_basic_blocks += passesThrough(entry.frames, "resnet.py", basic);
        }
    }
    EXPECT_EQ(in_basic_blocks, 2);  // depth 10: one basic block (stage 1), two convolutions
}

namespace {

std::map<std::string, std::string> smallTransformer(const std::string& attention) {
    return {{"vocab", "256"},  {"d_model", "128"}, {"n_heads", "4"},
            {"seq_len", "64"}, {"n_layers", "1"},  {"attention", attention}};
}

}  // namespace

// attention=sdpa: one fused call in place of matmul, softmax and matmul. Those keep the
// softmax's b·h·s·s weights (float32 here) for the backward pass; the fused call keeps the same
// output and, in their place, one log-sum-exp per row (b·h·s values). Measured on LibTorch
// 2.11's CPU kernel.
TEST(BuiltinTransformer, SdpaAttentionKeepsNoAttentionMatrix) {
    if (!compat::hasScaledDotProductAttention()) {
        GTEST_SKIP() << "LibTorch " TORCH_VERSION " has no scaled_dot_product_attention";
    }
    const int64_t b = 2, h = 4, s = 64;
    const MemoryReport math =
        profileMemory("transformer", smallTransformer("math"), "2x64:int64:256");
    const MemoryReport sdpa =
        profileMemory("transformer", smallTransformer("sdpa"), "2x64:int64:256");
    EXPECT_EQ(sdpa.weightBytes(), math.weightBytes());
    EXPECT_EQ(math.activationBytes() - sdpa.activationBytes(), b * h * s * s * 4 - b * h * s * 4);
    const auto fused = std::find_if(
        sdpa.activations.begin(), sdpa.activations.end(), [](const ActivationEntry& entry) {
            return entry.operation_name == "aten::scaled_dot_product_attention";
        });
    ASSERT_NE(fused, sdpa.activations.end());
    EXPECT_EQ(fused->module_path, "blocks_0.attn.heads");
    EXPECT_TRUE(
        passesThrough(fused->frames, "transformer.py", classLines("transformer.py", "FusedHeads")));
}

TEST(BuiltinTransformer, SdpaAttentionOnLibTorch113IsAClearError) {
    if (compat::hasScaledDotProductAttention()) {
        GTEST_SKIP() << "LibTorch " TORCH_VERSION " has scaled_dot_product_attention";
    }
    try {
        profileMemory("transformer", smallTransformer("sdpa"), "2x64:int64:256");
        FAIL() << "attention=sdpa ran on LibTorch " TORCH_VERSION;
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("attention=sdpa needs a LibTorch with "
                                             "scaled_dot_product_attention (2.0 or later)"),
                  std::string::npos)
            << e.what();
    }
}
