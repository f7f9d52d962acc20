// SPDX-License-Identifier: Apache-2.0
#include "tracking/operation_observer.h"

#include <ATen/SequenceNumber.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/GradMode.h>
#include <torch/csrc/jit/runtime/interpreter.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <thread>
#include <unordered_set>

#include "trainscope/error.h"

namespace trainscope {
namespace {

// RecordFunction takes plain function pointers, so the active observer is reached through
// this pointer. One observer is active at a time.
std::atomic<OperationObserver*> g_active{nullptr};

// Callbacks on other threads than the forward thread (a communication backend's workers,
// autograd's device threads) may still run while the forward thread destroys the observer: a
// RecordFunction keeps the callbacks it began with after removeCallback(). They are counted
// while they use the observer, and the destructor waits for the count to fall to zero.
std::atomic<int> g_in_flight{0};
std::atomic<uint64_t> g_forward_thread{0};

// Counts a callback of another thread than the forward thread while it uses the observer.
class InFlight {
  public:
    explicit InFlight(const at::RecordFunction& fn)
        : counted_(fn.threadId() != g_forward_thread.load(std::memory_order_relaxed)) {
        if (counted_) {
            g_in_flight.fetch_add(1);
        }
    }
    ~InFlight() {
        if (counted_) {
            g_in_flight.fetch_sub(1);
        }
    }
    InFlight(const InFlight&) = delete;
    InFlight& operator=(const InFlight&) = delete;
    // Whether `self` may be used: after counting, the observer must still be the active one
    // (the destructor clears it before waiting for the count).
    bool holds(const OperationObserver* self) const { return !counted_ || g_active.load() == self; }

