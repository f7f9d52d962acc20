// SPDX-License-Identifier: Apache-2.0
// The data of the two standard reports (Skyline / DeepView.Profile) as plain structs. The
// SQLite writers in report_writer.h turn them into files; nothing here depends on LibTorch.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trainscope/chunked_log.h"

namespace trainscope {

// A text that the copies of it share: a frame's file path and library root, repeated in every
// frame of a large step's operations and in each copy of their stack traces. Copying one
// copies a pointer; frames copied from one source (a cache of located files) share its texts.
class SharedText {
  public:
    SharedText() = default;
    SharedText(std::string text)  // NOLINT: a text is given as a string
        : text_(text.empty() ? nullptr : std::make_shared<const std::string>(std::move(text))) {}
    SharedText(const char* text) : SharedText(std::string(text)) {}  // NOLINT: as above

    const std::string& str() const { return text_ ? *text_ : none(); }
    operator const std::string&() const { return str(); }  // NOLINT: reads as the string
    const char* c_str() const { return str().c_str(); }
    bool empty() const { return !text_; }
    size_t size() const { return str().size(); }
    size_t find(const std::string& what, size_t from = 0) const { return str().find(what, from); }

    friend bool operator==(const SharedText& a, const SharedText& b) {
        return a.text_ == b.text_ || a.str() == b.str();
    }
    friend bool operator!=(const SharedText& a, const SharedText& b) { return !(a == b); }
    friend std::string operator+(const SharedText& a, const std::string& b) { return a.str() + b; }
    friend std::string operator+(const std::string& a, const SharedText& b) { return a + b.str(); }
    friend std::ostream& operator<<(std::ostream& out, const SharedText& text) {
        return out << text.str();
    }

  private:
    static const std::string& none() {
        static const std::string empty;
        return empty;
    }
    std::shared_ptr<const std::string> text_;
};

// A frame of source code, 1-based line. A project frame's path is relative to the project
// root. A library frame (code outside the project: torch, torchvision, ...) has a path
// relative to its library's root, which it names (an absolute path on the recording machine).
struct StackFrame {
    StackFrame() = default;
    StackFrame(SharedText file, int line, SharedText root = {})
        : file_path(std::move(file)), line_number(line), library_root(std::move(root)) {}

    SharedText file_path;
    int line_number = 0;
    SharedText library_root;  // empty: a project frame

    bool isLibrary() const { return !library_root.empty(); }
    bool operator==(const StackFrame& other) const {
        return file_path == other.file_path && line_number == other.line_number &&
               library_root == other.library_root;
    }
};

// Frames are ordered from the most specific (closest to the operation) to the least.
using StackTrace = std::vector<StackFrame>;

// A module path names a module instance of the model as PyTorch names it ("blocks.0.mlp.fc1",
// "layer3.1.conv2"); empty: the model itself, or code outside any submodule.

struct WeightEntry {
    // As PyTorch names it: "lin_0.weight". A tensor that several attributes name (tied
    // weights) is one entry, under its first name; `aliases` are the others.
    std::string name;
    int64_t size_bytes = 0;
    int64_t grad_size_bytes = 0;
    StackTrace frames;        // those of the first operation that reads the weight
    std::string module_path;  // the module that owns the weight
    std::vector<std::string> aliases = {};
    int64_t optimizer_state_bytes = 0;  // the optimizer's tensors for it (Adam's moments)
    // A weight sharded over ranks (FSDP2), whose sizes above are this rank's shard: the whole
    // weight's bytes and its layout over the ranks ("Shard(dim=0) over 2 ranks").
    int64_t whole_bytes = 0;  // 0: held whole
    std::string layout = {};
};

struct ActivationEntry {
    std::string operation_name;
    int64_t size_bytes = 0;
    StackTrace frames;
    std::string module_path;  // the module whose code called the operation
    // The operation's number in the iteration: top-level operations are numbered from 1 in the
    // order they run, as the run time report's entry ids are. 0: allocated outside operations.
    int64_t operation_number = 0;
};

// What was allocated at the instant of the peak, by kind. The five parts sum to the peak.
struct PeakBreakdown {
    int64_t weights = 0;
    int64_t gradients = 0;        // gradients alive at that instant
    int64_t optimizer_state = 0;  // what the optimizer keeps between steps (Adam's moments)
    int64_t activations = 0;      // forward results saved for the backward pass, still alive
    int64_t other = 0;            // temporaries, workspace, inputs, the loss
    // Of the weights, FSDP's all-gathered parameters (held whole while a unit computes); of the
    // gradients, FSDP's reduce-scatter buffers. Parts of the two above, not parts of their own.
    int64_t unsharded_parameters = 0;
    int64_t reduce_scatter = 0;

