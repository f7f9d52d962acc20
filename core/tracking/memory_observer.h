// Observes every allocation and free through c10's memory-reporting hook (the CPU allocator
// and CUDA's caching allocator both report there). Installed for the current thread when
// constructed, and meant to be constructed before the workload, so that every byte of the
// pass (weights, inputs, gradients, optimizer state) is seen.
//
// Activation memory is what docs/report-formats.md defines: bytes allocated during the forward pass
// (and loss) that are still allocated when the backward pass starts, attributed to the
// top-level operation that allocated them. Views share one allocation, so they count once.
#pragma once

#include <c10/core/Allocator.h>
#include <c10/core/Device.h>
#include <c10/util/ThreadLocalDebugInfo.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "tracking/iteration_listener.h"

namespace trainscope {

class OperationObserver;

class MemoryObserver : public IterationListener {
  public:
    // Only allocations on `device_type` count (a CUDA run's host allocations do not).
    explicit MemoryObserver(c10::DeviceType device_type);
    ~MemoryObserver() override;
    MemoryObserver(const MemoryObserver&) = delete;
    MemoryObserver& operator=(const MemoryObserver&) = delete;

    // Allocations made while `operations` runs a top-level operation are attributed to it.
    void attributeTo(const OperationObserver* operations);

    void forwardBegins() override;   // starts the peak of the measured iteration
    void backwardBegins() override;  // takes the activation snapshot

    int64_t peakBytes() const;
    int64_t liveBytes() const;
    // Activation bytes by top-level operation index (-1: allocated outside any operation).
    const std::map<int, int64_t>& activationBytes() const { return activations_; }

  private:
    class Reporter;
    void onAllocation(void* ptr, int64_t bytes, c10::Device device);

    struct Allocation {
        int64_t bytes;
        int operation;  // kNotForward, or the top-level operation index (-1: none)
    };
    static constexpr int kNotForward = -2;

    c10::DeviceType device_type_;
    std::shared_ptr<Reporter> reporter_;
    std::unique_ptr<c10::DebugInfoGuard> guard_;
    const OperationObserver* operations_ = nullptr;
    bool in_forward_ = false;

    mutable std::mutex mutex_;  // the allocator may report from autograd's worker threads
    std::unordered_map<void*, Allocation> live_;
    int64_t live_bytes_ = 0;
    int64_t peak_bytes_ = 0;
    std::map<int, int64_t> activations_;
};

}  // namespace trainscope