  private:
    bool counted_;
};

// The thread that torch.compile compiles on now (RecordFunction's id; 0: none), and since when.
// Its calls meanwhile are not observed.
std::atomic<uint64_t> g_compiling_thread{0};
thread_local std::chrono::steady_clock::time_point t_compiling_since;

bool madeWhileCompiling(const at::RecordFunction& fn) {
    const uint64_t thread = g_compiling_thread.load(std::memory_order_relaxed);
    return thread != 0 && thread == fn.threadId();
}

// What onStart returns for a call it left unobserved (made while compiling), so that its end
// is left unobserved too, whenever compiling ends: the starts and ends it sees stay paired.
struct UnobservedCall : at::ObserverContext {};

// Nesting depth of backward nodes on each thread: only the outermost node is timed.
thread_local int t_backward_depth = 0;
thread_local std::chrono::steady_clock::time_point t_backward_started;
thread_local int t_backward_span = -1;  // with a GPU timer

// The number of arguments of the operator behind `fn` where its schema has a fixed number:
// under the TorchScript interpreter the inputs are the interpreter's whole stack, which also
// holds the values of the calling method (a module object, earlier tensors) below the
// arguments, the last of them. None for a scope or a variadic operator.
std::optional<size_t> schemaArgumentCount(const at::RecordFunction& fn) {
    const auto name = fn.operator_name();
    if (!name) {
        return std::nullopt;
    }
    const auto op = c10::Dispatcher::singleton().findSchema(*name);
    if (!op || op->schema().is_vararg()) {
        return std::nullopt;
    }
    return op->schema().arguments().size();
}

// The autograd engine's own scope around each node it evaluates ("autograd::engine::
// evaluate_function: AddmmBackward0"), a FUNCTION scope on the thread that runs the node.
bool isEngineScope(const at::RecordFunction& fn) {
    // strncmp, not a string_view: every operation is asked, and its name's length is not needed.
    return std::strncmp(fn.name(), "autograd::engine::", 18) == 0;
}

// The backward node of a reentrant activation checkpoint (torch.utils.checkpoint's
// CheckpointFunction, in PyTorch 1.13 and 2.x), which runs the checkpointed code again.
bool isCheckpointBackward(const at::RecordFunction& fn) {
    return std::strcmp(fn.name(), "CheckpointFunctionBackward") == 0;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

int64_t tensorBytes(const c10::IValue& value) {
    if (value.isTensor()) {
        const at::Tensor& tensor = value.toTensor();
        return tensor.defined() ? static_cast<int64_t>(tensor.nbytes()) : 0;
    }
    int64_t bytes = 0;
    if (value.isTensorList()) {
        for (const at::Tensor& tensor : value.toTensorVector())
            bytes += tensor.defined() ? static_cast<int64_t>(tensor.nbytes()) : 0;
    }
    return bytes;
}

}  // namespace

OperationObserver::OperationObserver(Options options) : options_(std::move(options)) {
    for (size_t i = 0; i < options_.weights.size(); ++i) {
        weight_index_.emplace(options_.weights[i], i);
    }
    OperationObserver* expected = nullptr;
    if (!g_active.compare_exchange_strong(expected, this)) {
        throw Error("internal error: two operation observers are active at once");
    }
    if (options_.timeline) {
        timeline_ = std::make_unique<TimelineRecorder>();
    }
    operations_.reserve(options_.expected_operations);
    const bool needs_inputs = !options_.weights.empty() || options_.inputs;
    // Eager steps also hear the optimizer's step, a user scope (see Options::eager).
    std::unordered_set<at::RecordScope, std::hash<at::RecordScope>> scopes{
        at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION};
    if (options_.eager) {
        scopes.insert(at::RecordScope::USER_SCOPE);
    }
    handle_ = at::addGlobalCallback(
        at::RecordFunctionCallback(&OperationObserver::onStart, &OperationObserver::onEnd)
            .needsInputs(needs_inputs)
            .scopes(scopes));
}

OperationObserver::~OperationObserver() {
    at::removeCallback(handle_);
    g_active.store(nullptr);
    while (g_in_flight.load() > 0) {  // another thread's callback is using this observer
        std::this_thread::yield();
    }
}

void OperationObserver::stopObservingInThisProcess() {
    g_active.store(nullptr);
}

void OperationObserver::compilationBegins() {
    uint64_t none = 0;
    if (g_compiling_thread.compare_exchange_strong(none, at::RecordFunction::currentThreadId())) {
        t_compiling_since = Clock::now();
    }  // else another thread compiles: this one's calls stay observed
}

void OperationObserver::compilationEnds() {
    const uint64_t thread = at::RecordFunction::currentThreadId();
    uint64_t expected = thread;
    if (!g_compiling_thread.compare_exchange_strong(expected, 0)) {
        // Dynamo ends its callbacks where the last of overlapping compilations ends, which may
        // be another thread than the one they began on: observed again, nothing taken out.
        g_compiling_thread.store(0);
        return;
    }
    const Clock::duration paused = Clock::now() - t_compiling_since;
    if (t_backward_depth > 0) {
        t_backward_started += paused;  // a lazily compiled backward graph, in its node
    }
    // On the forward thread, the only one that destroys the observer: its open operation.
    if (thread != g_forward_thread.load(std::memory_order_relaxed)) {
        return;
    }
    OperationObserver* self = g_active.load(std::memory_order_acquire);
    if (self && self->depth_ > 0 && !self->options_.gpu_timer) {
        self->started_ += paused;
    }
}

void OperationObserver::forwardBegins() {
    if (options_.eager && phase_.load() != Phase::Idle) {
        // The next micro-batch of an eager step: its operations add to the step's.
        part_ = OperationRecord::Part::Forward;
        phase_.store(Phase::Forward);
        return;
    }
    operations_.clear();
    {
        std::lock_guard<std::mutex> lock(collectives_mutex_);
        collectives_.clear();
    }
    step_started_ = Clock::now();
    forward_spans_.clear();
    backward_spans_.clear();
    depth_ = 0;
    checkpoints_.clear();
    backward_nodes_.clear();
    engine_grad_modes_.clear();
    part_ = OperationRecord::Part::Forward;
    optimizer_steps_open_ = 0;
    forward_thread_ = at::RecordFunction::currentThreadId();
    g_forward_thread.store(forward_thread_, std::memory_order_relaxed);
    phase_.store(Phase::Forward);
}

void OperationObserver::backwardBegins() {
    phase_.store(Phase::Backward);
    backward_root_pending_.store(options_.backward_roots != nullptr);
}

void OperationObserver::noteBackwardRoots(const at::RecordFunction& fn) {
    std::vector<const void*> gradients;
    for (const c10::IValue& input : fn.inputs()) {
        if (input.isTensor() && input.toTensor().defined() && input.toTensor().has_storage()) {
            gradients.push_back(input.toTensor().storage().data());
        }
    }
    options_.backward_roots->backwardStartsFrom(gradients);
}

void OperationObserver::backwardEnded() {
    phase_.store(Phase::Step);
}

void OperationObserver::iterationEnded() {
    phase_.store(Phase::Idle);
    if (options_.gpu_timer) {
        resolveGpuTimes();
    }
    moveRecomputationToBackward();
}

// A recomputed operation ran inside its checkpoint's backward node, whose time holds it: it
// becomes the recomputed operation's backward time, so that the sums stay the step's.
void OperationObserver::moveRecomputationToBackward() {
    for (OperationRecord& record : operations_) {
        if (record.part != OperationRecord::Part::Recomputed) {
            continue;
        }
        record.backward_ms = record.forward_ms;
        record.has_backward = true;
        record.forward_ms = 0.0;
        if (record.recompute_of >= 0) {
            double& checkpoint = operations_[record.recompute_of].backward_ms;
            checkpoint = std::max(checkpoint - record.backward_ms, 0.0);
        }
    }
}

void OperationObserver::resolveGpuTimes() {
    const std::vector<double> spans = options_.gpu_timer->resolve();
    for (size_t i = 0; i < operations_.size() && i < forward_spans_.size(); ++i) {
        operations_[i].forward_ms = spans.at(forward_spans_[i]);
    }
    for (const auto& [span, sequence_nr] : backward_spans_) {
        addBackwardTime(sequence_nr, spans.at(span));
    }
}

std::unique_ptr<at::ObserverContext> OperationObserver::onStart(const at::RecordFunction& fn) {
    OperationObserver* self = g_active.load(std::memory_order_acquire);
    if (!self) {
        return nullptr;
    }
    if (madeWhileCompiling(fn)) {
        return std::make_unique<UnobservedCall>();
    }
    const InFlight in_flight(fn);
    if (!in_flight.holds(self)) {
        return nullptr;
    }
    Phase phase = self->phase_.load(std::memory_order_relaxed);
    if (phase == Phase::Idle) {
        return nullptr;
    }
    if (phase != Phase::Backward && self->options_.eager &&
        fn.scope() == at::RecordScope::BACKWARD_FUNCTION &&
        fn.threadId() != self->forward_thread_ && fn.forwardThreadId() == self->forward_thread_) {
        self->backwardBeginsOnAnotherThread();
        phase = self->phase_.load();
    }
    if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION &&
        self->backward_root_pending_.load(std::memory_order_relaxed) &&
        self->backward_root_pending_.exchange(false)) {
        self->noteBackwardRoots(fn);
    }
    if (fn.scope() == at::RecordScope::USER_SCOPE && isCollectiveName(fn.name())) {
        self->collectiveStart(fn);
    }
    const bool eager_forward_thread =
        self->options_.eager && fn.threadId() == self->forward_thread_;
    if (eager_forward_thread && fn.scope() == at::RecordScope::BACKWARD_FUNCTION) {
        self->backward_nodes_.push_back(fn.seqNr());
        if (isCheckpointBackward(fn)) {
            self->checkpoints_.push_back(
                {self->engineDepth(), operationOfSequence(self->operations_, fn.seqNr())});
        }
    }
    if (eager_forward_thread && fn.scope() != at::RecordScope::BACKWARD_FUNCTION) {
        if (self->eagerPartChange(fn)) {
            self->forwardStart(fn);
        }
        if (fn.scope() == at::RecordScope::FUNCTION && self->options_.inputs) {
            self->noteInputs(fn);
        }
    } else if (fn.scope() == at::RecordScope::USER_SCOPE) {
        // Only eager steps listen to user scopes, and only on the forward thread.
    } else if (fn.scope() == at::RecordScope::FUNCTION) {
        if (fn.threadId() == self->forward_thread_) {
            if (phase == Phase::Forward) {
                self->forwardStart(fn);
            }
            if (self->options_.inputs) {
                self->noteInputs(fn);
            }
        }
    } else if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION && phase == Phase::Backward &&
               self->options_.time) {
        self->backwardStart();
    }
    if (self->timeline_) {
        self->timeline_->begin(fn);  // last, so the bookkeeping above is not in the event
    }
    return nullptr;
}