    int64_t total() const { return weights + gradients + optimizer_state + activations + other; }
};

// One part of the peak held by one module: `kind` is one of PeakBreakdown's parts
// ("weights", "gradients", "optimizer_state", "activations", "other").
struct ModulePeakEntry {
    std::string module_path;
    std::string kind;
    int64_t size_bytes = 0;
};

// Facts about the run (model, device, versions...), stored beside the standard tables.
using RunMetadata = std::map<std::string, std::string>;

// One unit of an FSDP2 job (a module that fully_shard sharded) in the memory step, as this rank
// held it.
// A unit's collectives of one kind in the memory step, as the backend named and timed them.
struct FsdpUnitCollectives {
    std::string name;  // "gloo:all_gather"; names joined by "," if they differ
    int count = 0;
    int64_t bytes = 0;  // of their tensors as the call took them; -1: not known for each
    double ms = 0.0;    // from the call's start to the backend's end of it, in all
};

struct FsdpUnitEntry {
    std::string unit;             // the module's path ("" for the root)
    int parameters = 0;           // its weight entries
    int64_t sharded_bytes = 0;    // this rank's shards of them
    int64_t unsharded_bytes = 0;  // its parameters all-gathered whole (the largest gather)
    int gathers = 0;              // all-gathers of them in the step: 2 resharded after forward
    int prefetched = 0;           // of those, issued ahead by another unit (FSDP2's prefetch)
    double gathered_ms = 0.0;     // how long its gathered parameters were held, in all
    int64_t unsharded_at_peak_bytes = 0;  // its gathered parameters and buffers at the peak
    int64_t reduce_scatter_bytes = 0;     // its largest reduce-scatter's buffers
    // Those begun in its FSDP::all_gather scopes, and in its FSDP::post_backward_reduce ones
    // (a reduce-scatter; an all-reduce on Gloo).
    FsdpUnitCollectives gathering, reducing;
};

struct MemoryReport {
    std::vector<WeightEntry> weights;
    std::vector<ActivationEntry> activations;
    int64_t peak_usage_bytes = 0;
    std::map<std::string, int64_t> misc_sizes;    // extra keys besides peak_usage_bytes
    std::optional<PeakBreakdown> peak_breakdown;  // written as misc_sizes keys
    std::vector<ModulePeakEntry> peak_by_module;
    std::vector<FsdpUnitEntry> fsdp_units;  // an FSDP2 job's units; empty otherwise
    RunMetadata metadata;

    int64_t weightBytes() const;
    int64_t gradientBytes() const;
    int64_t activationBytes() const;
    // Whether the report names the parameters: an imported trace or snapshot does not say
    // which tensors are weights or optimizer state, whose bytes are then not known, not none.
    bool namesWeights() const;
};

// The spread of one figure over the measured iterations: what a difference between two runs
// must exceed to count (a run compared with a rerun of itself differs by about this much).
struct Spread {
    double min_ms = 0.0;
    double max_ms = 0.0;
    double width() const { return max_ms - min_ms; }
};

// Where in the step an operation ran: the forward pass (with the loss), after the backward pass
// (gradient clipping, unscaling, the next micro-batch's zero_grad), the optimizer's step, or in
// the backward pass again (an activation checkpoint's recomputation). forward_ms is the time of
// that part: an optimizer operation's is optimizer time; a recomputed operation's time is in its
// backward_ms (its forward_ms is 0, and counts as backward if not).
enum class StepPart : uint8_t { Forward, AfterBackward, Optimizer, Recomputed };

// The part's name in the run time report (trainscope_entry_parts.part; "forward" has no row),
// and back: an unknown name is none.
const char* stepPartName(StepPart part);
std::optional<StepPart> stepPartNamed(const std::string& name);

// The operations' times summed by part of the step: forward holds forward operations only;
// backward holds every backward node's time and the recomputations.
struct PartTimes {
    double forward_ms = 0.0, backward_ms = 0.0, after_backward_ms = 0.0, optimizer_ms = 0.0;
    int64_t after_backward_operations = 0, optimizer_operations = 0;

