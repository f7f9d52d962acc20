// SPDX-License-Identifier: Apache-2.0
#include "trainscope/run_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>
#include <vector>

#include "trainscope/error.h"

namespace trainscope {
namespace {

int64_t parsePositive(const std::string& text, const std::string& what) {
    int64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end || value <= 0) {
        throw Error(what + ": '" + text + "' is not a positive integer");
    }
    return value;
}

template <typename Enum, size_t N>
Enum parseChoice(const std::string& text, const std::pair<const char*, Enum> (&choices)[N],
                 const std::string& what) {
    std::string known;
    for (const auto& [name, value] : choices) {
        if (text == name) {
            return value;
        }
        known += (known.empty() ? "" : ", ") + std::string(name);
    }
    throw Error("unknown " + what + " '" + text + "' (expected one of: " + known + ")");
}

const std::pair<const char*, DType> kDTypes[] = {
    {"float32", DType::Float32}, {"bfloat16", DType::BFloat16}, {"float16", DType::Float16},
    {"int64", DType::Int64},     {"int32", DType::Int32},       {"bool", DType::Bool}};
const std::pair<const char*, Device> kDevices[] = {{"cpu", Device::Cpu}, {"cuda", Device::Cuda}};
const std::pair<const char*, LossKind> kLosses[] = {{"sum", LossKind::Sum},
                                                    {"mse", LossKind::Mse},
                                                    {"cross-entropy", LossKind::CrossEntropy},
                                                    {"model", LossKind::Model}};
const std::pair<const char*, OptimizerKind> kOptimizers[] = {
    {"none", OptimizerKind::None}, {"sgd", OptimizerKind::Sgd}, {"adam", OptimizerKind::Adam}};

template <typename Enum, size_t N>
std::string nameOf(Enum value, const std::pair<const char*, Enum> (&choices)[N]) {
    for (const auto& [name, v] : choices) {
        if (v == value) {
            return name;
        }
    }
    return "?";
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        size_t pos = text.find(separator, start);
        parts.push_back(text.substr(start, pos - start));
        if (pos == std::string::npos) {
            return parts;
        }
        start = pos + 1;
    }
}

}  // namespace

std::vector<int64_t> parseShape(const std::string& text) {
    std::vector<int64_t> shape;
    for (const std::string& part : split(text, 'x')) {
        shape.push_back(parsePositive(part, "input shape '" + text + "'"));
    }
    return shape;
}

InputSpec parseInputSpec(const std::string& text) {
    const std::vector<std::string> parts = split(text, ':');
    if (parts.size() > 3) {
        throw Error("input '" + text + "': expected SHAPE[:DTYPE[:HIGH]], e.g. 2x128:int64:1000");
    }
    InputSpec spec;
    spec.shape = parseShape(parts[0]);
    if (parts.size() >= 2) {
        spec.dtype = parseDType(parts[1]);
    }
    if (parts.size() == 3) {
        spec.high = parsePositive(parts[2], "input '" + text + "' upper bound");
    }
    return spec;
}

DType parseDType(const std::string& text) {
    return parseChoice(text, kDTypes, "dtype");
}
Device parseDevice(const std::string& text) {
    return parseChoice(text, kDevices, "device");
}
LossKind parseLoss(const std::string& text) {
    return parseChoice(text, kLosses, "loss");
}
OptimizerKind parseOptimizer(const std::string& text) {
    return parseChoice(text, kOptimizers, "optimizer");
}

std::string toString(DType dtype) {
    return nameOf(dtype, kDTypes);
}
std::string toString(Device device) {
    return nameOf(device, kDevices);
}
std::string toString(LossKind loss) {
    return nameOf(loss, kLosses);
}
std::string toString(OptimizerKind optimizer) {
    return nameOf(optimizer, kOptimizers);
}

std::string toString(const InputSpec& input) {
    std::string text;
    for (int64_t dim : input.shape) {
        text += (text.empty() ? "" : "x") + std::to_string(dim);
    }
    if (input.dtype) {
        text += ":" + toString(*input.dtype);
        if (*input.dtype == DType::Int64 || *input.dtype == DType::Int32) {
            text += ":" + std::to_string(input.high);
        }
    }
    return text;
}

std::vector<int64_t> parseBatchSizes(const std::string& text) {
    std::vector<int64_t> sizes;
    std::stringstream items(text);
    for (std::string item; std::getline(items, item, ',');) {
        int64_t value = 0;
        const char* end = item.data() + item.size();
        const auto [ptr, ec] = std::from_chars(item.data(), end, value);
        if (item.empty() || ec != std::errc() || ptr != end || value < 1) {
            throw Error(
                "--batch-sizes expects positive integers separated by commas (4,8,16), "
                "not '" +
                text + "'");
        }
        sizes.push_back(value);
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    if (sizes.size() < 2) {
        throw Error("--batch-sizes needs two or more different sizes to fit a line, not '" + text +
                    "'");
    }
    return sizes;
}

int64_t parseByteSize(const std::string& text) {
    double value = 0;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    std::string unit(ptr, end);
    unit.erase(std::remove_if(unit.begin(), unit.end(), ::isspace), unit.end());
    std::transform(unit.begin(), unit.end(), unit.begin(), ::tolower);
    static const std::pair<const char*, double> units[] = {
        {"", 1},          {"b", 1},
        {"kib", 1024.0},  {"mib", 1048576.0},
        {"gib", 1 << 30}, {"tib", 1099511627776.0},
        {"kb", 1e3},      {"mb", 1e6},
        {"gb", 1e9},      {"tb", 1e12}};
    for (const auto& [name, factor] : units) {
        if (ec == std::errc() && ptr != begin && unit == name && std::isfinite(value) &&
            value > 0 && value * factor < 9e18) {
            return static_cast<int64_t>(value * factor);
        }
    }
    throw Error("--memory-budget expects a size such as 24GiB, 512MiB or 8GB, not '" + text + "'");
}

}  // namespace trainscope
