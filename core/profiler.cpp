// SPDX-License-Identifier: Apache-2.0
// The profiling session: one pass for memory, one for time, each on a fresh workload, so the
// memory hook never slows the timed iterations and timing never disturbs memory figures.
#include "trainscope/profiler.h"

#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "analysis/engine_facts.h"
#include "analysis/frames_note.h"
#include "analysis/median_times.h"
#include "analysis/module_paths.h"
#include "analysis/peak_breakdown.h"
#include "analysis/timeline_builder.h"
#include "device/cuda.h"
#include "model/workload.h"
#include "tracking/memory_observer.h"
#include "tracking/operation_observer.h"
#include "tracking/source_locator.h"
#include "trainscope/error.h"
#include "trainscope/report_format.h"

namespace trainscope {
std::string version() {
    return TRAINSCOPE_VERSION;
}

std::string stageName(const Progress& progress) {
    const char* phase = progress.phase == Phase::LoadingModel ? "loading model"
                        : progress.phase == Phase::WarmUp     ? "warm-up"
                                                              : "measuring";
    return std::string(progress.pass == Pass::Memory ? "memory" : "time") + ": " + phase;
}

std::string torchVersion() {
    return TORCH_VERSION;
}

// Checks the cancellation flag at the phase boundaries of an iteration (before the forward
// pass, before the backward pass, before the optimizer step), so that a cancel does not wait
// for the iteration to end. Operations themselves cannot be interrupted: LibTorch catches and
// logs exceptions thrown from RecordFunction callbacks.
class CancelCheck : public IterationListener {
  public:
    explicit CancelCheck(const std::atomic<bool>* cancel) : cancel_(cancel) {}
    void forwardBegins() override { check(); }
    void backwardBegins() override { check(); }
    void backwardEnded() override { check(); }

  private:
    void check() const {
        if (cancel_ && cancel_->load())
            throw Cancelled();
    }
    const std::atomic<bool>* cancel_;
};

struct Profiler::Impl {
    RunConfig config;
    ProgressCallback progress;
    const std::atomic<bool>* cancel = nullptr;

    void checkCancel() const {
        if (cancel && cancel->load()) {
            throw Cancelled();
        }
    }

    void report(Pass pass, Phase phase, int iteration = 0, int total = 0,
                double last_ms = 0.0) const {
        if (progress) {
            progress(Progress{pass, phase, iteration, total, last_ms});
        }
    }

    // Runs `count` iterations, reporting each under pass and phase, and returns their wall times.
    std::vector<double> iterate(Workload& workload, IterationListener& listener, int count,
                                Pass pass, Phase phase, int first = 1, int total = 0) const {
        std::vector<double> times;
        CancelCheck cancel_check(cancel);
        IterationListeners checked({&cancel_check, &listener});
        for (int i = 0; i < count; ++i) {
            checkCancel();
            const auto start = std::chrono::steady_clock::now();
            workload.runIteration(checked);
            times.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
            report(pass, phase, first + i, total ? total : count, times.back());
        }
        return times;
    }

    // The iteration that captures what timing must not pay for: each top-level operation's
    // stack frames, module hierarchy and the weights it reads, and (for the timeline) the
    // inputs of every call. It is the last warm-up iteration, or an extra one when there is
    // none; the measured iterations are matched to it operation by operation.
    struct Captured {
        std::vector<OperationRecord> operations;
        std::vector<int> first_readers;  // per parameter: the first operation reading it, or -1
        std::vector<CallInputs> inputs;
        std::vector<std::string> modules;  // per operation
    };

    Captured capture(Workload& workload, Pass pass, bool inputs) const {
        const int plain_warmups = std::max(config.warmup - 1, 0);
        const int total = std::max(config.warmup, 1);
        IterationListener unobserved;
        iterate(workload, unobserved, plain_warmups, pass, Phase::WarmUp, 1, total);
        SourceLocator locator(workload.projectRoot(), config.frames_roots);
        TorchScriptFrames frames(locator);
        OperationObserver::Options options;
        options.frames = &frames;
        std::vector<std::string> weight_names;
        for (const NamedParameter& parameter : workload.parameters()) {
            options.weights.push_back(parameter.tensor.unsafeGetTensorImpl());
            weight_names.push_back(parameter.name);
        }
        options.modules = true;
        options.inputs = inputs;
        OperationObserver observer(options);
        iterate(workload, observer, 1, pass, Phase::WarmUp, plain_warmups + 1, total);
        Captured captured{observer.operations(),
                          std::vector<int>(weight_names.size(), -1),
                          observer.callInputs(),
                          {}};
        for (size_t op = 0; op < captured.operations.size(); ++op) {
            for (int weight : captured.operations[op].weights_read) {
                if (captured.first_readers[weight] < 0) {
                    captured.first_readers[weight] = static_cast<int>(op);
                }
            }
        }
        captured.modules =
            ModulePaths(workload.module()).resolve(captured.operations, weight_names);
        return captured;
    }

