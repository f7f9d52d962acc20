// SPDX-License-Identifier: Apache-2.0
// Observes the operations of one training iteration through LibTorch's RecordFunction.
//
// Only top-level operations of the forward pass (and the loss) become records; operations
// nested inside them count toward their caller. With Options::timeline, every event of the
// iteration (nested operations, backward nodes, the optimizer step, on every thread) is also
// recorded with its start and end (see timeline_recorder.h). Every autograd sequence number handed
// out while a top-level operation runs belongs to it, so each backward node (which carries the
// sequence number of the forward operation that created it) is linked back to its record.
#pragma once

#include <ATen/record_function.h>
#include <c10/core/TensorImpl.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "device/cuda.h"
#include "records/operation_records.h"
#include "records/stack_traces.h"
#include "tracking/iteration_listener.h"
#include "tracking/timeline_recorder.h"
#include "trainscope/call_site.h"
#include "trainscope/reports.h"

namespace trainscope {

class OperationObserver : public IterationListener {
  public:
    struct Options {
        bool time = false;  // time operations and backward nodes (backward nodes are linked to
                            // their records only then: nothing else needs has_backward)
        // With time, on a GPU: each operation's and backward node's time is the GPU time
        // between CUDA events recorded around it, read when the iteration ends.
        cuda::EventTimer* gpu_timer = nullptr;
        FrameSource* frames = nullptr;          // capture each operation's stack frames
        ModuleSource* module_source = nullptr;  // capture each operation's module path
        // Tensors (weights) whose reading operations should be found: their TensorImpls, or
        // with weights_by_storage their storages' data (an eager step's parameters, which the
        // host knows by their storage; a view of a weight then reads it too).
        std::vector<const void*> weights;
        bool weights_by_storage = false;
        bool modules = false;   // capture each operation's module hierarchy
        bool inputs = false;    // capture the inputs of every forward-thread call (callInputs())
        bool timeline = false;  // record every event of the iteration (timeline())
        // An eager step (a user's own, run in their process): its parts are found from its
        // events rather than marked by a workload (eagerPartChange), and every top-level
        // operation outside the autograd engine becomes a record tagged with its part; what an
        // activation checkpoint runs again in the backward pass is of part Recompute.
        // `phases` hears of each change.
        bool eager = false;
        IterationListener* phases = nullptr;
        // Told the gradients each backward pass starts from: the inputs of its first backward
        // node (with `inputs`; the memory step's meter).
        IterationListener* backward_roots = nullptr;
        // The records expected (the memory step's count, in a timed step): room for them is
        // made at once, rather than by doubling as a large step's records come.
        size_t expected_operations = 0;
    };

    explicit OperationObserver(Options options);
    ~OperationObserver() override;
    OperationObserver(const OperationObserver&) = delete;
    OperationObserver& operator=(const OperationObserver&) = delete;

    // torch.compile begins and ends compiling on the calling thread (the host hears it from
    // TorchDynamo; a lazily compiled backward graph compiles inside its backward node): the
    // calls it makes meanwhile (tracing with fake tensors) are no operations of the step, and
    // the time it takes is taken out of the operation or backward node it ran in. Works with
    // whichever observer is active, or none.
    static void compilationBegins();
    static void compilationEnds();
    // In a child forked from the observed process: no observer sees a call there any more
    // (lock-free, as stopCountingInThisProcess).
    static void stopObservingInThisProcess();

    void forwardBegins() override;
    void backwardBegins() override;
    void backwardEnded() override;
    void iterationEnded() override;

    const std::vector<OperationRecord>& operations() const { return operations_; }
    // The records, moved out (the observer is done with them: after iterationEnded()).
    std::vector<OperationRecord> takeOperations() { return std::move(operations_); }
    // The frames of the records (OperationRecord::trace); moved out as the records are.
    const StackTraces& traces() const { return traces_; }
    StackTraces takeTraces() { return std::move(traces_); }
    // Index of the top-level operation running now on the forward thread, or -1.
    int currentOperation() const { return current_.load(std::memory_order_relaxed); }
    // Eager steps, on the forward thread: the operation whose backward node runs now on it
    // (the outermost node: the one timed), or -1.
    int backwardNodeOwner() const;
    // With Options::inputs: every call on the forward thread from forwardBegins() to
    // iterationEnded(), in call order (nested calls and the optimizer's included).
    const ChunkedLog<CallInputs>& callInputs() const { return call_inputs_; }
    const TimelineTexts& inputTexts() const { return input_texts_; }
    // The step's collectives, by start (those that ended before iterationEnded()).
    std::vector<CollectiveRecord> collectives() const;
    // Waits until every collective begun has ended, at most `limit`: a backend completes a
    // collective's work (what the step waits for) just before it ends its span.
    void awaitOpenCollectives(std::chrono::milliseconds limit);
    // With Options::timeline; null otherwise.
    const TimelineRecorder* timeline() const { return timeline_.get(); }
    // The timeline, moved out (once the iteration ended: nothing records into it any more).
    TimelineRecord takeTimeline();
    uint64_t forwardThread() const { return forward_thread_; }
    // Eager steps: whether the calling thread runs a backward node now, on the forward thread or
    // on another (autograd's device threads): a checkpoint that runs the model again there.
    bool callerInBackwardNode() const {
        return at::RecordFunction::currentThreadId() != forward_thread_ || !backward_nodes_.empty();
    }

