#include "tracking/memory_observer.h"

#include <algorithm>

#include "tracking/operation_observer.h"

namespace trainscope {

class MemoryObserver::Reporter : public c10::MemoryReportingInfoBase {
  public:
    explicit Reporter(MemoryObserver* owner) : owner_(owner) {}
    void reportMemoryUsage(void* ptr, int64_t alloc_size, int64_t /*total_allocated*/,
                           int64_t /*total_reserved*/, c10::Device device) override {
        owner_->onAllocation(ptr, alloc_size, device);
    }
    bool memoryProfilingEnabled() const override { return true; }

  private:
    MemoryObserver* owner_;
};

MemoryObserver::MemoryObserver(c10::DeviceType device_type)
    : device_type_(device_type), reporter_(std::make_shared<Reporter>(this)) {
    guard_ = std::make_unique<c10::DebugInfoGuard>(c10::DebugInfoKind::PROFILER_STATE, reporter_);
}

MemoryObserver::~MemoryObserver() = default;

void MemoryObserver::attributeTo(const OperationObserver* operations) {
    std::lock_guard<std::mutex> lock(mutex_);
    operations_ = operations;
}

void MemoryObserver::forwardBegins() {
    std::lock_guard<std::mutex> lock(mutex_);
    peak_bytes_ = live_bytes_;
    in_forward_ = true;
}

void MemoryObserver::backwardBegins() {
    std::lock_guard<std::mutex> lock(mutex_);
    in_forward_ = false;
    activations_.clear();
    for (const auto& [ptr, allocation] : live_) {
        if (allocation.operation != kNotForward) {
            activations_[allocation.operation] += allocation.bytes;
        }
    }
}

int64_t MemoryObserver::peakBytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return peak_bytes_;
}

int64_t MemoryObserver::liveBytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_bytes_;
}

void MemoryObserver::onAllocation(void* ptr, int64_t bytes, c10::Device device) {
    if (device.type() != device_type_ || bytes == 0) {
        return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (bytes > 0) {
        int operation = kNotForward;
        if (in_forward_) {
            operation = operations_ ? operations_->currentOperation() : -1;
        }
        live_[ptr] = Allocation{bytes, operation};
        live_bytes_ += bytes;
        peak_bytes_ = std::max(peak_bytes_, live_bytes_);
    } else {
        // A block allocated before the observer existed is unknown: nothing to subtract.
        auto it = live_.find(ptr);
        if (it != live_.end()) {
            live_bytes_ -= it->second.bytes;
            live_.erase(it);
        }
    }
}

}  // namespace trainscope
