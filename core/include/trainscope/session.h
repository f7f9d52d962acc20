// SPDX-License-Identifier: Apache-2.0
// A profiling session over training steps that its host runs: a user's own step in their
// Python process (python/), or the archive and built-in runs (trainscope/profiler.h). The host
// marks where each observed step begins and ends; the session finds the step's parts itself
// (the backward pass begins with the autograd engine, the optimizer's with its
// `Optimizer.step#` scope), or the host marks them too, and the session assembles the three
// reports. The first observed step is the memory step (every allocation, the peak, the
// activations, the timeline); each later one is a timed step (per-operation times without the
// memory meter's cost). Plain C++ types: LibTorch stays behind this header.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trainscope/call_site.h"
#include "trainscope/reports.h"
#include "trainscope/run_config.h"

namespace trainscope {

// The memory a tensor keeps: its storage's address and size.
struct TensorBlock {
    const void* data = nullptr;  // null: no tensor
    int64_t bytes = 0;
};

// A parameter of the user's model. A tensor that several attributes name (tied weights) is one
// parameter: `name` is its first name, `aliases` the others.
struct ObservedParameter {
    std::string name;
    std::vector<std::string> aliases;
    std::string module_path;  // the module that owns it under `name`
    TensorBlock weight;
    TensorBlock gradient;
    std::vector<TensorBlock> optimizer_state;  // the optimizer's state tensors for it
    // A parameter sharded over the ranks of a job (FSDP2's DTensor), whose blocks above are this
    // rank's shard: the whole parameter's bytes and its layout ("Shard(dim=0) over 2 ranks").
    int64_t whole_bytes = 0;  // 0: held whole by this process
    std::string layout = {};
    std::string unreadable = {};  // why its memory could not be read (not counted), or empty
};

// The host's view of the model's parameters, asked when the memory step begins (which
// operations read each weight) and when it ends (gradients and optimizer state as they are).
class ParameterSource {
  public:
    virtual ~ParameterSource() = default;
    virtual std::vector<ObservedParameter> parameters() = 0;
};

// How the session learns where a step's backward pass begins and ends.
enum class StepParts {
    Found,   // from the step's own events: an eager step (see OperationObserver::Options::eager)
    Marked,  // the host calls backwardBegins() and backwardEnded(): a step it runs itself
};

struct SessionOptions {
    Device device = Device::Cpu;
    StepParts parts = StepParts::Found;
    FrameSource* frames = nullptr;    // each top-level operation's frames
    ModuleSource* modules = nullptr;  // each top-level operation's module
    ParameterSource* parameters = nullptr;
    RunMetadata metadata;  // facts of the run for every report: model, project_root, ...
    // The number of the first observed step, as the timeline's STEP_TIME lists it (a host
    // that ran unobserved warm-up steps before it may count them).
    int64_t first_step = 1;
    // Where the run's timeline report goes (PREFIX.timeline.sqlite), when the host knows it
    // as the session starts: the memory step's timeline is then written to a staged file beside
    // it as soon as the step ends, rather than held until the reports are assembled (a large
    // step's timeline is most of what the session would hold), and stageSessionFiles()
    // commits it with the other two. Empty: the timeline stays in the assembled reports.
    std::string timeline_path;
};

class StagedFile;

struct SessionReports {
    MemoryReport memory;
    TimeReport time;
    // With SessionOptions::timeline_path: its metadata and counts (TimelineReport::written),
    // its rows being in `timeline_file` already, with every step.
    TimelineReport timeline;
    std::shared_ptr<StagedFile> timeline_file;
};

class Session {
  public:
    // Starts the memory meter on the calling thread (the thread that will run the steps): what
    // is allocated from now on is counted, so a host that starts the session before the model
    // exists sees its weights allocated. Throws trainscope::Error when another session or a
    // TrainScope profiler observes this process already.
    explicit Session(SessionOptions options);
    // Removes every callback and hook; a step still open is abandoned.
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // Blocks of the session's device that exist already and outlive the session (a model's
    // weights and an optimizer's state made before it started): on the CPU, where the meter
    // sees no block older than itself, counted as allocated from now on, so that the peak and
    // what is alive at it include them; on CUDA, whose allocator counts them already, known
    // for what they are in the breakdown at the peak.
    void countExisting(const std::vector<TensorBlock>& blocks);
    // A block counted by countExisting was freed (a gradient that zero_grad set to None): on the
    // CPU, whose allocator reports no free of a block older than the meter, the host tells it
    // as it happens; on CUDA it is reported already, and this does nothing.
    void existingBlockFreed(const void* block);

    // A step begins: its first micro-batch's forward. On the thread that started the session.
    void beginStep();
    // A further micro-batch's forward within the step (gradient accumulation).
    void forwardBegins();
    // StepParts::Marked: the backward pass begins (after the loss), and it ended (before the
    // optimizer's step).
    void backwardBegins();
    void backwardEnded();
    // The step ended (after the optimizer's step). A timed step that ran other operations than
    // the memory step (data-dependent control flow) is matched to it call by call; the time
    // report says how many steps differed.
    void endStep();
    // The step raised: its observation is dropped, and the session observes nothing more.
    void abandonStep();
    // The open step is dropped unobserved (a loop that ended after beginning it); the session
    // keeps the steps that ended.
    void dropStep();

    // Facts learnt after the session started (the model, once it exists), for every report.
    void addMetadata(const RunMetadata& facts);
    // What torch.compile compiled since the session started (the host hears of it); each is
    // placed in its step by its time when the reports are assembled.
    void addCompilations(const std::vector<Compilation>& compilations);
    // torch.compile begins and ends compiling on the calling thread (any thread; the host hears
    // it from TorchDynamo): compiling is never an operation, nor operation time. The calls it
    // makes meanwhile are not recorded, and its time is taken out of the operation or backward
    // node it ran in (a backward graph compiled when it first runs).
    static void compilationBegins();
    static void compilationEnds();
    // In a child that the observed process forked (os.fork in the user's step): the session is
    // the parent's. Nothing is observed in the child from now on; the host then leaves its copy
    // of the session as it is, never destroyed there: tearing it down could wait forever on
    // what the parent's other threads held at the fork (a lock, a callback in flight).
    static void forsakeInForkedChild();
    // A kernel of a compiled region, as the host learns it from Inductor; returns the id its
    // calls are told by.
    int addKernelSite(CompiledKernelSite site);
    // A call of kernel `site` took `ms` (the host times each call; any thread). In a timed step
    // its time becomes the kernel's row of the run time report, taken out of its region's.
    void kernelRan(int site, double ms);
    // In the memory step's forward, a call of kernel `site` wrote the storages at `storages`
    // (the tensors it filled or returned): the last kernel that wrote a block made what it
    // holds, so the block's activation bytes and its place in the peak go to that kernel's
    // module and lines rather than its region's.
    void kernelWrote(int site, const std::vector<const void*>& storages);
    // Whether the open step records the timeline (the memory step): where a host's
    // NamedScope (trainscope/named_scope.h) is recorded.
    bool recordsTimeline() const;

    int observedSteps() const;  // the steps that ended
    bool stepOpen() const;

    // The reports of the observed steps, once: the session's records move into them. Throws
    // trainscope::Error when no step ended, or when they were assembled already.
    SessionReports assemble();

  private:
    friend class ArchiveModules;  // the archive runs' own way to modules
                                  // (session/archive_modules.h)
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace trainscope
