// SPDX-License-Identifier: Apache-2.0
// Observes every allocation and free through c10's memory-reporting hook (the CPU allocator
// and CUDA's caching allocator both report there). Installed for the current thread when
// constructed, and meant to be constructed before the workload, so that every byte of the
// pass (weights, inputs, gradients, optimizer state) is seen.
//
// Activation memory is what docs/report-formats.md defines: bytes allocated during the forward pass
// (and loss) that are still allocated when the backward pass starts, attributed to the
// top-level operation that allocated them. Views share one allocation, so they count once.
//
// The measured iteration (forwardBegins to iterationEnded) is also recorded allocation by
// allocation, for the timeline and for what is alive at the peak (iteration_memory.h).
#pragma once

#include <ATen/record_function.h>
#include <c10/core/Allocator.h>
#include <c10/core/Device.h>
#include <c10/util/ThreadLocalDebugInfo.h>
#include <c10/util/flat_hash_map.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "torch_compat.h"
#include "tracking/iteration_listener.h"
#include "trainscope/chunked_log.h"

namespace trainscope {

class OperationObserver;

// When a block was allocated.
enum class AllocationPhase : uint8_t { BeforeIteration, Forward, Backward, Step };

// A block alive in the allocator, with when it was allocated. (Not the timeline's LiveBlock:
// one name for two classes in one namespace is one class to the linker.)
struct TrackedBlock {
    int64_t bytes = 0;
    AllocationPhase phase = AllocationPhase::BeforeIteration;
    int operation = -1;  // Forward: the top-level operation index (-1: none)
    int64_t event = -1;  // index of its allocation in events(); -1: before the iteration
};

// One allocation (bytes > 0) or free (bytes < 0) of the measured iteration.
struct MemoryEvent {
    int64_t time = 0;  // timelineTicks(); 0 when no timeline is recorded
    void* ptr = nullptr;
    int64_t bytes = 0;
    int64_t total_allocated = 0;  // after it
    int64_t total_reserved = 0;   // what the allocator holds (CUDA); allocated on the CPU
    int64_t outer_event = -1;     // TimelineRecorder::outermostOpenEvent() when it happened
    AllocationPhase phase = AllocationPhase::Forward;  // an allocation's tags (TrackedBlock)
    bool paired = false;  // an allocation freed within the record, or that free (see below)
    int operation = -1;
};

// Applies event `index` of a record to a table of live blocks (an allocation adds the block with
// its tags, a free removes it): how a record is replayed, wherever it is.
template <typename LiveTable>
void applyEvent(LiveTable& live, const MemoryEvent& event, size_t index) {
    if (event.bytes > 0) {
        live[event.ptr] =
            TrackedBlock{event.bytes, event.phase, event.operation, static_cast<int64_t>(index)};
    } else {
        live.erase(event.ptr);
    }
}

class MemoryObserver : public IterationListener {
  public:
    // Only allocations on `device_type` count (a CUDA run's host allocations do not).
    explicit MemoryObserver(c10::DeviceType device_type);
    ~MemoryObserver() override;
    // In a child forked from the observed process: no meter counts there any more (lock-free:
    // the parent's other threads may have held any lock at the fork).
    static void stopCountingInThisProcess();
    MemoryObserver(const MemoryObserver&) = delete;
    MemoryObserver& operator=(const MemoryObserver&) = delete;

    // A block of this observer's device allocated before it that stays allocated (a user's
    // model created before the session): live from now on. On the CPU it is counted from now
    // on (c10's CPU allocator reports no free of a block it did not report allocated, so only
    // blocks that outlive the session may be added); on CUDA the caching allocator's totals
    // count it already, and the table learns what it is, for the breakdown at the peak.
    void addExistingBlock(const void* ptr, int64_t bytes);
    // A block added by addExistingBlock was freed (a gradient that zero_grad set to None): on
    // the CPU, whose allocator reports no free of it, counted freed now; on CUDA, whose
    // allocator reports it, nothing to do. A block not added, or freed already, is passed over.
    void existingBlockFreed(const void* ptr);

    // Allocations made while `operations` runs a top-level operation are attributed to it (and,
    // when it records a timeline, to the event open on the allocating thread).
    void attributeTo(const OperationObserver* operations);

    // forwardBegins starts the peak and the record of the measured iteration; in an eager
    // step with gradient accumulation, each further call begins the next micro-batch's forward.
    void forwardBegins() override;
    void backwardBegins() override;  // marks the activation snapshot of the micro-batch
    void backwardEnded() override;
    void iterationEnded() override;  // ends the peak and the record
    // The loss's gradient that a backward pass starts from is no activation.
    void backwardStartsFrom(const std::vector<const void*>& gradients) override;