  private:
    using Clock = std::chrono::steady_clock;
    enum class Phase { Idle, Forward, Backward, Step };

    static std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction& fn);
    static void onEnd(const at::RecordFunction& fn, at::ObserverContext* context);
    void forwardStart(const at::RecordFunction& fn);
    void forwardEnd();
    void backwardStart();
    void backwardEnd(const at::RecordFunction& fn);
    void noteWeightReads(const at::RecordFunction& fn);
    // Eager steps: whether `fn`, starting on the forward thread, is a top-level operation to
    // record, after noting what it says of the step's part (see Options::eager).
    bool eagerPartChange(const at::RecordFunction& fn);
    // The optimizer's step: torch.optim's `Optimizer.step#AdamW.step` scope.
    static bool isOptimizerStep(const at::RecordFunction& fn);
    void noteInputs(const at::RecordFunction& fn);
    void noteBackwardRoots(const at::RecordFunction& fn);
    void collectiveStart(const at::RecordFunction& fn);
    void collectiveEnd(const at::RecordFunction& fn);
    void resolveGpuTimes();
    // Adds a backward node's time to the operation whose forward pass made it, if any.
    void addBackwardTime(int64_t sequence_nr, double ms);

    Options options_;
    at::CallbackHandle handle_ = 0;
    std::atomic<Phase> phase_{Phase::Idle};
    // A backward pass began and its first node has not run yet (Options::backward_roots): on
    // the CPU that node runs on the forward thread, on CUDA on the device's thread.
    std::atomic<bool> backward_root_pending_{false};
    uint64_t forward_thread_ = 0;
    int depth_ = 0;
    // Eager steps: the checkpoints' backward nodes running now on the forward thread (nested
    // checkpoints nest), each with the engine depth its recomputation runs at and the record
    // of its checkpoint operation.
    struct CheckpointBackward {
        int engine_depth = 0;
        int operation = -1;
    };
    std::vector<CheckpointBackward> checkpoints_;
    bool recomputing() const {
        return !checkpoints_.empty() && checkpoints_.back().engine_depth == engineDepth();
    }
    // Eager steps: the sequence numbers of the backward nodes running now on the forward
    // thread, innermost last; for each open engine scope, whether the engine runs its node with
    // gradients enabled (a backward pass with create_graph).
    std::vector<int64_t> backward_nodes_;
    std::vector<bool> engine_grad_modes_;
    // Eager steps: the autograd engine's scopes open now on the forward thread.
    int engineDepth() const { return static_cast<int>(engine_grad_modes_.size()); }
    void enterEngineScope();
    bool startsRecomputationOnUnpack(const at::RecordFunction& fn) const;
    void backwardBeginsOnAnotherThread();
    void moveRecomputationToBackward();
    OperationRecord::Part part_ = OperationRecord::Part::Forward;  // eager steps
    int optimizer_steps_open_ = 0;  // Optimizer.step# scopes open on the forward thread
    Clock::time_point started_;
    std::atomic<int> current_{-1};
    std::vector<OperationRecord> operations_;
    StackTraces traces_;
    std::unordered_map<const void*, size_t> weight_index_;
    ChunkedLog<CallInputs> call_inputs_;
    TimelineTexts input_texts_;
    std::string shapes_, dtypes_;  // the call's, as noteInputs builds them (reused)
    // What noteInputs needs of a call's name, kept by the address of its text: an operator's
    // name lives as long as its schema, so the text's id and its argument count are found
    // without copying and hashing the name for every call (a scope's own name may share an
    // address with an earlier one: the text is compared before an entry is used).
    struct NamedCall {
        std::string name;
        TextId text = 0;
        std::optional<size_t> arguments;  // the schema's, where it has a fixed number
    };
    std::unordered_map<const char*, NamedCall> named_calls_;
    const NamedCall& namedCall(const at::RecordFunction& fn);
    // The texts of each kind of inputs seen, by a signature of numbers (each input's kind and
    // dtype, a tensor's sizes): most calls repeat one, and need no texts made and hashed.
    struct SignatureHash {
        size_t operator()(const std::vector<int64_t>& signature) const;
    };
    struct InputTexts {
        TextId shapes = 0;
        TextId dtypes = 0;
    };
    std::unordered_map<std::vector<int64_t>, InputTexts, SignatureHash> input_kinds_;
    std::vector<int64_t> signature_;  // the call's (reused)
    InputTexts inputTexts(c10::ArrayRef<const c10::IValue> inputs, size_t first);
    std::unique_ptr<TimelineRecorder> timeline_;
    std::mutex backward_mutex_;  // backward nodes may run on autograd's device threads
    Clock::time_point step_started_;
    // A collective begun and not ended yet: its start, for its time.
    struct OpenCollective {
        uint64_t handle = 0;  // the RecordFunction's
        Clock::time_point started;
        CollectiveRecord record;
    };
    mutable std::mutex collectives_mutex_;  // collectives run on the backends' threads
    std::vector<OpenCollective> open_collectives_;
    std::atomic<size_t> open_collective_count_{0};  // checked without the lock at each end
    std::vector<CollectiveRecord> collectives_;
    // With Options::gpu_timer: each operation's span, and each backward node's span with the
    // sequence number that links it to its operation.
    std::vector<int> forward_spans_;
    std::vector<std::pair<int, int64_t>> backward_spans_;
};

}  // namespace trainscope