    static void checkSameOperations(const std::vector<OperationRecord>& captured,
                                    const std::vector<OperationRecord>& run) {
        bool same = run.size() == captured.size();
        for (size_t i = 0; same && i < run.size(); ++i) {
            same = run[i].name == captured[i].name;
        }
        if (!same) {
            throw Error(
                "the model ran different operations in different iterations "
                "(data-dependent control flow?), so invocations cannot be matched");
        }
    }

    RunMetadata metadata(const Workload& workload, const std::string& pass) const {
        std::string inputs;
        for (const InputSpec& spec : workload.inputSpecs()) {
            inputs += (inputs.empty() ? "" : " ") + toString(spec);
        }
        std::string params;
        for (const auto& [key, value] : config.params) {
            params += (params.empty() ? "" : " ") + key + "=" + value;
        }
        std::error_code ec;
        const std::string root =
            std::filesystem::weakly_canonical(workload.projectRoot(), ec).string();
        RunMetadata metadata{
            {"pass", pass},
            {"model", config.model},
            {"model_params", params},
            {"inputs", inputs},
            {"dtype", toString(config.dtype)},
            {"device", toString(config.device)},
            {"loss", toString(workload.loss())},
            {"optimizer", toString(config.optimizer)},
            {"warmup", std::to_string(config.warmup)},
            {"iterations", std::to_string(config.iterations)},
            {"seed", std::to_string(config.seed)},
            {report_format::kProjectRootKey, root.empty() ? workload.projectRoot() : root}};
        addEngineFacts(metadata);
        if (config.device == Device::Cuda) {
            if (const auto gpu = cuda::deviceInfo()) {
                metadata[report_format::kDeviceNameKey] = gpu->name;
                metadata[report_format::kDeviceMemoryKey] = std::to_string(gpu->total_bytes);
            }
        }
        return metadata;
    }
};

Profiler::Profiler(RunConfig config, ProgressCallback progress, const std::atomic<bool>* cancel)
    : impl_(std::make_unique<Impl>()) {
    validateConfig(config);
    impl_->config = std::move(config);
    impl_->progress = std::move(progress);
    impl_->cancel = cancel;
    // The graph executor would otherwise merge the ops of a method into one differentiable
    // graph after a few runs, with one backward node for all: per-op times become impossible.
    torch::jit::setGraphExecutorOptimize(false);
}

Profiler::~Profiler() = default;

const RunConfig& Profiler::config() const {
    return impl_->config;
}

MemoryMeasurement Profiler::measureMemoryAndTimeline() {
    const Impl& self = *impl_;
    self.checkCancel();
    self.report(Pass::Memory, Phase::LoadingModel);
    // The observer exists before the workload, so weights, inputs and optimizer state count.
    MemoryObserver memory(self.config.device == Device::Cuda ? c10::DeviceType::CUDA
                                                             : c10::DeviceType::CPU);
    Workload workload(self.config);
    const Impl::Captured captured = self.capture(workload, Pass::Memory, /*inputs=*/true);

    OperationObserver::Options options;
    options.timeline = true;
    OperationObserver operations(options);
    memory.attributeTo(&operations);
    IterationListeners both({&operations, &memory});
    self.iterate(workload, both, 1, Pass::Memory, Phase::Measuring);
    memory.attributeTo(nullptr);
    Impl::checkSameOperations(captured.operations, operations.operations());

    MemoryMeasurement result;
    MemoryReport& report = result.memory;
    const std::vector<OperationRecord>& ops = captured.operations;
    ParameterBlocks parameter_blocks;
    for (size_t i = 0; i < workload.parameters().size(); ++i) {
        const NamedParameter& parameter = workload.parameters()[i];
        const torch::Tensor& tensor = parameter.tensor;
        WeightEntry entry{
            parameter.name,
            static_cast<int64_t>(tensor.nbytes()),
            tensor.grad().defined() ? static_cast<int64_t>(tensor.grad().nbytes()) : 0,
            {},
            ModulePaths::ofParameter(parameter.name),
            parameter.aliases};
        const int reader = captured.first_readers[i];
        if (reader >= 0) {
            entry.frames = ops[reader].frames;
        }
        using Kind = ParameterBlock::Kind;
        parameter_blocks[tensor.storage().data()] = {Kind::Weight, entry.module_path};
        if (tensor.grad().defined()) {
            parameter_blocks[tensor.grad().storage().data()] = {Kind::Gradient, entry.module_path};
        }
        for (const torch::Tensor& state : workload.optimizerState(i)) {
            parameter_blocks[state.storage().data()] = {Kind::OptimizerState, entry.module_path};
        }
        report.weights.push_back(std::move(entry));
    }
    for (const auto& [op, bytes] : memory.activationBytes()) {
        if (bytes <= 0) {
            continue;
        }
        if (op >= 0) {
            report.activations.push_back(
                {ops[op].name, bytes, ops[op].frames, captured.modules[op], op + 1});
        } else {
            report.activations.push_back({report_format::kOutsideOperations, bytes, {}, {}, 0});
        }
    }
    report.peak_usage_bytes = memory.peakBytes();
    PeakAnalysis peak = analyzePeak(memory, parameter_blocks, captured.modules);
    if (self.config.device == Device::Cuda) {
        // The caching allocator's statistics, reset when the iteration began, are the peak;
        // what they hold beyond the blocks this observer saw allocated (blocks older than it,
        // allocations on threads the hook does not reach) is "other".
        report.peak_usage_bytes = cuda::allocatorStats().peak_allocated;
        peak.breakdown.other += report.peak_usage_bytes - peak.breakdown.total();
    }
    report.peak_breakdown = peak.breakdown;
    report.peak_by_module = std::move(peak.by_module);
    report.metadata = self.metadata(workload, "memory");
    std::vector<const StackTrace*> traces;
    for (const WeightEntry& entry : report.weights) {
        traces.push_back(&entry.frames);
    }
    for (const ActivationEntry& entry : report.activations) {
        traces.push_back(&entry.frames);
    }
    noteMissingProjectFrames(report.metadata, traces);

    TimelineSources sources;
    sources.observed = &operations;
    sources.memory = &memory;
    sources.captured = &captured.operations;
    sources.call_inputs = &captured.inputs;
    sources.operation_modules = &captured.modules;
    sources.step_id = std::max(self.config.warmup, 1) + 1;
    result.timeline = buildTimeline(sources);
    result.timeline.metadata = report.metadata;
    return result;
}

TimeReport Profiler::measureTime() {
    const Impl& self = *impl_;
    self.checkCancel();
    self.report(Pass::Time, Phase::LoadingModel);
    Workload workload(self.config);
    // Stack frames are captured in an unmeasured iteration, so capturing them never slows the
    // timed iterations.
    const Impl::Captured captured = self.capture(workload, Pass::Time, /*inputs=*/false);

    std::vector<std::vector<OperationRecord>> runs;
    std::vector<double> iteration_ms;
    // On a GPU the operations' times are GPU times, from CUDA events; the events are reused
    // from iteration to iteration.
    std::unique_ptr<cuda::EventTimer> gpu_timer;
    if (self.config.device == Device::Cuda) {
        gpu_timer = std::make_unique<cuda::EventTimer>();
    }
    OperationObserver::Options timing;
    timing.time = true;
    timing.gpu_timer = gpu_timer.get();
    for (int i = 0; i < self.config.iterations; ++i) {
        OperationObserver timer(timing);
        const double ms = self.iterate(workload, timer, 1, Pass::Time, Phase::Measuring, i + 1,
                                       self.config.iterations)[0];
        iteration_ms.push_back(ms);
        runs.push_back(timer.operations());
    }

    for (const std::vector<OperationRecord>& run : runs) {
        Impl::checkSameOperations(captured.operations, run);
    }
    TimeReport report = medianTimes(captured.operations, captured.modules, runs, iteration_ms);
    report.metadata = self.metadata(workload, "time");
    std::vector<const StackTrace*> traces;
    for (const RunTimeEntry& entry : report.entries) {
        traces.push_back(&entry.frames);
    }
    noteMissingProjectFrames(report.metadata, traces);
    return report;
}

}  // namespace trainscope
