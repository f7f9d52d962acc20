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

#include "records/memory_record.h"
#include "torch_compat.h"
#include "tracking/iteration_listener.h"
#include "tracking/spin_lock.h"
#include "trainscope/chunked_log.h"

namespace trainscope {

class CpuBlockWatch;
class OperationObserver;

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

    // The record of the last memory step (forwardBegins() to iterationEnded()): read while no
    // step records, or moved out once it ended. Moved out, the meter's table of live blocks
    // has taken it in, so that the reader may free it as it goes.
    const MemoryRecord& record() const { return record_; }
    MemoryRecord takeRecord();

  private:
    class Reporter;
    static std::unique_ptr<at::ObserverContext> checkReporter(const at::RecordFunction& fn);
    // A CPU block counted by the watch (CpuBlockWatch) allocated (bytes > 0) or freed, on
    // any thread.
    static void blockChanged(void* meter, void* block, int64_t bytes);
    // Whether this thread's allocations are the meter's: its profiler slot holds the meter
    // (c10 reports them to whichever profiler holds it).
    static bool reachesThisThread(void* meter);
    void onAllocation(void* ptr, int64_t bytes, int64_t total_allocated, int64_t total_reserved,
                      c10::Device device);
    void record(void* ptr, int64_t bytes, int64_t total_reserved, int operation);
    void applyRecord();
    void notePair(void* ptr, int64_t bytes);
    static size_t pairSlot(const void* ptr);

    c10::DeviceType device_type_;
    std::shared_ptr<Reporter> reporter_;
    // c10's CPU allocator logs a warning for each block freed under the meter that was
    // allocated before it ("Memory block of unknown size was allocated before the profiling
    // started"): the meter's doing, printed on the user's stderr. The log prints errors only
    // while the meter runs (made before the guard, so it is restored after it is gone).
    compat::ErrorsOnlyLog errors_only_log_;
    std::unique_ptr<c10::DebugInfoGuard> guard_;
    std::unique_ptr<CpuBlockWatch> block_watch_;  // CPU: the blocks of c10's CPU allocator
    // Each operation on a thread that the meter reaches checks that the reporter still holds
    // the slot: nothing tells it when another is pushed over it.
    at::CallbackHandle watch_ = 0;
    std::atomic<bool> displaced_{false};
    const OperationObserver* operations_ = nullptr;
    AllocationPhase phase_ = AllocationPhase::BeforeIteration;
    bool recording_ = false;

    // The allocator may report from autograd's worker threads (CUDA), but almost never at
    // once.
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

    std::unordered_set<const void*> existing_;  // CPU: added by addExistingBlock, not freed
    MemoryRecord record_;
};

}  // namespace trainscope