    int64_t peakBytes() const;
    int64_t liveBytes() const;
    // Whether another reporter took c10's allocation reports while the meter ran: torch's own
    // profiler, started inside the session (PyTorch 2.x lets it stand over a disabled one; 1.13
    // refuses to start). The allocations it took are missing from the meter's record then.
    bool displaced() const { return displaced_.load(std::memory_order_relaxed); }
    // For each of `blocks`, the allocation event of the block alive there now (-1: allocated
    // before the record began), or nothing when no block is alive there.
    std::vector<std::optional<int64_t>> liveEvents(const std::vector<const void*>& blocks);
    // The record's allocation events (indices into events()) that are activations: each
    // micro-batch's forward allocations still allocated when its backward began.
    std::unordered_set<int64_t> activationEvents() const;

    // The record of the last measured iteration: what was allocated when it began, every
    // allocation and free since, and where the peak was first reached (the number of events
    // applied at that instant: 0 when the iteration never rose above its start).
    const std::vector<std::pair<void*, TrackedBlock>>& liveAtStart() const {
        return live_at_start_;
    }
    const ChunkedLog<MemoryEvent>& events() const { return events_; }
    // Frees the record's events once the report that holds them is made (the peak, the live
    // blocks and the activations are read from them before).
    void releaseRecord() { events_.clear(); }
    // Frees the record's events before `event` as a reader that went through them in order
    // has done with them (the timeline's memory, written part by part). The table of live
    // blocks takes in the record first, as the next allocation report would.
    void releaseRecordBefore(size_t event);
    size_t eventsAtPeak() const { return events_at_peak_; }
    // When the iteration began and ended, in timelineTicks(), and where each part of it began
    // ("forward", "backward", "optimizer"; an eager step with accumulation repeats the first
    // two), in order.
    struct PhaseMark {
        const char* name;
        int64_t ticks;
    };
    int64_t startTicks() const { return start_; }
    int64_t endTicks() const { return end_; }
    const std::vector<PhaseMark>& phaseMarks() const { return phase_marks_; }

  private:
    class Reporter;
    static std::unique_ptr<at::ObserverContext> checkReporter(const at::RecordFunction& fn);
    void onAllocation(void* ptr, int64_t bytes, int64_t total_allocated, int64_t total_reserved,
                      c10::Device device);
    void record(void* ptr, int64_t bytes, int64_t total_reserved, int operation);
    void applyRecord();
    void notePair(void* ptr, int64_t bytes);

    c10::DeviceType device_type_;
    std::shared_ptr<Reporter> reporter_;
    // c10's CPU allocator logs a warning for each block freed under the meter that was
    // allocated before it ("Memory block of unknown size was allocated before the profiling
    // started"): the meter's doing, printed on the user's stderr. The log prints errors only
    // while the meter runs (made before the guard, so it is restored after it is gone).
    compat::ErrorsOnlyLog errors_only_log_;
    std::unique_ptr<c10::DebugInfoGuard> guard_;
    // Each operation on a thread that the meter reaches checks that the reporter still holds
    // the slot: nothing tells it when another is pushed over it.
    at::CallbackHandle watch_ = 0;
    std::atomic<bool> displaced_{false};
    const OperationObserver* operations_ = nullptr;
    AllocationPhase phase_ = AllocationPhase::BeforeIteration;
    bool recording_ = false;

    // The allocator may report from autograd's worker threads (CUDA), but almost never at
    // once: a spinlock, whose release is a plain store, costs less than a mutex on the path
    // that every allocation takes.
    class SpinLock {
      public:
        void lock() {
            while (flag_.test_and_set(std::memory_order_acquire)) {
            }
        }
        void unlock() { flag_.clear(std::memory_order_release); }

      private:
        std::atomic_flag flag_ = ATOMIC_FLAG_INIT;
    };
    mutable SpinLock mutex_;
    // Open addressing: no allocation per block (this map is touched on every allocation).
    ska::flat_hash_map<void*, TrackedBlock> live_;
    int64_t live_bytes_ = 0;
    int64_t peak_bytes_ = 0;
    bool record_pending_ = false;  // live_ lacks the last record's allocations and frees
    // Most blocks of an iteration are freed within it, and need not pass through live_ at all:
    // while recording on the CPU, the last allocation at each of these slots (by address) is
    // remembered, and a free that finds its own allocation there marks both as paired, which
    // applyRecord skips. A slot taken over by another block only leaves a pair unmarked.
    static constexpr size_t kPairSlots = 1024;
    std::array<int32_t, kPairSlots> recent_allocation_;  // event index, or -1

    std::vector<std::pair<void*, TrackedBlock>> live_at_start_;
    ChunkedLog<MemoryEvent> events_;
    std::unordered_set<const void*> existing_;  // CPU: added by addExistingBlock, not freed
    size_t events_at_peak_ = 0;
    // Per micro-batch: the number of events when its forward began and when its backward
    // began (events_.size() until then: a forward without backward keeps no activations).
    struct MicroBatch {
        size_t forward = 0;
        size_t backward = 0;
        bool backward_began = false;
    };
    std::vector<MicroBatch> micro_batches_;
    std::unordered_set<int64_t> backward_roots_;  // events of the gradients backward began from
    std::vector<PhaseMark> phase_marks_;
    int64_t start_ = 0, end_ = 0;
};

}  // namespace trainscope