    // `operations` of that part, whose times sum to `forward` and `backward`.
    void add(StepPart part, double forward, double backward, int64_t operations = 1) {
        backward_ms += backward;
        switch (part) {
            case StepPart::Forward:
                forward_ms += forward;
                break;
            case StepPart::Recomputed:
                backward_ms += forward;
                break;
            case StepPart::AfterBackward:
                after_backward_ms += forward;
                after_backward_operations += operations;
                break;
            case StepPart::Optimizer:
                optimizer_ms += forward;
                optimizer_operations += operations;
                break;
        }
    }
    double sum() const { return forward_ms + backward_ms + after_backward_ms + optimizer_ms; }
};

struct RunTimeEntry {
    std::string operation_name;
    double forward_ms = 0.0;
    std::optional<double> backward_ms;  // empty: the operation takes no part in backward
    StackTrace frames;
    std::string module_path;
    Spread forward_spread{};  // over the measured iterations (forward_ms is their median)
    std::optional<Spread> backward_spread{};
    StepPart part = StepPart::Forward;  // what forward_ms is the time of
    // Where forward_ms and backward_ms are the device's time (the kernels, copies and sets the
    // operation launched: an imported GPU trace), the CPU's time of the same, beside them.
    struct CpuTimes {
        double forward_ms = 0.0, backward_ms = 0.0;
    };
    std::optional<CpuTimes> cpu{};
};

// A collective of the step (all_reduce, broadcast, DDP's gradient buckets...) as its
// communication backend ran it: on Gloo the span on its worker thread, waiting for the other
// ranks included. Medians over the timed steps, matched by order.
struct CollectiveEntry {
    std::string operation_name;  // "gloo:all_reduce"
    double start_ms = 0.0;       // from the step's start
    double duration_ms = 0.0;
    int64_t bytes = 0;  // of the tensors it carries
    Spread spread{};
    // A GPU trace's NCCL kernel: its process group ("default_pg (0): ranks [0, 1]"; "": not
    // named) and size (0: not known), and how long a computation ran on the device beside it
    // (none: not known: a collective of the CPU's).
    std::string process_group;
    int64_t group_size = 0;
    std::optional<double> overlapped_ms;
};

// A compilation of a part of the user's step by torch.compile (TorchDynamo and its backend):
// when it ran, for how long, what it compiled, and why (a graph break, a recompilation).
struct Compilation {
    std::string compile_id;  // Dynamo's: "0/1" is frame 0's second compilation
    std::string kind;        // "forward" (Dynamo compiled a frame) or "backward" (AOTAutograd's
                             // backward, compiled when it first ran)
    std::string function;    // the compiled function ("forward", a resume function after a break)
    std::string file_path;   // its file (relative to the project root when under it)
    int line_number = 0;     // its first line
    int64_t start_ns = 0, end_ns = 0;  // epoch ns, the clock of the timeline's steps
    // The step it ran in, by STEP_TIME's numbering; 0: before the first observed step (warm-up).
    int64_t step = 0;
    std::string graph_break;         // why the function's graph broke (Dynamo's first line), or ""
    std::string recompiled_because;  // why it compiled again (the guard that failed), or ""
    double ms() const { return static_cast<double>(end_ns - start_ns) / 1e6; }
};

// A kernel that Inductor generated for a compiled region (or an extern call its code makes,
// "extern_kernels.addmm"), as the host learns it from Inductor's provenance while compiling.
struct CompiledKernelSite {
    std::string compile_id;              // of the region that runs it ("0/0")
    bool backward = false;               // in the region's backward graph
    std::string kernel;                  // "cpp_fused_gelu_1"
    std::vector<std::string> fused_ops;  // the ATen operations it computes ("aten.gelu")
    std::string module_path;             // the module most of them came from
    StackTrace frames;         // the user's lines behind it, most specific first (the region's call
                               // site is added below them when the report is assembled)
    std::string unattributed;  // why no module and line are known, or ""
    // Its inputs' shapes where Inductor knows them (extern calls): "4,32;32,128" (the
    // timeline's form, items separated by ";"), or "".
    std::string input_shapes;
};

// A kernel row of the run time report: which entry (RunTimeEntry) it is, and what Inductor
// says of it.
struct KernelEntry {
    size_t entry = 0;  // index into TimeReport::entries
    std::string compile_id;
    bool backward = false;
    std::vector<std::string> fused_ops;
    std::string unattributed;
    int64_t calls = 0;  // per step (median over the timed steps)
    std::string input_shapes;
};

// A compiled step's kernels in figures (the summary's "Kernels" lines): how many, their time,
// how much of it lies on a module and a line of the project, and why the rest does not.
struct KernelTotals {
    int64_t kernels = 0;
    double forward_ms = 0.0, backward_ms = 0.0;
    double placed_ms = 0.0;
    // On a module, with lines in a library that the project calls (a model built from
    // transformers' or timm's modules): its own lines are the library's, the project's below.
    double library_ms = 0.0;
    std::map<std::string, double> unplaced;  // why, its time
    std::string note;  // why some regions are not split into kernels (the metadata's)

