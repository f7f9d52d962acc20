// The profiling session: one pass for memory, one for time, each on a fresh workload, so the
// memory hook never slows the timed iterations and timing never disturbs memory figures.
#include "trainscope/profiler.h"

#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>

#include "model/workload.h"
#include "tracking/memory_observer.h"
#include "tracking/operation_observer.h"
#include "tracking/source_locator.h"
#include "trainscope/error.h"
#include "trainscope/report_format.h"

namespace trainscope {
namespace {

constexpr const char* kOutsideOperations = "(outside operations)";

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

std::string nowIso8601() {
    const std::time_t now = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return text;
}

// Records in the metadata why a report has no project frames ("frames_note", for the CLI
// summary and the app), if it has none.
void noteMissingProjectFrames(RunMetadata& metadata, const std::vector<const StackTrace*>& traces) {
    const StackFrame* library = nullptr;
    for (const StackTrace* trace : traces) {
        for (const StackFrame& frame : *trace) {
            if (!frame.isLibrary()) {
                return;
            }
            library = library ? library : &frame;
        }
    }
    metadata[report_format::kFramesNoteKey] =
        library
            ? "no frame lies under the project root " +
                  metadata.at(report_format::kProjectRootKey) +
                  ": the model's code is elsewhere (library frames such as " + library->file_path +
                  "); pass --project-root with the folder of the "
                  "model's code"
            : "the model recorded no source locations (a traced model, or an archive "
              "saved without debug information, keeps none)";
}

}  // namespace

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
        return {{"pass", pass},
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
                {report_format::kProjectRootKey, root.empty() ? workload.projectRoot() : root},
                {"trainscope_version", version()},
                {"torch_version", torchVersion()},
                {"created", nowIso8601()}};
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

MemoryReport Profiler::measureMemory() {
    const Impl& self = *impl_;
    self.checkCancel();
    self.report(Pass::Memory, Phase::LoadingModel);
    // The observer exists before the workload, so weights, inputs and optimizer state count.
    MemoryObserver memory(self.config.device == Device::Cuda ? c10::DeviceType::CUDA
                                                             : c10::DeviceType::CPU);
    Workload workload(self.config);
    IterationListener unobserved;
    self.iterate(workload, unobserved, self.config.warmup, Pass::Memory, Phase::WarmUp);

    std::vector<const c10::TensorImpl*> weights;
    for (const NamedParameter& parameter : workload.parameters()) {
        weights.push_back(parameter.tensor.unsafeGetTensorImpl());
    }
    SourceLocator locator(workload.projectRoot(), self.config.frames_roots);
    OperationObserver operations({/*time=*/false, &locator, weights});
    memory.attributeTo(&operations);
    IterationListeners both({&operations, &memory});
    self.iterate(workload, both, 1, Pass::Memory, Phase::Measuring);
    memory.attributeTo(nullptr);

    MemoryReport report;
    const std::vector<OperationRecord>& ops = operations.operations();
    for (size_t i = 0; i < workload.parameters().size(); ++i) {
        const torch::Tensor& tensor = workload.parameters()[i].tensor;
        WeightEntry entry{
            workload.parameters()[i].name,
            static_cast<int64_t>(tensor.nbytes()),
            tensor.grad().defined() ? static_cast<int64_t>(tensor.grad().nbytes()) : 0,
            {}};
        const int reader = operations.firstReaders()[i];
        if (reader >= 0) {
            entry.frames = ops[reader].frames;
        }
        report.weights.push_back(std::move(entry));
    }
    for (const auto& [op, bytes] : memory.activationBytes()) {
        if (bytes <= 0) {
            continue;
        }
        if (op >= 0) {
            report.activations.push_back({ops[op].name, bytes, ops[op].frames});
        } else {
            report.activations.push_back({kOutsideOperations, bytes, {}});
        }
    }
    report.peak_usage_bytes = memory.peakBytes();
    report.metadata = self.metadata(workload, "memory");
    std::vector<const StackTrace*> traces;
    for (const WeightEntry& entry : report.weights) {
        traces.push_back(&entry.frames);
    }
    for (const ActivationEntry& entry : report.activations) {
        traces.push_back(&entry.frames);
    }
    noteMissingProjectFrames(report.metadata, traces);
    return report;
}

TimeReport Profiler::measureTime() {
    const Impl& self = *impl_;
    self.checkCancel();
    self.report(Pass::Time, Phase::LoadingModel);
    Workload workload(self.config);
    IterationListener unobserved;
    const int plain_warmups = std::max(self.config.warmup - 1, 0);
    self.iterate(workload, unobserved, plain_warmups, Pass::Time, Phase::WarmUp, 1,
                 std::max(self.config.warmup, 1));

    // Stack frames are captured in an unmeasured iteration (the last warm-up, or an extra one
    // when there is none), so capturing them never slows the timed iterations.
    SourceLocator locator(workload.projectRoot(), self.config.frames_roots);
    std::vector<OperationRecord> captured;
    {
        OperationObserver capture({/*time=*/false, &locator, {}});
        self.iterate(workload, capture, 1, Pass::Time, Phase::WarmUp, plain_warmups + 1,
                     std::max(self.config.warmup, 1));
        captured = capture.operations();
    }

    std::vector<std::vector<OperationRecord>> runs;
    std::vector<double> iteration_ms;
    for (int i = 0; i < self.config.iterations; ++i) {
        OperationObserver timer({/*time=*/true, nullptr, {}});
        const double ms = self.iterate(workload, timer, 1, Pass::Time, Phase::Measuring, i + 1,
                                       self.config.iterations)[0];
        iteration_ms.push_back(ms);
        runs.push_back(timer.operations());
    }

    TimeReport report;
    for (const std::vector<OperationRecord>& run : runs) {
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
    for (size_t i = 0; i < captured.size(); ++i) {
        std::vector<double> forward, backward;
        bool has_backward = false;
        for (const std::vector<OperationRecord>& run : runs) {
            forward.push_back(run[i].forward_ms);
            backward.push_back(run[i].backward_ms);
            has_backward = has_backward || run[i].has_backward;
        }
        RunTimeEntry entry{captured[i].name, median(forward), std::nullopt, captured[i].frames};
        if (has_backward) {
            entry.backward_ms = median(backward);
        }
        report.entries.push_back(std::move(entry));
    }
    report.iteration_ms = median(iteration_ms);
    report.metadata = self.metadata(workload, "time");
    std::vector<const StackTrace*> traces;
    for (const RunTimeEntry& entry : report.entries) {
        traces.push_back(&entry.frames);
    }
    noteMissingProjectFrames(report.metadata, traces);
    return report;
}

}  // namespace trainscope
