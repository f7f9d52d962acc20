// SPDX-License-Identifier: Apache-2.0
// The archive and built-in runs: a driver of the profiling session (trainscope/session.h) over
// the training step that the engine builds itself (model/workload.h). One pass for memory, one
// for time, each on a fresh workload, so the memory meter never slows the timed steps and timing
// never disturbs memory figures.
#include "trainscope/profiler.h"

#include <torch/csrc/jit/runtime/graph_executor.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>

#include "analysis/module_paths.h"
#include "model/workload.h"
#include "session/archive_modules.h"
#include "tracking/source_locator.h"
#include "trainscope/error.h"
#include "trainscope/report_format.h"
#include "trainscope/session.h"

namespace trainscope {

std::string stageName(const Progress& progress) {
    const char* phase = progress.phase == Phase::LoadingModel ? "loading model"
                        : progress.phase == Phase::WarmUp     ? "warm-up"
                                                              : "measuring";
    return std::string(progress.pass == Pass::Memory ? "memory" : "time") + ": " + phase;
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

namespace {

TensorBlock blockOf(const torch::Tensor& tensor) {
    if (!tensor.defined()) {
        return {};
    }
    return {tensor.storage().data(), static_cast<int64_t>(tensor.nbytes())};
}

// A session's view of a workload: TorchScript's frames, the model's module tree and its
// parameters. Made before the workload (whose allocations the memory pass's meter must see),
// and given the workload once it exists.
class ArchiveSources : public ParameterSource {
  public:
    explicit ArchiveSources(const RunConfig& config)
        : locator_(config.project_root.empty() ? defaultProjectRoot(config) : config.project_root,
                   config.frames_roots),
          frames_(locator_) {}

    const ModulePaths* moduleTree() const { return &module_tree_; }

    void attach(const Workload& workload) {
        workload_ = &workload;
        std::vector<ModulePaths::TreeModule> tree;
        for (const auto& named : workload.module().named_modules()) {
            const auto type = named.value.type()->name();
            tree.push_back({named.name, type ? type->name() : std::string()});
        }
        module_tree_ = ModulePaths(tree);
    }

    SessionOptions options(const RunConfig& config) {
        SessionOptions options;
        options.device = config.device;
        options.parts = StepParts::Marked;
        options.frames = &frames_;
        options.parameters = this;
        return options;
    }

    std::vector<ObservedParameter> parameters() override {
        std::vector<ObservedParameter> observed;
        if (!workload_) {
            return observed;
        }
        for (size_t i = 0; i < workload_->parameters().size(); ++i) {
            const NamedParameter& parameter = workload_->parameters()[i];
            ObservedParameter entry{parameter.name,
                                    parameter.aliases,
                                    ModulePaths::ofParameter(parameter.name),
                                    blockOf(parameter.tensor),
                                    blockOf(parameter.tensor.grad()),
                                    {}};
            for (const torch::Tensor& state : workload_->optimizerState(i))
                entry.optimizer_state.push_back(blockOf(state));
            observed.push_back(std::move(entry));
        }
        return observed;
    }

  private:
    SourceLocator locator_;
    TorchScriptFrames frames_;
    ModulePaths module_tree_;
    const Workload* workload_ = nullptr;
};

// The workload marks each part of its iteration; as an observed step, the session hears them.
class SessionSteps : public IterationListener {
  public:
    explicit SessionSteps(Session& session) : session_(session) {}
    void forwardBegins() override { session_.beginStep(); }
    void backwardBegins() override { session_.backwardBegins(); }
    void backwardEnded() override { session_.backwardEnded(); }
    void iterationEnded() override { session_.endStep(); }

  private:
    Session& session_;
};

}  // namespace

struct Profiler::Impl {
    RunConfig config;
    ProgressCallback progress;
    const std::atomic<bool>* cancel = nullptr;
    // Archives only: the graph executor would otherwise merge the ops of a method into one
    // differentiable graph after a few runs, with one backward node for all, and per-op times
    // would be impossible. The setting is the thread's; it is restored with the profiler.
    std::optional<torch::jit::GraphOptimizerEnabledGuard> graph_executor;

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

    // Runs `count` iterations, reporting each under pass and phase.
    void iterate(Workload& workload, IterationListener& listener, int count, Pass pass, Phase phase,
                 int first = 1, int total = 0) const {
        CancelCheck cancel_check(cancel);
        IterationListeners checked({&cancel_check, &listener});
        for (int i = 0; i < count; ++i) {
            checkCancel();
            const auto start = std::chrono::steady_clock::now();
            workload.runIteration(checked);
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
            report(pass, phase, first + i, total ? total : count, ms);
        }
    }

    // The facts of the run for every report; the session adds the pass and the device's.
    RunMetadata metadata(const Workload& workload) const {
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
        return {{"model", config.model},
                {"model_params", params},
                {"inputs", inputs},
                {"dtype", toString(config.dtype)},
                {"loss", toString(workload.loss())},
                {"optimizer", toString(config.optimizer)},
                {"warmup", std::to_string(config.warmup)},
                {"iterations", std::to_string(config.iterations)},
                {"seed", std::to_string(config.seed)},
                {report_format::kProjectRootKey, root.empty() ? workload.projectRoot() : root}};
    }
};

Profiler::Profiler(RunConfig config, ProgressCallback progress, const std::atomic<bool>* cancel)
    : impl_(std::make_unique<Impl>()) {
    validateConfig(config);
    impl_->config = std::move(config);
    impl_->progress = std::move(progress);
    impl_->cancel = cancel;
    impl_->graph_executor.emplace(false);
}

Profiler::~Profiler() = default;

const RunConfig& Profiler::config() const {
    return impl_->config;
}

// The memory step follows at least one warm-up iteration, so that it holds what a training
// step holds (the optimizer's state, the gradients' blocks); it is the pass's step
// max(warmup, 1) + 1.
MemoryMeasurement Profiler::measureMemoryAndTimeline() {
    const Impl& self = *impl_;
    self.checkCancel();
    self.report(Pass::Memory, Phase::LoadingModel);
    ArchiveSources sources(self.config);
    const int warmups = std::max(self.config.warmup, 1);
    SessionOptions options = sources.options(self.config);
    options.first_step = warmups + 1;
    // The session (its meter) exists before the workload, so weights, inputs and optimizer
    // state count.
    Session session(std::move(options));
    ArchiveModules::resolveWith(session, sources.moduleTree());
    Workload workload(self.config);
    sources.attach(workload);
    session.addMetadata(self.metadata(workload));
    IterationListener unobserved;
    self.iterate(workload, unobserved, warmups, Pass::Memory, Phase::WarmUp);
    SessionSteps step(session);
    self.iterate(workload, step, 1, Pass::Memory, Phase::Measuring);
    SessionReports reports = session.assemble();
    return {std::move(reports.memory), std::move(reports.timeline)};
}

// The session's first step captures what timing must not pay for (each operation's frames,
// module and the weights it reads) as the last warm-up iteration; the measured iterations are
// its timed steps, matched to it operation by operation.
TimeReport Profiler::measureTime() {
    const Impl& self = *impl_;
    self.checkCancel();
    self.report(Pass::Time, Phase::LoadingModel);
    ArchiveSources sources(self.config);
    Workload workload(self.config);
    sources.attach(workload);
    const int warmups = std::max(self.config.warmup, 1);
    IterationListener unobserved;
    self.iterate(workload, unobserved, warmups - 1, Pass::Time, Phase::WarmUp, 1, warmups);
    SessionOptions options = sources.options(self.config);
    options.first_step = warmups;
    Session session(std::move(options));
    ArchiveModules::resolveWith(session, sources.moduleTree());
    session.addMetadata(self.metadata(workload));
    SessionSteps step(session);
    self.iterate(workload, step, 1, Pass::Time, Phase::WarmUp, warmups, warmups);
    self.iterate(workload, step, self.config.iterations, Pass::Time, Phase::Measuring, 1,
                 self.config.iterations);
    return session.assemble().time;
}

}  // namespace trainscope