void OperationObserver::onEnd(const at::RecordFunction& fn, at::ObserverContext* context) {
    OperationObserver* self = g_active.load(std::memory_order_acquire);
    if (!self || context != nullptr) {  // only an unobserved call has a context
        return;
    }
    const InFlight in_flight(fn);
    if (!in_flight.holds(self)) {
        return;
    }
    if (self->timeline_) {
        self->timeline_->end(fn);  // first, so the bookkeeping below is not in the event
    }
    if (fn.scope() == at::RecordScope::USER_SCOPE &&
        self->open_collective_count_.load(std::memory_order_relaxed) > 0) {
        self->collectiveEnd(fn);
    }
    const Phase phase = self->phase_.load(std::memory_order_relaxed);
    const bool eager_forward_thread =
        self->options_.eager && fn.threadId() == self->forward_thread_;
    if (eager_forward_thread && fn.scope() != at::RecordScope::BACKWARD_FUNCTION) {
        if (self->depth_ == 0 && self->engineDepth() > 0 && isEngineScope(fn)) {
            self->engine_grad_modes_.pop_back();
        } else if (fn.scope() == at::RecordScope::USER_SCOPE && self->depth_ == 0 &&
                   self->optimizer_steps_open_ > 0 && isOptimizerStep(fn) &&
                   --self->optimizer_steps_open_ == 0) {
            // What the step runs after the optimizer's (zero_grad, a scheduler's step).
            self->part_ = OperationRecord::Part::AfterBackward;
        } else if (fn.scope() == at::RecordScope::FUNCTION && self->depth_ > 0) {
            self->forwardEnd();
        }
    } else if (fn.scope() == at::RecordScope::FUNCTION) {
        if (phase == Phase::Forward && fn.threadId() == self->forward_thread_ && self->depth_ > 0) {
            self->forwardEnd();
        }
    } else if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION) {
        if (eager_forward_thread && !self->backward_nodes_.empty()) {
            self->backward_nodes_.pop_back();
            if (isCheckpointBackward(fn) && !self->checkpoints_.empty()) {
                self->checkpoints_.pop_back();
            }
        }
        if (phase == Phase::Backward && self->options_.time && t_backward_depth > 0) {
            self->backwardEnd(fn);
        }
    }
}

