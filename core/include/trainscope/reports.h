// The data of the two standard reports (Skyline / DeepView.Profile) as plain structs. The
// SQLite writers in report_writer.h turn them into files; nothing here depends on LibTorch.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace trainscope {

// A frame of source code, 1-based line. A project frame's path is relative to the project
// root. A library frame (code outside the project: torch, torchvision, ...) has a path
// relative to its library's root, which it names (an absolute path on the recording machine).
struct StackFrame {
    StackFrame() = default;
    StackFrame(std::string file, int line, std::string root = {})
        : file_path(std::move(file)), line_number(line), library_root(std::move(root)) {}

    std::string file_path;
    int line_number = 0;
    std::string library_root;  // empty: a project frame

    bool isLibrary() const { return !library_root.empty(); }
    bool operator==(const StackFrame& other) const {
        return file_path == other.file_path && line_number == other.line_number &&
               library_root == other.library_root;
    }
};

// Frames are ordered from the most specific (closest to the operation) to the least.
using StackTrace = std::vector<StackFrame>;

struct WeightEntry {
    std::string name;  // as PyTorch names it: "lin_0.weight"
    int64_t size_bytes = 0;
    int64_t grad_size_bytes = 0;
    StackTrace frames;  // those of the first operation that reads the weight
};

struct ActivationEntry {
    std::string operation_name;
    int64_t size_bytes = 0;
    StackTrace frames;
};

// Facts about the run (model, device, versions...), stored beside the standard tables.
using RunMetadata = std::map<std::string, std::string>;

struct MemoryReport {
    std::vector<WeightEntry> weights;
    std::vector<ActivationEntry> activations;
    int64_t peak_usage_bytes = 0;
    std::map<std::string, int64_t> misc_sizes;  // extra keys besides peak_usage_bytes
    RunMetadata metadata;

    int64_t weightBytes() const;
    int64_t gradientBytes() const;
    int64_t activationBytes() const;
};

struct RunTimeEntry {
    std::string operation_name;
    double forward_ms = 0.0;
    std::optional<double> backward_ms;  // empty: the operation takes no part in backward
    StackTrace frames;
};

struct TimeReport {
    std::vector<RunTimeEntry> entries;
    double iteration_ms = 0.0;  // median wall time of a whole measured iteration
    RunMetadata metadata;

    double forwardMs() const;
    double backwardMs() const;
};

}  // namespace trainscope
