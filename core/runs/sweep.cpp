// SPDX-License-Identifier: Apache-2.0
// runSweep(): the profiler run once per batch size (a memory pass and a time pass, as a
// `profile` run), then the lines and the prediction.
#include "trainscope/sweep.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "device/cuda.h"
#include "model/workload.h"
#include "trainscope/error.h"
#include "trainscope/report_format.h"
#include "trainscope/report_writer.h"

namespace trainscope {
namespace {

std::string gib(int64_t bytes) {
    std::ostringstream text;
    text.precision(3);
    text << static_cast<double>(bytes) / (1 << 30) << " GiB";
    return text.str();
}

// The configured batch: --batch-size, else the first dimension of the first input (the
// built-ins' default inputs resolved as a run resolves them).
int64_t configuredBatch(const RunConfig& config) {
    if (config.batch_size) {
        return *config.batch_size;
    }
    if (!config.inputs.empty()) {
        return config.inputs.front().shape.front();
    }
    const Workload workload(config);
    if (workload.inputSpecs().empty() || workload.inputSpecs().front().shape.empty()) {
        throw Error("the model has no input whose first dimension could be the batch");
    }
    return workload.inputSpecs().front().shape.front();
}

// One batch size measured: the memory pass (peak, activations, weights), then the time pass.
SweepPoint measure(const RunConfig& base, int64_t batch, const SweepProgressCallback& progress,
                   SweepProgress where, const std::atomic<bool>* cancel, RunMetadata* metadata) {
    RunConfig config = base;
    config.batch_size = batch;
    SweepPoint point;
    point.batch_size = batch;
    const ProgressCallback inner = [&](const Progress& p) {
        if (progress) {
            where.run = p;
            progress(where);
        }
    };
    try {
        Profiler profiler(config, inner, cancel);
        const MemoryReport memory = profiler.measureMemory();
        point.peak_bytes = memory.peak_usage_bytes;
        point.activation_bytes = memory.activationBytes();
        point.weight_bytes = memory.weightBytes();
        // The fastest measured iteration: the one least disturbed by other work on the machine,
        // so that sizes measured one after another compare (a median moves with the load).
        point.iteration_ms = profiler.measureTime().iteration_spread.min_ms;
        if (metadata && metadata->empty()) {
            *metadata = memory.metadata;
        }
    } catch (const OutOfMemory&) {
        point.out_of_memory = true;
    } catch (const Cancelled&) {
        throw;
    } catch (const Error& e) {
        throw Error("at batch size " + std::to_string(batch) + ": " + e.what() +
                    " (is the first dimension of every input the batch?)");
    }
    return point;
}

LinearFit fitOf(const std::vector<SweepPoint>& points, double (*y)(const SweepPoint&)) {
    std::vector<double> xs, ys;
    for (const SweepPoint& p : points) {
        if (!p.out_of_memory) {
            xs.push_back(static_cast<double>(p.batch_size));
            ys.push_back(y(p));
        }
    }
    return fitLine(xs, ys);
}

}  // namespace

std::vector<int64_t> defaultBatchSizes(int64_t configured) {
    if (configured <= 1) {
        return {1, 2, 4};
    }
    return {std::max<int64_t>(1, configured / 2), configured, configured * 2};
}

int64_t memoryBudget(Device device, std::string* source) {
    if (device == Device::Cuda) {
        if (const auto gpu = cuda::deviceInfo()) {
            *source = "CUDA device " + gpu->name + ": " + gib(gpu->total_bytes) +
                      " total, less what the runtime and other processes hold";
            return gpu->free_bytes;
        }
        throw Error("cannot read the CUDA device's memory; give --memory-budget");
    }
    std::ifstream meminfo("/proc/meminfo");
    for (std::string line; std::getline(meminfo, line);) {
        if (line.rfind("MemAvailable:", 0) == 0) {
            const int64_t kib = std::atoll(line.c_str() + std::strlen("MemAvailable:"));
            *source = "available RAM";
            return kib * 1024;
        }
    }
    throw Error("cannot read the available RAM (/proc/meminfo); give --memory-budget");
}

namespace {

// Whether an automatic sweep measures one more size, twice the last: while the line through
// the sizes measured so far predicts its peak within a quarter of the budget (three sizes close
// together say little of a batch a hundred times larger), for at most kMostAutomaticSizes sizes
// and the plan's automatic_time of measuring.
constexpr size_t kMostAutomaticSizes = 10;

bool reachFurther(const std::vector<SweepPoint>& points, int64_t budget,
                  std::chrono::steady_clock::duration spent, std::chrono::seconds allowed) {
    if (points.size() >= kMostAutomaticSizes || spent >= allowed || points.size() < 2) {
        return false;
    }
    const LinearFit peak =
        fitOf(points, [](const SweepPoint& p) { return static_cast<double>(p.peak_bytes); });
    const double next = 2.0 * static_cast<double>(points.back().batch_size);
    return peak.slope > 0 && peak.at(next) <= static_cast<double>(budget) / 4;
}

}  // namespace

SweepReport runSweep(const SweepPlan& plan, const SweepProgressCallback& progress,
                     const std::atomic<bool>* cancel) {
    const std::string path = plan.output + report_format::kSweepSuffix;
    checkOutputPath(path, plan.overwrite);  // before the long part
    validateConfig(plan.config);
    if (!plan.config.inputs_file.empty()) {
        throw Error(
            "a sweep changes the batch size of the inputs: give them as shapes "
            "(--input), not as a saved file");
    }
    const bool automatic = plan.batch_sizes.empty();
    std::vector<int64_t> sizes =
        automatic ? defaultBatchSizes(configuredBatch(plan.config)) : plan.batch_sizes;
    SweepReport report;
    report.budget_bytes = plan.memory_budget ? *plan.memory_budget : 0;
    report.budget_source = "--memory-budget";
    if (!plan.memory_budget) {
        report.budget_bytes = memoryBudget(plan.config.device, &report.budget_source);
    }

    const auto started = std::chrono::steady_clock::now();
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (cancel && cancel->load()) {
            throw Cancelled();
        }
        SweepPoint point =
            measure(plan.config, sizes[i], progress,
                    {sizes[i], static_cast<int>(i) + 1, static_cast<int>(sizes.size()), false, {}},
                    cancel, &report.metadata);
        report.points.push_back(point);
        if (point.out_of_memory) {
            break;  // the larger sizes do not fit either: this is the edge
        }
        if (automatic && i + 1 == sizes.size() &&
            reachFurther(report.points, report.budget_bytes,
                         std::chrono::steady_clock::now() - started, plan.automatic_time)) {
            sizes.push_back(sizes.back() * 2);
        }
    }
    const size_t fitted = std::count_if(report.points.begin(), report.points.end(),
                                        [](const SweepPoint& p) { return !p.out_of_memory; });
    if (fitted < 2) {
        throw Error("only " + std::to_string(fitted) +
                    " batch size(s) fit in memory: a line needs two; try smaller sizes");
    }
    report.peak =
        fitOf(report.points, [](const SweepPoint& p) { return static_cast<double>(p.peak_bytes); });
    report.activations = fitOf(
        report.points, [](const SweepPoint& p) { return static_cast<double>(p.activation_bytes); });
    report.iteration = fitOf(report.points, [](const SweepPoint& p) { return p.iteration_ms; });
    if (report.activations.slope <= 0) {
        throw Error(
            "activation memory does not grow with the first dimension of the inputs: "
            "it is not the batch of this model, and a sweep cannot predict by it");
    }
    const int64_t weights = report.points.front().weight_bytes;
    if (report.budget_bytes < weights) {
        throw Error("the memory budget (" + gib(report.budget_bytes) +
                    ") is smaller than the model's weights alone (" + gib(weights) + ")");
    }
    report.largest_batch = largestBatchWithin(report.peak, report.budget_bytes);

