// SPDX-License-Identifier: Apache-2.0
// What to profile and how: the model, its inputs, the loss, the optimizer and the iteration
// counts. Plain data shared by the CLI, the GUI and the tests; parse helpers turn the textual
// forms that users type ("2x4096x1024", "bfloat16") into it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace trainscope {

enum class Device { Cpu, Cuda };
enum class DType { Float32, BFloat16, Float16, Int64, Int32, Bool };
enum class LossKind { Sum, Mse, CrossEntropy, Model };
enum class OptimizerKind { None, Sgd, Adam };

// One forward argument. Floating inputs are drawn from N(0, 1) in the run's dtype unless
// `dtype` says otherwise; integer inputs are drawn uniformly from [0, high).
struct InputSpec {
    std::vector<int64_t> shape;
    std::optional<DType> dtype;
    int64_t high = 2;
};

struct RunConfig {
    std::string model;                          // a TorchScript archive path, or "builtin:NAME"
    std::map<std::string, std::string> params;  // built-in model parameters
    std::vector<InputSpec> inputs;              // empty: the built-in model's default inputs
    std::string inputs_file;                    // a file of saved inputs (alternative to `inputs`)
    std::optional<int64_t> batch_size;          // overrides the first dimension of every input
    DType dtype = DType::Float32;               // parameters and floating inputs
    Device device = Device::Cpu;
    std::optional<LossKind> loss;  // empty: the model's default (archives: sum)
    OptimizerKind optimizer = OptimizerKind::Sgd;
    int warmup = 2;
    int iterations = 5;
    uint64_t seed = 0;
    std::string project_root;  // empty: see defaultProjectRoot()
    // Folders that library frames are shown relative to (--frames-root); files elsewhere
    // outside the project are placed by their Python package.
    std::vector<std::string> frames_roots;
};

// Parse helpers: each throws trainscope::Error with a message naming the bad text.
std::vector<int64_t> parseShape(const std::string& text);  // "2x4096x1024"
InputSpec parseInputSpec(const std::string& text);         // "2x128" or "2x128:int64:50257"
DType parseDType(const std::string& text);
Device parseDevice(const std::string& text);
LossKind parseLoss(const std::string& text);
OptimizerKind parseOptimizer(const std::string& text);

std::string toString(DType dtype);
std::string toString(Device device);
std::string toString(LossKind loss);
std::string toString(OptimizerKind optimizer);
std::string toString(const InputSpec& input);

// Checks everything that can be checked without running: the model file exists, the built-in
// and its parameters (each value and their combination), the inputs, the counts, the folders,
// the device. Throws trainscope::Error with a one-line message. The CLI and the desktop app
// call it before starting; the engine calls it again when a run starts.
void validateConfig(const RunConfig& config);

// The project root a run uses when RunConfig::project_root is empty: for a built-in, its
// source folder; for an archive, the root that tools/trainscope-export recorded beside it
// (kExportedRootFile), else the archive's folder.
std::string defaultProjectRoot(const RunConfig& config);
constexpr const char* kExportedRootFile = "project_root.txt";

// Upper bounds of the counts, so that a typo cannot run for days.
constexpr int kMaxWarmup = 1000;
constexpr int kMaxIterations = 100000;

// True when the engine was built against a LibTorch with CUDA and a GPU is visible.
bool cudaAvailable();

// A sweep's options: "4,8,16" (positive integers, at least two different ones); "24GiB",
// "512MiB", "2GB", "1000000" (bytes). Each throws trainscope::Error.
std::vector<int64_t> parseBatchSizes(const std::string& text);
int64_t parseByteSize(const std::string& text);

}  // namespace trainscope