// The parts of an eager step: backward begins with the autograd engine's first node on the
// forward thread; an operation outside the engine after it ends the backward pass; the
// optimizer's step is its `Optimizer.step#` scope. A reentrant activation checkpoint
// (torch.utils.checkpoint) is one operation in the forward pass, whose backward node runs the
// checkpointed code again before its own backward pass; a non-reentrant one
// (use_reentrant=False) runs it again from a saved tensor's unpack hook inside the backward
// node that needs it (startsRecomputationOnUnpack). Either way those top-level operations are
// records of part Recompute.
bool OperationObserver::isOptimizerStep(const at::RecordFunction& fn) {
    return std::strncmp(fn.name(), "Optimizer.step#", 15) == 0;
}

bool OperationObserver::eagerPartChange(const at::RecordFunction& fn) {
    using Part = OperationRecord::Part;
    if (engineDepth() > 0) {
        // Inside the engine a record is open only for an operation that a checkpoint runs
        // again: what is nested in it counts toward it.
        if (fn.scope() == at::RecordScope::FUNCTION &&
            (depth_ > 0 || (recomputing() && !isEngineScope(fn)) ||
             startsRecomputationOnUnpack(fn))) {
            return true;  // an operation that a checkpoint runs again, or nested in one
        }
        // Inside the autograd engine (the CPU runs backward on the calling thread): its
        // gradient sums are the backward pass's, not the user's operations.
        if (isEngineScope(fn)) {
            enterEngineScope();  // a backward pass within the backward pass (a checkpoint's)
        }
        return false;
    }
    if (fn.scope() == at::RecordScope::USER_SCOPE) {
        if (depth_ == 0 && isOptimizerStep(fn)) {
            // After clipping too, which ended the backward pass already.
            ++optimizer_steps_open_;
            part_ = Part::Optimizer;
            if (phase_.load() != Phase::Step) {
                phase_.store(Phase::Step);
                if (options_.phases) {
                    options_.phases->backwardEnded();
                }
            }
        }
        return false;
    }
    if (depth_ > 0) {
        return true;  // nested in a recorded operation
    }
    if (isEngineScope(fn)) {
        enterEngineScope();
        const Phase before = phase_.exchange(Phase::Backward);
        if (before == Phase::Forward) {
            backward_root_pending_.store(options_.backward_roots != nullptr);
            if (options_.phases) {
                options_.phases->backwardBegins();
            }
        }
        return false;
    }
    if (phase_.load() == Phase::Backward) {
        // The first operation after the engine returned: gradient clipping, or the next
        // micro-batch's inputs before its forward.
        phase_.store(Phase::Step);
        part_ = Part::AfterBackward;
        if (options_.phases) {
            options_.phases->backwardEnded();
        }
    }
    return true;
}