    if (plan.verify && report.largest_batch) {
        if (progress) {
            progress({*report.largest_batch, 1, 1, true, {}});
        }
        report.verified = measure(plan.config, *report.largest_batch, progress,
                                  {*report.largest_batch, 1, 1, true, {}}, cancel, nullptr);
    }
    if (cancel && cancel->load()) {
        throw Cancelled();
    }
    report.metadata["pass"] = "sweep";
    report.metadata.erase("inputs");  // each batch size had its own
    report.metadata.erase("iteration_ms");
    // The inputs as the sweep was given them (empty: the built-in model's), so that a batch
    // size can be measured later the way the sweep measured its own (verifyBatch).
    std::string inputs;
    for (const InputSpec& spec : plan.config.inputs)
        inputs += (inputs.empty() ? "" : " ") + toString(spec);
    report.metadata[kSweepInputsKey] = inputs;
    writeSweepReport(report, path, plan.overwrite);
    return report;
}

RunConfig sweepConfig(const SweepReport& report) {
    const RunMetadata& m = report.metadata;
    auto value = [&](const char* key) -> const std::string& {
        const auto it = m.find(key);
        if (it == m.end()) {
            throw Error(std::string("the sweep report does not say how its model was run (no ") +
                        key + "): measure with a new sweep");
        }
        return it->second;
    };
    auto count = [&](const char* key) {
        const std::string& text = value(key);
        uint64_t parsed = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
        if (error != std::errc() || end != text.data() + text.size()) {
            throw Error(std::string("the sweep report's ") + key + " is not a count: " + text);
        }
        return parsed;
    };
    RunConfig config;
    config.model = value("model");
    std::istringstream params(value("model_params"));
    for (std::string item; params >> item;) {
        const size_t equals = item.find('=');
        if (equals == std::string::npos) {
            throw Error("the sweep report's model_params are not key=value: " + item);
        }
        config.params[item.substr(0, equals)] = item.substr(equals + 1);
    }
    std::istringstream inputs(value(kSweepInputsKey));
    for (std::string item; inputs >> item;)
        config.inputs.push_back(parseInputSpec(item));
    config.dtype = parseDType(value("dtype"));
    config.device = parseDevice(value("device"));
    config.loss = parseLoss(value("loss"));
    config.optimizer = parseOptimizer(value("optimizer"));
    config.warmup = static_cast<int>(std::min<uint64_t>(count("warmup"), 1000));
    config.iterations = static_cast<int>(std::min<uint64_t>(count("iterations"), 1000));
    config.seed = count("seed");
    config.project_root = value(report_format::kProjectRootKey);
    validateConfig(config);
    return config;
}

SweepPoint verifyBatch(const SweepReport& report, int64_t batch,
                       const SweepProgressCallback& progress, const std::atomic<bool>* cancel) {
    if (batch < 1) {
        throw Error("a batch size is at least 1");
    }
    const RunConfig config = sweepConfig(report);
    if (progress) {
        progress({batch, 1, 1, true, {}});
    }
    SweepPoint point = measure(config, batch, progress, {batch, 1, 1, true, {}}, cancel, nullptr);
    if (cancel && cancel->load()) {
        throw Cancelled();
    }
    return point;
}

}  // namespace trainscope
