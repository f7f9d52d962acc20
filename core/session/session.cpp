// SPDX-License-Identifier: Apache-2.0
// The session over steps that a host runs (trainscope/session.h): the first observed step under
// the memory meter and the timeline recorder, the later ones under the timer alone.
#include "trainscope/session.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>

#include "analysis/memory_report.h"
#include "analysis/step_matching.h"
#include "analysis/time_report.h"
#include "analysis/timeline_builder.h"
#include "device/cuda.h"
#include "report/staged_timeline.h"
#include "session/archive_modules.h"
#include "tracking/gradient_sampler.h"
#include "tracking/memory_observer.h"
#include "tracking/operation_observer.h"
#include "trainscope/engine.h"
#include "trainscope/error.h"
#include "trainscope/report_format.h"

namespace trainscope {
namespace {

// One session at a time: the observers hook process-wide callbacks.
std::atomic<bool> g_session_active{false};

using Clock = std::chrono::steady_clock;

int64_t epochNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The rank the host named in the metadata ("rank"), or -1: not a distributed run.
int rankOf(const RunMetadata& metadata) {
    const auto it = metadata.find(report_format::kRankKey);
    if (it == metadata.end()) {
        return -1;
    }
    try {
        return std::stoi(it->second);
    } catch (const std::exception&) {
        return -1;
    }
}

// The memory step's timeline: built whole, or with a path written to its staged file part by
// part as it is built, the record it is built from released as it is read, so that the step's
// record and its timeline are never held whole side by side (the report keeps the counts; the
// steps are added when the reports are assembled).
std::shared_ptr<StagedFile> buildTimeline(TimelineSources& sources, TimelineReport& timeline,
                                          const std::string& path) {
    if (path.empty()) {
        buildTimelineMemory(sources, timeline);
        buildTimelineCalls(sources, timeline);
        return nullptr;
    }
    StagedTimelineWriter writer(path);
    TimelineReport::Written written;
    const TimelineFlush write_samples = [&](TimelineReport& part) {
        writer.writeSamples(part);
        written.memory += part.memory.size();
        part.memory.clear();
    };
    buildTimelineMemory(sources, timeline, write_samples);
    write_samples(timeline);  // the last samples
    writer.writeBlocks(timeline);
    written.blocks = timeline.blocks.size();
    timeline.blocks.clear();
    const TimelineFlush write_calls = [&](TimelineReport& part) {
        writer.writeCalls(part);
        written.calls += part.calls.size();
        part.calls.clear();
    };
    buildTimelineCalls(sources, timeline, write_calls);
    write_calls(timeline);  // the last calls
    writer.writeCallLinks(timeline);
    timeline.callchains = {};
    timeline.connections = {};
    timeline.steps.clear();
    std::shared_ptr<StagedFile> file = writer.finish(timeline);
    timeline.written = written;
    return file;
}

}  // namespace

struct Session::Impl {
    SessionOptions options;
    const ModulePaths* module_tree = nullptr;  // ArchiveModules: in place of options.modules
    std::unique_ptr<MemoryObserver> memory;    // until the memory step ends
    // The memory step's gradients as it makes them, and the listeners of its parts (the meter,
    // then the gradients).
    std::unique_ptr<GradientSampler> gradients;
    std::unique_ptr<IterationListeners> memory_parts;
    std::unique_ptr<cuda::EventTimer> gpu_timer;  // timed steps on a GPU
    std::unique_ptr<OperationObserver> observer;  // the open step's
    bool step_open = false;
    bool abandoned = false;
    Clock::time_point step_start;
    int64_t step_start_ns = 0;

    // What the steps recorded (the memory step's operations, the timed steps' times, the
    // compilations and kernels), and the memory step's reports.
    RecordedSteps recorded;
    std::optional<MemoryReport> memory_report;
    std::vector<int> activation_kernels;  // MemoryStepReport's
    TimelineReport timeline;
    std::shared_ptr<StagedFile> timeline_file;  // SessionOptions::timeline_path
    bool assembled = false;                     // assemble() moved the reports out
    // Compiled regions' kernels' times in the open timed step, per site (kernelRan may come
    // from autograd's device threads: under kernel_mutex, as recorded.kernel_* are).
    std::mutex kernel_mutex;
    std::vector<double> step_kernel_ms;
    std::vector<int64_t> step_kernel_calls;

    bool memoryStep() const { return !memory_report; }

    bool partsMarked() const { return options.parts == StepParts::Marked; }