    // A kernel's row: its time, whether its most specific frame is the project's, or else
    // whether it is on a module and called from a line of the project, and why Inductor gave it
    // no line ("" when it did). Inline: the report readers without LibTorch
    // (trainscope_report_io) use it too.
    void add(bool backward, double ms, bool in_project, bool in_library_module,
             const std::string& unattributed) {
        ++kernels;
        (backward ? backward_ms : forward_ms) += ms;
        if (unattributed.empty() && in_project) {
            placed_ms += ms;
        } else if (unattributed.empty() && in_library_module) {
            library_ms += ms;
        } else {
            unplaced[unattributed.empty() ? "its lines are outside the project" : unattributed] +=
                ms;
        }
    }
};

struct TimeReport {
    std::vector<RunTimeEntry> entries;
    std::vector<CollectiveEntry> collectives;  // empty in a run of one process
    std::vector<Compilation> compilations;     // torch.compile's, from the session's start
    std::vector<KernelEntry> kernels;          // compiled regions' kernels among the entries
    double iteration_ms = 0.0;                 // median wall time of a whole measured iteration
    Spread iteration_spread{};
    RunMetadata metadata;

    PartTimes partTimes() const;
};

// ENUM_API_TYPE ids of PYTORCH_API rows: a framework operation, and communication (torch_npu
// names it `hccl`, after Huawei's collective library; TrainScope writes it for Gloo's and
// NCCL's collectives).
constexpr int kOperationApiType = 50001;
constexpr int kCommunicationApiType = 5500;

// The timeline of one measured iteration, as the Ascend PyTorch profiler's database holds it
// (docs/report-formats.md). Times are nanoseconds since the Unix epoch, all from one clock.
//
// A large step repeats a few texts (names, shapes, module paths) in every call: a call holds
// each as a number into TimelineReport::texts, where it is kept once (0: the empty text).
using TextId = uint32_t;

struct ApiCall {
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    uint64_t global_tid = 0;       // pid << 32 | tid
    int64_t connection_id = 0;     // unique per call; CONNECTION_IDS links forward to backward
    int64_t sequence_number = -1;  // autograd's, for operations that record one; -1: none
    uint64_t fwd_thread_id = 0;    // backward nodes: the thread of their forward op
    TextId name = 0;
    TextId input_shapes = 0;  // items separated by ";\r\n", as torch_npu writes
    TextId input_dtypes = 0;
    TextId module_path = 0;
    int callchain = -1;  // index into TimelineReport::callchains; -1: none
    int api_type = kOperationApiType;
};

// A launch of device work on the CPU (cudaLaunchKernel, cuLaunchKernel, hipMemcpyAsync), as the
// runtime's layer of the timeline (seed 003's CANN_API): its connection_id is the work's.
struct LaunchCall {
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    uint64_t global_tid = 0;
    int64_t connection_id = 0;
    TextId name = 0;
};

// Work on a device stream (a kernel, a copy, a set), as the timeline's TASK rows: joined to its
// launch by connection_id.
struct DeviceTask {
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    int64_t device_id = 0;
    int64_t stream_id = 0;
    int64_t connection_id = -1;  // -1: its launch is not in the recording
    TextId name = 0;
    TextId type = 0;  // "kernel", "memcpy", "memset"
};

struct MemorySample {
    int64_t timestamp_ns = 0;
    int64_t total_allocated = 0;
    int64_t total_reserved = 0;
    int64_t total_active = 0;
};

// A block allocated during the iteration, with the top-level operation that allocated it.
struct BlockLifetime {
    TextId operation_name = 0;  // into TimelineReport::texts
    int64_t size_bytes = 0;
    MemorySample allocation;
    std::optional<MemorySample> release;  // empty: still allocated when the iteration ended
};

struct TimelineStep {
    int64_t id = 0;
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    // When read: TrainScope's memory step (its timeline's first step, whose time includes the
    // memory meter's cost), not a step timed as the run time report's iterations are.
    bool memory_step = false;
};

// A collective of one observed step as the session timed it on this rank. The ranks' summary
// matches each step's collectives across ranks by what they are (name, bytes, order among those
// of that kind) and finds, step by step, the rank the others waited for.
struct StepCollective {
    int64_t step = 0;       // STEP_TIME.id
    std::string name;       // "gloo:all_reduce"
    int64_t bytes = 0;      // of its tensors where the step knew them (the memory step), else 0
    double start_ms = 0.0;  // from the step's start
    double duration_ms = 0.0;
};

// A part of the iteration: "forward" (with the loss), "backward", "optimizer".
struct TimelinePhase {
    std::string name;
    int64_t start_ns = 0;
    int64_t end_ns = 0;
};

// Each distinct text of a timeline once, numbered in the order first added.
class TimelineTexts {
  public:
    TimelineTexts() { add({}); }
    TimelineTexts(const TimelineTexts& other) { *this = other; }
    TimelineTexts(TimelineTexts&&) = default;  // the map's nodes move with it
    TimelineTexts& operator=(TimelineTexts&&) = default;
    TimelineTexts& operator=(const TimelineTexts& other) {
        if (this != &other) {
            ids_.clear();
            texts_.clear();
            for (const std::string* text : other.texts_)
                add(*text);
        }
        return *this;
    }
    TextId add(const std::string& text) {
        const auto [it, added] = ids_.try_emplace(text, static_cast<TextId>(texts_.size()));
        if (added) {
            texts_.push_back(&it->first);
        }
        return it->second;
    }
    const std::string& operator[](TextId id) const { return *texts_.at(id); }
    size_t size() const { return texts_.size(); }