// An eager step's backward pass whose nodes run on another thread than the forward thread's:
// autograd runs a CUDA graph's nodes on the device's own thread while the thread that called
// backward() waits. The pass begins with the first node that the forward thread made, as
// the engine's first scope on the forward thread begins it on the CPU (eagerPartChange).
void OperationObserver::backwardBeginsOnAnotherThread() {
    Phase before = phase_.load();
    do {
        if (before == Phase::Backward || before == Phase::Idle) {
            return;  // another device's thread began it, or the step ended
        }
    } while (!phase_.compare_exchange_weak(before, Phase::Backward));
    if (before == Phase::Forward) {
        backward_root_pending_.store(options_.backward_roots != nullptr);
        if (options_.phases) {
            options_.phases->backwardBegins();
        }
    }
}

int OperationObserver::backwardNodeOwner() const {
    if (!options_.eager || at::RecordFunction::currentThreadId() != forward_thread_ ||
        backward_nodes_.empty()) {
        return -1;
    }
    return operationOfSequence(operations_, backward_nodes_.front());
}

void OperationObserver::enterEngineScope() {
    // The engine has set the grad mode of its backward pass (create_graph) for the node.
    engine_grad_modes_.push_back(c10::GradMode::is_enabled());
}

// An operation that a non-reentrant checkpoint runs again: in a backward node on the forward
// thread, at the top level, with gradients enabled where the engine has them disabled (the
// checkpoint's unpack hook enables them to rebuild the saved tensors; a backward node's own
// operations run without them).
bool OperationObserver::startsRecomputationOnUnpack(const at::RecordFunction& fn) const {
    return depth_ == 0 && !backward_nodes_.empty() && !engine_grad_modes_.empty() &&
           !engine_grad_modes_.back() && !isEngineScope(fn) && c10::GradMode::is_enabled();
}

void OperationObserver::forwardStart(const at::RecordFunction& fn) {
    if (depth_++ == 0) {
        OperationRecord record;
        record.name = fn.name();
        record.part = part_;
        if (engineDepth() > 0) {
            // A reentrant checkpoint's operation holds its recomputation's time; a
            // non-reentrant one's, the outermost node on this thread, the one timed.
            record.part = OperationRecord::Part::Recomputed;
            record.recompute_of = recomputing()
                                      ? checkpoints_.back().operation
                                      : operationOfSequence(operations_, backward_nodes_.front());
        }
        record.seq_begin = at::sequence_number::peek();
        if (options_.frames) {
            record.trace = traces_.add(options_.frames->currentFrames());
        }
        if (options_.module_source) {
            record.module_path = options_.module_source->currentModulePath();
        }
        if (options_.modules) {
            record.module_hierarchy = torch::jit::currentModuleHierarchy();
        }
        operations_.push_back(std::move(record));
        current_.store(static_cast<int>(operations_.size()) - 1, std::memory_order_relaxed);
        if (options_.gpu_timer) {
            forward_spans_.push_back(options_.gpu_timer->begin());
        } else if (options_.time) {
            started_ = Clock::now();  // last, so the bookkeeping above is not timed
        }
    }
    if (!weight_index_.empty()) {
        noteWeightReads(fn);
    }
}

void OperationObserver::forwardEnd() {
    if (--depth_ == 0) {
        OperationRecord& record = operations_.back();
        if (options_.gpu_timer) {
            options_.gpu_timer->end(forward_spans_.back());
        } else if (options_.time) {
            record.forward_ms = millisecondsSince(started_);
        }
        record.seq_end = at::sequence_number::peek();
        current_.store(-1, std::memory_order_relaxed);
    }
}

// Backward nodes are observed only when timing (Options::time).
void OperationObserver::backwardStart() {
    if (t_backward_depth++ == 0) {
        if (options_.gpu_timer) {
            t_backward_span = options_.gpu_timer->begin();
        } else {
            t_backward_started = Clock::now();
        }
    }
}

