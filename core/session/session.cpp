// SPDX-License-Identifier: Apache-2.0
// The session over steps that a host runs (trainscope/session.h): the first observed step under
// the memory meter and the timeline recorder, the later ones under the timer alone.
#include "trainscope/session.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>

#include "analysis/compiled_kernels.h"
#include "analysis/frames_note.h"
#include "analysis/median_times.h"
#include "analysis/peak_breakdown.h"
#include "analysis/step_matching.h"
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

// " (aten::set_, aten::to, ...)": the first names of a list, or nothing for none.
std::string namesInParentheses(const std::vector<std::string>& names) {
    constexpr size_t kShown = 6;
    std::string text;
    for (size_t i = 0; i < names.size() && i < kShown; ++i)
        text += (i ? ", " : "") + names[i];
    if (names.size() > kShown) {
        text += ", and " + std::to_string(names.size() - kShown) + " more";
    }
    return names.empty() ? text : " (" + text + ")";
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

    // The memory step: its operations (frames, modules, parts) and reports.
    std::vector<OperationRecord> operations;
    StackTraces traces;  // the operations' frames
    std::vector<std::string> operation_modules;
    std::vector<CollectiveRecord> collectives;
    double memory_step_ms = 0.0;
    std::optional<MemoryReport> memory_report;
    TimelineReport timeline;
    std::shared_ptr<StagedFile> timeline_file;  // SessionOptions::timeline_path
    bool assembled = false;                     // assemble() moved the reports out
    // The timed steps.
    std::vector<std::vector<OperationTiming>> timed;
    std::vector<std::vector<CollectiveRecord>> timed_collectives;
    std::vector<double> timed_ms;
    std::vector<TimelineStep> steps;
    std::vector<Compilation> compilations;  // addCompilations
    // Compiled regions' kernels (addKernelSite) and their times: the open step's, per site,
    // and each timed step's (aligned with `timed`).
    std::vector<CompiledKernelSite> kernel_sites;
    // Per site: the memory step's operation it ran in (its forward, or the backward node of
    // it), or -1: where its row goes.
    std::vector<int> kernel_operations;
    std::mutex kernel_mutex;  // kernelRan may come from autograd's device threads
    std::vector<double> step_kernel_ms;
    std::vector<int64_t> step_kernel_calls;
    KernelSteps timed_kernels;
    // The memory step's blocks by allocation event that a kernel wrote last (kernelWrote), and
    // for each activation entry the kernel site it names (-1: its operation): their entry
    // numbers become the kernels' rows when the run time report is assembled.
    std::unordered_map<int64_t, int> kernel_of_block;
    std::vector<int> activation_kernels;
    // Timed steps that ran other operations than the memory step (analysis/step_matching.h).
    int differing_steps = 0;
    int unmatched_calls = 0;
    int missing_operations = 0;
    std::vector<std::string> unmatched_names, missing_names;  // each once, as met

    bool memoryStep() const { return !memory_report; }

    // Every observed step's collectives, as the timeline lists them (the memory step's, then
    // each timed step's).
    std::vector<StepCollective> stepCollectives() const {
        std::vector<StepCollective> result;
        auto add = [&](size_t step, const std::vector<CollectiveRecord>& records) {
            if (step >= steps.size()) {
                return;
            }
            for (const CollectiveRecord& c : records)
                result.push_back({steps[step].id, c.name, c.bytes, c.start_ms, c.ms});
        };
        add(0, collectives);
        for (size_t i = 0; i < timed_collectives.size(); ++i)
            add(i + 1, timed_collectives[i]);
        return result;
    }

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
        self.kernel_of_block.clear();  // of a memory step that was dropped
    } else {
        if (self.options.device == Device::Cuda && !self.gpu_timer) {
            self.gpu_timer = std::make_unique<cuda::EventTimer>();
        }
        options.gpu_timer = self.gpu_timer.get();
        options.expected_operations = self.operations.size() + self.operations.size() / 16;
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
    self.steps.push_back({self.options.first_step + static_cast<int64_t>(self.steps.size()),
                          self.step_start_ns, epochNs()});
    if (self.memoryStep()) {
        self.memory_step_ms = ms;
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
    impl_->compilations.insert(impl_->compilations.end(), compilations.begin(), compilations.end());
}

int Session::addKernelSite(CompiledKernelSite site) {
    std::lock_guard<std::mutex> lock(impl_->kernel_mutex);
    impl_->kernel_sites.push_back(std::move(site));
    return static_cast<int>(impl_->kernel_sites.size()) - 1;
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
            self.kernel_of_block[*event] = site;
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
    if (static_cast<size_t>(site) >= self.kernel_sites.size()) {
        return;
    }
    if (self.memoryStep()) {  // where it runs; its times include the meter's cost
        self.kernel_operations.resize(self.kernel_sites.size(), -1);
        if (self.kernel_operations[site] < 0) {
            const int forward = self.observer->currentOperation();
            self.kernel_operations[site] =
                forward >= 0 ? forward : self.observer->backwardNodeOwner();
        }
        return;
    }
    if (self.step_kernel_ms.size() < self.kernel_sites.size()) {
        self.step_kernel_ms.resize(self.kernel_sites.size());
        self.step_kernel_calls.resize(self.kernel_sites.size());
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
    return static_cast<int>(impl_->steps.size());
}

bool Session::stepOpen() const {
    return impl_->step_open;
}

void Session::Impl::finishMemoryStep() {
    gradients->sample();
    memory->iterationEnded();
    memory->attributeTo(nullptr);
    operations = observer->takeOperations();
    traces = observer->takeTraces();
    collectives = observer->collectives();
    const std::vector<ObservedParameter> parameters =
        options.parameters ? options.parameters->parameters() : std::vector<ObservedParameter>{};
    if (module_tree) {
        std::vector<std::string> weight_names;
        for (const ObservedParameter& p : parameters)
            weight_names.push_back(p.name);
        const std::vector<std::string> paths = module_tree->resolve(operations, weight_names);
        for (size_t i = 0; i < operations.size(); ++i)
            operations[i].module_path = paths[i];
    }
    operation_modules.clear();
    for (const OperationRecord& op : operations)
        operation_modules.push_back(op.module_path);

    MemoryReport report;
    std::vector<int> first_reader(parameters.size(), -1);
    for (size_t op = 0; op < operations.size(); ++op)
        for (int weight : operations[op].weights_read)
            if (first_reader[weight] < 0)
                first_reader[weight] = static_cast<int>(op);
    for (OperationRecord& op : operations)
        std::vector<int>().swap(op.weights_read);  // read once, above: the session keeps the rest
    ParameterBlocks blocks;
    for (size_t i = 0; i < parameters.size(); ++i) {
        const ObservedParameter& p = parameters[i];
        // A gradient freed before the step ended (set to None) is the one the step made.
        const auto sampled = gradients->bytesByParameter().find(p.name);
        const int64_t gradient_bytes = p.gradient.data ? p.gradient.bytes
                                       : sampled != gradients->bytesByParameter().end()
                                           ? sampled->second
                                           : 0;
        WeightEntry entry{p.name, p.weight.bytes, gradient_bytes, {}, p.module_path, p.aliases};
        for (const TensorBlock& state : p.optimizer_state)
            entry.optimizer_state_bytes += state.bytes;
        if (first_reader[i] >= 0) {
            entry.frames = traces[operations[first_reader[i]].trace];
        }
        using Kind = ParameterBlock::Kind;
        blocks[p.weight.data] = {Kind::Weight, p.module_path};
        if (p.gradient.data) {
            blocks[p.gradient.data] = {Kind::Gradient, p.module_path};
        }
        for (const TensorBlock& state : p.optimizer_state)
            blocks[state.data] = {Kind::OptimizerState, p.module_path};
        report.weights.push_back(std::move(entry));
    }
    // Activations by the operation that allocated them and, in a compiled region, the kernel
    // that wrote them last.
    std::map<std::pair<int, int>, int64_t> activation_bytes;
    std::unordered_map<int64_t, std::string> kernel_modules;  // by allocation event
    {
        std::lock_guard<std::mutex> lock(kernel_mutex);
        for (int64_t event : memory->activationEvents()) {
            const MemoryEvent& allocation = memory->events()[static_cast<size_t>(event)];
            const auto kernel = kernel_of_block.find(event);
            const int site =
                kernel != kernel_of_block.end() && allocation.operation >= 0 ? kernel->second : -1;
            activation_bytes[{allocation.operation, site}] += allocation.bytes;
        }
        for (const auto& [event, site] : kernel_of_block)
            if (!kernel_sites[site].module_path.empty()) {
                kernel_modules[event] = kernel_sites[site].module_path;
            }
    }
    activation_kernels.clear();
    for (const auto& [key, bytes] : activation_bytes) {
        const auto [op, site] = key;
        if (bytes <= 0) {
            continue;
        }
        if (op < 0) {
            report.activations.push_back({report_format::kOutsideOperations, bytes, {}, {}, 0});
        } else if (site < 0) {
            const OperationRecord& record = operations[op];
            report.activations.push_back(
                {record.name, bytes, traces[record.trace], record.module_path, op + 1});
        } else {  // the kernel's lines above its region's call site, as its run time row
            const OperationRecord& region = operations[op];
            const CompiledKernelSite& kernel = kernel_sites[site];
            StackTrace frames = kernel.frames;
            const StackTrace& call_site = traces[region.trace];
            frames.insert(frames.end(), call_site.begin(), call_site.end());
            report.activations.push_back(
                {kernel.kernel, bytes, std::move(frames),
                 kernel.module_path.empty() ? region.module_path : kernel.module_path, op + 1});
        }
        activation_kernels.push_back(site);
    }
    report.peak_usage_bytes = memory->peakBytes();
    PeakAnalysis peak =
        analyzePeak(*memory, blocks, gradients->blocks(), operation_modules, kernel_modules);
    if (options.device == Device::Cuda) {
        // The caching allocator's statistics, reset when the step began, are the peak; what
        // they hold beyond the blocks the meter saw allocated (blocks older than it,
        // allocations on threads the hook does not reach) is "other".
        report.peak_usage_bytes = cuda::allocatorStats().peak_allocated;
        peak.breakdown.other += report.peak_usage_bytes - peak.breakdown.total();
    }
    report.peak_breakdown = peak.breakdown;
    report.peak_by_module = std::move(peak.by_module);
    report.metadata = metadataFor("memory");
    std::vector<std::string> incomplete;
    if (operations.empty()) {
        incomplete.push_back(
            "the memory step ran no operation on the thread that observes the steps (the one "
            "that started the session and marks each step): a step run on another thread is not "
            "observed, and this report lacks it");
    }
    if (memory->displaced()) {
        incomplete.push_back(
            "another profiler (torch's own) took c10's allocation reports from TrainScope's "
            "memory meter, which observes from the session's start to the first observed step's "
            "end: the allocations it took are missing from this report");
    }
    if (!incomplete.empty()) {
        std::string& note = report.metadata[report_format::kMemoryNoteKey];
        for (const std::string& why : incomplete)
            note += (note.empty() ? "" : "; ") + why;
    }
    std::vector<const StackTrace*> entry_frames;
    for (const WeightEntry& entry : report.weights)
        entry_frames.push_back(&entry.frames);
    for (const ActivationEntry& entry : report.activations)
        entry_frames.push_back(&entry.frames);
    noteMissingProjectFrames(report.metadata, entry_frames);

    TimelineSources sources;
    sources.observed = observer.get();
    sources.recorder = observer->takeTimeline();
    sources.memory = memory.get();
    sources.operations = &operations;
    sources.traces = &traces;
    sources.call_inputs = &observer->callInputs();
    sources.operation_modules = &operation_modules;
    sources.step_id = options.first_step;
    timeline = TimelineReport{};
    timeline.metadata = report.metadata;
    timeline.rank = rankOf(report.metadata);
    if (options.timeline_path.empty()) {
        buildTimelineMemory(sources, timeline);
        buildTimelineCalls(sources, timeline);
    } else {
        // Each part is written chunk by chunk as it is built, and the record it is built from
        // released as it is read, so that the step's record and its timeline are never held
        // whole side by side (the report keeps the counts); the steps are added when the
        // reports are assembled.
        StagedTimelineWriter writer(options.timeline_path);
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
        timeline_file = writer.finish(timeline);
        timeline.written = written;
    }
    memory_report = std::move(report);
    // The memory meter's hook and the timeline's callback end with the memory step: the timed
    // steps run without them.
    observer.reset();
    memory_parts.reset();
    gradients.reset();
    memory.reset();
}

void Session::Impl::finishTimedStep(double ms) {
    std::vector<CollectiveRecord> run_collectives = observer->collectives();
    StepMatch match = matchStep(operations, observer->takeOperations());
    observer.reset();
    if (!match.same()) {
        ++differing_steps;
        unmatched_calls += match.unmatched;
        missing_operations += match.missing;
        addDistinctNames(unmatched_names, match.unmatched_names);
        addDistinctNames(missing_names, match.missing_names);
    }
    timed.push_back(std::move(match.aligned));
    timed_collectives.push_back(std::move(run_collectives));
    timed_ms.push_back(ms);
    std::lock_guard<std::mutex> lock(kernel_mutex);
    timed_kernels.ms.push_back(std::move(step_kernel_ms));
    timed_kernels.calls.push_back(std::move(step_kernel_calls));
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
    reports.timeline.steps = self.steps;
    reports.timeline.step_collectives = self.stepCollectives();
    if (self.timeline_file) {
        addTimelineSteps(*self.timeline_file, self.steps, reports.timeline.step_collectives);
        reports.timeline_file = std::move(self.timeline_file);
    }
    // torch.compile's compilations, each in the step it ran in. A timed step that compiled
    // holds the compilation in its time: the medians leave it out, unless every one did.
    std::vector<Compilation> compilations = self.compilations;
    std::set<size_t> compiled;  // indices into steps
    for (Compilation& c : compilations) {
        c.step = 0;  // before the first observed step, unless it ran in one
        for (size_t i = 0; i < self.steps.size(); ++i) {
            if (c.start_ns >= self.steps[i].start_ns && c.start_ns <= self.steps[i].end_ns) {
                c.step = self.steps[i].id;
                compiled.insert(i);
                break;
            }
        }
    }
    // The timed steps the times come from: copies only when some of them, not all, compiled.
    const size_t compiled_timed = compiled.size() - compiled.count(0);  // steps[0]: memory step
    const bool all_compiled = !self.timed.empty() && compiled_timed == self.timed.size();
    const bool leave_out = compiled_timed > 0 && !all_compiled;
    std::vector<std::vector<OperationTiming>> kept;
    std::vector<double> kept_ms;
    std::vector<std::vector<CollectiveRecord>> kept_collectives;
    KernelSteps kept_kernels;
    for (size_t i = 0; leave_out && i < self.timed.size(); ++i) {
        if (compiled.count(i + 1) == 0) {
            kept.push_back(self.timed[i]);
            kept_ms.push_back(self.timed_ms[i]);
            kept_collectives.push_back(self.timed_collectives[i]);
            kept_kernels.ms.push_back(self.timed_kernels.ms[i]);
            kept_kernels.calls.push_back(self.timed_kernels.calls[i]);
        }
    }
    const auto& timed = leave_out ? kept : self.timed;
    const auto& timed_ms = leave_out ? kept_ms : self.timed_ms;
    const auto& timed_collectives = leave_out ? kept_collectives : self.timed_collectives;
    // Without timed steps, the memory step's own times (which include the meter's cost).
    const std::vector<std::vector<OperationTiming>> memory_step{
        timed.empty() ? timingsOf(self.operations) : std::vector<OperationTiming>{}};
    const auto& runs = timed.empty() ? memory_step : timed;
    const std::vector<double> step_ms =
        timed.empty() ? std::vector<double>{self.memory_step_ms} : timed_ms;
    TimeReport& time = reports.time;
    std::vector<std::string> not_timed;  // operations that ran only in the memory step
    time = medianTimes(self.operations, self.traces, self.operation_modules, runs, step_ms,
                       &not_timed);
    time.collectives = medianCollectives(self.collectives, timed_collectives);
    time.compilations = std::move(compilations);
    const CompiledRegionSplit split =
        timed.empty() ? CompiledRegionSplit{}
                      : splitCompiledRegions(time, self.kernel_sites, self.kernel_operations,
                                             leave_out ? kept_kernels : self.timed_kernels);
    // The memory report numbers activations as the run time report numbers its entries: the
    // kernels' rows moved the entries after them, and a kernel's activations are its row's.
    for (size_t i = 0; i < reports.memory.activations.size() && !split.entry_of_operation.empty();
         ++i) {
        int64_t& number = reports.memory.activations[i].operation_number;
        if (number <= 0) {
            continue;
        }
        const int site = i < self.activation_kernels.size() ? self.activation_kernels[i] : -1;
        number = site >= 0 && split.entry_of_site[site] >= 0
                     ? split.entry_of_site[site] + 1
                     : static_cast<int64_t>(split.entry_of_operation[number - 1]) + 1;
    }
    time.metadata = self.metadataFor("time");
    time.metadata["timed_steps"] = std::to_string(timed.size());
    if (split.regions_without_provenance > 0) {
        time.metadata[report_format::kCompiledKernelsNoteKey] =
            std::to_string(split.regions_without_provenance) +
            " compiled regions ran code compiled before the session started, without its "
            "kernels' provenance: each is one operation";
    }
    if (!compiled.empty()) {
        std::string steps;
        for (size_t i : compiled)
            steps += (steps.empty() ? "" : ", ") + std::to_string(self.steps[i].id);
        time.metadata[report_format::kCompiledStepsKey] =
            "torch.compile compiled in observed steps (" + steps + ")" +
            (compiled.count(0) ? ": the memory step's figures include what compiling allocated"
                               : "") +
            (all_compiled
                 ? "; every timed step compiled, so their times include compiling"
                 : (leave_out ? "; the timed steps that compiled are left out of the times" : ""));
    }
    if (self.differing_steps > 0) {
        time.metadata[report_format::kDifferingStepsKey] =
            std::to_string(self.differing_steps) + " of " + std::to_string(self.timed.size()) +
            " timed steps ran other operations than the memory step: " +
            std::to_string(self.unmatched_calls) +
            " of their calls matched none of its operations" +
            namesInParentheses(self.unmatched_names) + ", " +
            std::to_string(self.missing_operations) + " of its operations did not run in them" +
            namesInParentheses(self.missing_names) +
            "; each operation is timed over the steps that ran it" +
            (not_timed.empty() ? std::string()
                               : ", and " + std::to_string(not_timed.size()) +
                                     " that ran only in the memory step are not timed" +
                                     namesInParentheses(not_timed));
    }
    std::vector<const StackTrace*> traces;
    for (const RunTimeEntry& entry : time.entries)
        traces.push_back(&entry.frames);
    noteMissingProjectFrames(time.metadata, traces);
    return reports;
}

}  // namespace trainscope