  private:
    std::unordered_map<std::string, TextId> ids_;  // its nodes stay put: texts_ points at them
    std::vector<const std::string*> texts_;
};

struct TimelineReport {
    TimelineTexts texts;
    // A large step's calls, samples and blocks number in the millions: kept in chunks.
    ChunkedLog<ApiCall> calls;                             // in start order
    std::vector<StackTrace> callchains;                    // each distinct one once
    std::vector<std::pair<int64_t, int64_t>> connections;  // forward call -> backward call
    // Device work (an imported GPU trace), its launches, and each launch's operation:
    // launch_links are (the operation's connection_id, the launch's), in CONNECTION_IDS too.
    std::vector<DeviceTask> device_tasks;  // by start
    std::vector<LaunchCall> launches;
    std::vector<std::pair<int64_t, int64_t>> launch_links;
    ChunkedLog<MemorySample> memory;  // one per allocation and free, in time order
    ChunkedLog<BlockLifetime> blocks;
    std::vector<TimelineStep> steps;
    std::vector<StepCollective> step_collectives;  // every observed step's, by step and start
    std::vector<TimelinePhase> phases;
    int device_id = 0;
    int rank = -1;                         // RANK_DEVICE_MAP's: -1, not a distributed run
    std::string memory_component = "PTA";  // MEMORY_RECORD.component: PyTorch's allocator
    RunMetadata metadata;
    // Set when the calls, samples and blocks were written to the report's file already and are
    // not here: how many there are.
    struct Written {
        size_t calls = 0;
        size_t memory = 0;
        size_t blocks = 0;
    };
    std::optional<Written> written;
    size_t callCount() const { return written ? written->calls : calls.size(); }
    size_t sampleCount() const { return written ? written->memory : memory.size(); }
    size_t blockCount() const { return written ? written->blocks : blocks.size(); }
};

}  // namespace trainscope