void OperationObserver::backwardEnd(const at::RecordFunction& fn) {
    if (--t_backward_depth != 0) {
        return;
    }
    double elapsed = 0.0;  // on the CPU; a GPU span is read when the iteration ends
    if (options_.gpu_timer) {
        options_.gpu_timer->end(t_backward_span);
    } else {
        elapsed = millisecondsSince(t_backward_started);
    }
    // A node made by another thread's forward pass is not ours (forwardThreadId 0: unknown).
    if (fn.forwardThreadId() != 0 && fn.forwardThreadId() != forward_thread_) {
        return;
    }
    std::lock_guard<std::mutex> lock(backward_mutex_);
    if (options_.gpu_timer) {
        backward_spans_.emplace_back(t_backward_span, fn.seqNr());  // linked when resolved
        return;
    }
    addBackwardTime(fn.seqNr(), elapsed);
}

void OperationObserver::collectiveStart(const at::RecordFunction& fn) {
    CollectiveRecord record;
    record.name = fn.name();
    OpenCollective open{fn.handle(), {}, std::move(record)};
    for (const c10::IValue& input : fn.inputs())
        open.record.bytes += tensorBytes(input);
    open.record.start_ms = millisecondsSince(step_started_);
    std::lock_guard<std::mutex> lock(collectives_mutex_);
    open.started = Clock::now();  // last, so the bookkeeping above is not timed
    open_collectives_.push_back(std::move(open));
    open_collective_count_.store(open_collectives_.size(), std::memory_order_relaxed);
}

// A backend may end a collective on another thread than the one it began on (NCCL's work
// completes on a watchdog's thread): matched by the RecordFunction's handle, unique per call.
void OperationObserver::collectiveEnd(const at::RecordFunction& fn) {
    const auto now = Clock::now();
    std::lock_guard<std::mutex> lock(collectives_mutex_);
    const auto it = std::find_if(open_collectives_.begin(), open_collectives_.end(),
                                 [&](const OpenCollective& c) { return c.handle == fn.handle(); });
    if (it == open_collectives_.end()) {
        return;
    }
    CollectiveRecord record = std::move(it->record);
    record.ms = std::chrono::duration<double, std::milli>(now - it->started).count();
    open_collectives_.erase(it);
    open_collective_count_.store(open_collectives_.size(), std::memory_order_relaxed);
    collectives_.push_back(std::move(record));
}