    // A part of the open step begins: its observer hears of it, and in the memory step the
    // meter (which attributes each block to the part that allocated it).
    void tell(void (IterationListener::*part)()) {
        (observer.get()->*part)();
        if (memoryStep()) {
            (memory_parts.get()->*part)();
        }
    }

    RunMetadata metadataFor(const char* pass) const {
        RunMetadata metadata = options.metadata;
        metadata["pass"] = pass;
        metadata["device"] = toString(options.device);
        addEngineFacts(metadata);
        if (options.device == Device::Cuda) {
            if (const auto gpu = cuda::deviceInfo()) {
                metadata[report_format::kDeviceNameKey] = gpu->name;
                metadata[report_format::kDeviceMemoryKey] = std::to_string(gpu->total_bytes);
            }
        }
        return metadata;
    }

    void finishMemoryStep();
    void finishTimedStep(double ms);
};

void ArchiveModules::resolveWith(Session& session, const ModulePaths* tree) {
    session.impl_->module_tree = tree;
}

Session::Session(SessionOptions options) : impl_(std::make_unique<Impl>()) {
    bool expected = false;
    if (!g_session_active.compare_exchange_strong(expected, true)) {
        throw Error("another TrainScope session is observing this process already");
    }
    impl_->options = std::move(options);
    try {
        impl_->memory = std::make_unique<MemoryObserver>(
            impl_->options.device == Device::Cuda ? c10::DeviceType::CUDA : c10::DeviceType::CPU);
    } catch (...) {
        g_session_active.store(false);
        throw;
    }
}

Session::~Session() {
    impl_->observer.reset();
    impl_->memory_parts.reset();
    impl_->gradients.reset();
    impl_->memory.reset();
    g_session_active.store(false);
}

void Session::countExisting(const std::vector<TensorBlock>& blocks) {
    if (!impl_->memory) {
        return;  // the memory step is over: nothing more is counted
    }
    for (const TensorBlock& block : blocks)
        impl_->memory->addExistingBlock(block.data, block.bytes);
}

void Session::existingBlockFreed(const void* block) {
    if (impl_->memory && block != nullptr) {
        impl_->memory->existingBlockFreed(block);
    }
}

void Session::beginStep() {
    Impl& self = *impl_;
    if (self.abandoned) {
        throw Error("the session ended when a step raised an exception");
    }
    if (self.step_open) {
        throw Error("a step is open already: end it before the next one begins");
    }
    OperationObserver::Options options;
    options.eager = !self.partsMarked();
    options.time = true;
    if (self.memoryStep()) {
        options.timeline = true;
        options.frames = self.options.frames;
        options.module_source = self.options.modules;
        options.modules = self.module_tree != nullptr;
        self.gradients =
            std::make_unique<GradientSampler>(self.options.parameters, self.memory.get());
        self.memory_parts = std::make_unique<IterationListeners>(
            std::vector<IterationListener*>{self.memory.get(), self.gradients.get()});
        if (!self.partsMarked()) {
            options.phases = self.memory_parts.get();  // the observer finds the parts
        }
        options.inputs = true;  // the timeline's input shapes and types of every call
        options.backward_roots = self.memory.get();
        options.weights_by_storage = true;
        if (self.options.parameters) {
            for (const ObservedParameter& p : self.options.parameters->parameters())
                options.weights.push_back(p.weight.data);
        }
        self.observer = std::make_unique<OperationObserver>(options);
        self.memory->attributeTo(self.observer.get());
        std::lock_guard<std::mutex> lock(self.kernel_mutex);
        self.recorded.kernel_of_block.clear();  // of a memory step that was dropped
    } else {
        if (self.options.device == Device::Cuda && !self.gpu_timer) {
            self.gpu_timer = std::make_unique<cuda::EventTimer>();
        }
        options.gpu_timer = self.gpu_timer.get();
        options.expected_operations =
            self.recorded.operations.size() + self.recorded.operations.size() / 16;
        self.observer = std::make_unique<OperationObserver>(options);
    }
    self.step_open = true;
    self.step_start_ns = epochNs();
    self.tell(&IterationListener::forwardBegins);
    self.step_start = Clock::now();  // last, so that the setup is not timed
}

void Session::forwardBegins() {
    Impl& self = *impl_;
    if (!self.step_open) {
        return;  // a forward outside the observed steps (warm-up, evaluation)
    }
    if (!self.partsMarked() && self.observer->callerInBackwardNode()) {
        return;  // a checkpoint of the whole model runs it again: no micro-batch
    }
    self.tell(&IterationListener::forwardBegins);
}

void Session::backwardBegins() {
    Impl& self = *impl_;
    if (!self.step_open || !self.partsMarked()) {
        return;
    }
    self.tell(&IterationListener::backwardBegins);
}

void Session::backwardEnded() {
    Impl& self = *impl_;
    if (!self.step_open || !self.partsMarked()) {
        return;
    }
    self.tell(&IterationListener::backwardEnded);
}

void Session::endStep() {
    Impl& self = *impl_;
    if (!self.step_open) {
        throw Error("no step is open");
    }
    const double ms = msSince(self.step_start);
    self.step_open = false;
    self.observer->awaitOpenCollectives(std::chrono::seconds(2));
    self.observer->iterationEnded();
    self.recorded.steps.push_back(
        {self.options.first_step + static_cast<int64_t>(self.recorded.steps.size()),
         self.step_start_ns, epochNs()});
    if (self.memoryStep()) {
        self.recorded.memory_step_ms = ms;
        self.finishMemoryStep();
    } else {
        self.finishTimedStep(ms);
    }
}

void Session::abandonStep() {
    Impl& self = *impl_;
    self.observer.reset();
    self.memory_parts.reset();
    self.gradients.reset();
    self.memory.reset();
    self.step_open = false;
    self.abandoned = true;
}

void Session::dropStep() {
    Impl& self = *impl_;
    if (!self.step_open) {
        return;
    }
    self.step_open = false;
    self.observer.reset();
    {
        std::lock_guard<std::mutex> lock(self.kernel_mutex);
        self.step_kernel_ms.clear();
        self.step_kernel_calls.clear();
    }
    if (self.memory && self.memoryStep()) {
        self.memory->iterationEnded();
        self.memory->attributeTo(nullptr);
    }
}

void Session::addCompilations(const std::vector<Compilation>& compilations) {
    impl_->recorded.compilations.insert(impl_->recorded.compilations.end(), compilations.begin(),
                                        compilations.end());
}

int Session::addKernelSite(CompiledKernelSite site) {
    std::lock_guard<std::mutex> lock(impl_->kernel_mutex);
    impl_->recorded.kernel_sites.push_back(std::move(site));
    return static_cast<int>(impl_->recorded.kernel_sites.size()) - 1;
}

void Session::kernelWrote(int site, const std::vector<const void*>& storages) {
    Impl& self = *impl_;
    if (!self.step_open || !self.memoryStep() || !self.memory || site < 0 ||
        self.observer->currentOperation() < 0) {
        return;  // only the forward's blocks can be activations
    }
    const std::vector<std::optional<int64_t>> events = self.memory->liveEvents(storages);
    std::lock_guard<std::mutex> lock(self.kernel_mutex);
    for (const std::optional<int64_t>& event : events)
        if (event && *event >= 0) {
            self.recorded.kernel_of_block[*event] = site;
        }
}

void Session::compilationBegins() {
    OperationObserver::compilationBegins();
}

void Session::compilationEnds() {
    OperationObserver::compilationEnds();
}

void Session::forsakeInForkedChild() {
    OperationObserver::stopObservingInThisProcess();
    MemoryObserver::stopCountingInThisProcess();
}

void Session::kernelRan(int site, double ms) {
    Impl& self = *impl_;
    if (!self.step_open || site < 0) {
        return;
    }
    std::lock_guard<std::mutex> lock(self.kernel_mutex);
    if (static_cast<size_t>(site) >= self.recorded.kernel_sites.size()) {
        return;
    }
    if (self.memoryStep()) {  // where it runs; its times include the meter's cost
        self.recorded.kernel_operations.resize(self.recorded.kernel_sites.size(), -1);
        if (self.recorded.kernel_operations[site] < 0) {
            const int forward = self.observer->currentOperation();
            self.recorded.kernel_operations[site] =
                forward >= 0 ? forward : self.observer->backwardNodeOwner();
        }
        return;
    }
    if (self.step_kernel_ms.size() < self.recorded.kernel_sites.size()) {
        self.step_kernel_ms.resize(self.recorded.kernel_sites.size());
        self.step_kernel_calls.resize(self.recorded.kernel_sites.size());
    }
    self.step_kernel_ms[site] += ms;
    ++self.step_kernel_calls[site];
}

bool Session::recordsTimeline() const {
    return impl_->step_open && impl_->memoryStep();
}

void Session::addMetadata(const RunMetadata& facts) {
    for (const auto& [key, value] : facts)
        impl_->options.metadata[key] = value;
}

int Session::observedSteps() const {
    return static_cast<int>(impl_->recorded.steps.size());
}

bool Session::stepOpen() const {
    return impl_->step_open;
}

void Session::Impl::finishMemoryStep() {
    gradients->sample();
    memory->iterationEnded();
    memory->attributeTo(nullptr);
    recorded.operations = observer->takeOperations();
    recorded.traces = observer->takeTraces();
    recorded.collectives = observer->collectives();
    MemoryRecord record = memory->takeRecord();
    MemoryStepSources sources;
    sources.memory = &record;
    if (options.parameters) {
        sources.parameters = options.parameters->parameters();
    }
    sources.gradient_blocks = &gradients->blocks();
    sources.gradient_bytes = &gradients->bytesByParameter();
    sources.module_tree = module_tree;
    sources.collectives = &recorded.collectives;
    if (options.device == Device::Cuda) {
        // The caching allocator's statistics, reset when the step began, are the peak.
        sources.allocator_peak = cuda::allocatorStats().peak_allocated;
    }
    sources.metadata = metadataFor("memory");
    TimelineSources timeline_sources;
    timeline_sources.calls = observer->takeTimeline();
    sources.timeline = &timeline_sources.calls;
    MemoryStepReport report;
    {
        std::lock_guard<std::mutex> lock(kernel_mutex);
        report = assembleMemoryReport(recorded, sources);
    }
    activation_kernels = std::move(report.activation_kernels);

    timeline_sources.memory = &record;
    timeline_sources.operations = &recorded.operations;
    timeline_sources.traces = &recorded.traces;
    timeline_sources.call_inputs = &observer->callInputs();
    timeline_sources.input_texts = &observer->inputTexts();
    timeline_sources.forward_thread = observer->forwardThread();
    timeline_sources.operation_modules = &recorded.operation_modules;
    timeline_sources.step_id = options.first_step;
    timeline = TimelineReport{};
    timeline.metadata = report.report.metadata;
    timeline.rank = rankOf(report.report.metadata);
    timeline_file = buildTimeline(timeline_sources, timeline, options.timeline_path);
    memory_report = std::move(report.report);
    // The memory meter's hook and the timeline's callback end with the memory step: the timed
    // steps run without them.
    observer.reset();
    memory_parts.reset();
    gradients.reset();
    memory.reset();
}

void Session::Impl::finishTimedStep(double ms) {
    std::vector<CollectiveRecord> run_collectives = observer->collectives();
    StepMatch match = matchStep(recorded.operations, observer->takeOperations());
    observer.reset();
    if (!match.same()) {
        StepDifferences& d = recorded.differences;
        ++d.steps;
        d.unmatched_calls += match.unmatched;
        d.missing_operations += match.missing;
        addDistinctNames(d.unmatched_names, match.unmatched_names);
        addDistinctNames(d.missing_names, match.missing_names);
    }
    recorded.timed.push_back(std::move(match.aligned));
    recorded.timed_collectives.push_back(std::move(run_collectives));
    recorded.timed_ms.push_back(ms);
    std::lock_guard<std::mutex> lock(kernel_mutex);
    recorded.timed_kernels.ms.push_back(std::move(step_kernel_ms));
    recorded.timed_kernels.calls.push_back(std::move(step_kernel_calls));
    step_kernel_ms.clear();
    step_kernel_calls.clear();
}

SessionReports Session::assemble() {
    Impl& self = *impl_;
    if (!self.memory_report) {
        throw Error("no step was observed");
    }
    if (self.assembled) {
        throw Error("the session's reports were assembled already");
    }
    self.assembled = true;
    // Moved, not copied: a large step's timeline is most of what the session holds.
    SessionReports reports;
    reports.memory = std::move(*self.memory_report);
    reports.timeline = std::move(self.timeline);
    reports.timeline.steps = self.recorded.steps;
    reports.timeline.step_collectives = stepCollectives(self.recorded);
    if (self.timeline_file) {
        addTimelineSteps(*self.timeline_file, self.recorded.steps,
                         reports.timeline.step_collectives);
        reports.timeline_file = std::move(self.timeline_file);
    }
    std::lock_guard<std::mutex> lock(self.kernel_mutex);
    reports.time = assembleTimeReport(self.recorded, self.metadataFor("time"),
                                      self.activation_kernels, reports.memory.activations);
    return reports;
}

}  // namespace trainscope