void OperationObserver::awaitOpenCollectives(std::chrono::milliseconds limit) {
    const auto deadline = Clock::now() + limit;
    while (open_collective_count_.load() > 0 && Clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

std::vector<CollectiveRecord> OperationObserver::collectives() const {
    std::vector<CollectiveRecord> result;
    {
        std::lock_guard<std::mutex> lock(collectives_mutex_);
        result = collectives_;
    }
    std::sort(result.begin(), result.end(),
              [](const auto& a, const auto& b) { return a.start_ms < b.start_ms; });
    return result;
}

void OperationObserver::addBackwardTime(int64_t sequence_nr, double ms) {
    const int operation = operationOfSequence(operations_, sequence_nr);
    if (operation >= 0) {
        OperationRecord& record = operations_[operation];
        record.has_backward = true;
        record.backward_ms += ms;
    }
}

void OperationObserver::noteWeightReads(const at::RecordFunction& fn) {
    std::vector<int>& read = operations_.back().weights_read;
    auto note = [&](const at::Tensor& tensor) {
        if (!tensor.defined() || (options_.weights_by_storage && !tensor.has_storage())) {
            return;
        }
        const void* key = options_.weights_by_storage
                              ? static_cast<const void*>(tensor.storage().data())
                              : static_cast<const void*>(tensor.unsafeGetTensorImpl());
        auto it = weight_index_.find(key);
        if (it == weight_index_.end()) {
            return;
        }
        const int weight = static_cast<int>(it->second);
        if (std::find(read.begin(), read.end(), weight) == read.end()) {
            read.push_back(weight);
        }
    };
    for (const c10::IValue& input : fn.inputs()) {
        if (input.isTensor()) {
            note(input.toTensor());
        } else if (input.isTensorList()) {
            for (const at::Tensor& tensor : input.toTensorVector()) {
                note(tensor);
            }
        }
    }
}

void OperationObserver::noteInputs(const at::RecordFunction& fn) {
    const auto inputs = fn.inputs();
    const NamedCall& call = namedCall(fn);
    const size_t own = call.arguments ? std::min(inputs.size(), *call.arguments) : inputs.size();
    const InputTexts texts = inputTexts(inputs, inputs.size() - own);
    call_inputs_.push_back({call.text, texts.shapes, texts.dtypes});
}

size_t OperationObserver::SignatureHash::operator()(const std::vector<int64_t>& signature) const {
    uint64_t hash = UINT64_C(14695981039346656037);  // FNV-1a over the numbers
    for (int64_t number : signature) {
        hash = (hash ^ static_cast<uint64_t>(number)) * UINT64_C(1099511628211);
    }
    return static_cast<size_t>(hash);
}

// Shapes and dtypes as torch_npu lists them: one item per input, separated by ";\r\n"; a
// tensor's shape is "4,16" and its dtype "float"; other inputs have an empty shape and a kind
// ("Scalar", "ScalarList", "TensorList", "None", ...) for dtype.
OperationObserver::InputTexts OperationObserver::inputTexts(c10::ArrayRef<const c10::IValue> inputs,
                                                            size_t first) {
    // The signature: per input a code (a tensor's dtype, or its kind below zero), and a
    // tensor's dimensions and sizes. An input of a kind without a code is not cached.
    // (A factory's device, as aten::empty_strided's in a step's every other call, and a string
    // have codes too: their texts are their kinds' names, as tagKind() gives them below.)
    constexpr int64_t kUndefined = -1, kNone = -2, kScalar = -3, kTensorList = -4, kList = -5,
                      kDevice = -6, kString = -7;
    std::vector<int64_t>& signature = signature_;
    signature.clear();
    bool cached = true;
    for (size_t i = first; i < inputs.size(); ++i) {
        const c10::IValue& input = inputs[i];
        if (input.isTensor()) {
            const at::Tensor& tensor = input.toTensor();
            if (!tensor.defined()) {
                signature.push_back(kUndefined);
                continue;
            }
            signature.push_back(static_cast<int64_t>(tensor.scalar_type()));
            signature.push_back(tensor.dim());
            signature.insert(signature.end(), tensor.sizes().begin(), tensor.sizes().end());
        } else if (input.isNone()) {
            signature.push_back(kNone);
        } else if (input.isScalar()) {
            signature.push_back(kScalar);
        } else if (input.isTensorList()) {
            signature.push_back(kTensorList);
        } else if (input.isList()) {
            signature.push_back(kList);
        } else if (input.isDevice()) {
            signature.push_back(kDevice);
        } else if (input.isString()) {
            signature.push_back(kString);
        } else {
            cached = false;
            break;
        }
    }
    if (cached) {
        const auto it = input_kinds_.find(signature);
        if (it != input_kinds_.end()) {
            return it->second;
        }
    }
    std::string& shapes = shapes_;
    std::string& dtypes = dtypes_;
    shapes.clear();
    dtypes.clear();
    const char* separator = "";
    for (size_t i = first; i < inputs.size(); ++i) {
        const c10::IValue& input = inputs[i];
        shapes += separator;
        dtypes += separator;
        separator = ";\r\n";
        if (input.isTensor()) {
            const at::Tensor& tensor = input.toTensor();
            if (!tensor.defined()) {
                dtypes += "None";
                continue;
            }
            const char* comma = "";
            for (int64_t size : tensor.sizes()) {
                shapes += comma + std::to_string(size);
                comma = ",";
            }
            const auto dtype = tensor.dtype().name();  // "float", as torch_npu writes it
            dtypes.append(dtype.data(), dtype.size());
        } else if (input.isNone()) {
            dtypes += "None";
        } else if (input.isScalar()) {
            dtypes += "Scalar";
        } else if (input.isTensorList()) {
            dtypes += "TensorList";
        } else if (input.isList()) {
            dtypes += "ScalarList";
        } else {
            dtypes += input.tagKind();
        }
    }
    const InputTexts texts{input_texts_.add(shapes), input_texts_.add(dtypes)};
    if (cached) {
        input_kinds_.emplace(signature, texts);
    }
    return texts;
}

const OperationObserver::NamedCall& OperationObserver::namedCall(const at::RecordFunction& fn) {
    const char* name = fn.name();
    NamedCall& call = named_calls_[name];
    if (call.name.empty() || call.name != name) {
        call = NamedCall{name, input_texts_.add(name), schemaArgumentCount(fn)};
    }
    return call;
}

TimelineRecord OperationObserver::takeTimeline() {
    const std::unique_ptr<TimelineRecorder> timeline = std::move(timeline_);
    return timeline ? timeline->takeRecord() : TimelineRecord{};
}

}  // namespace trainscope
