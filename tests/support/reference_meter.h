// SPDX-License-Identifier: Apache-2.0
// The tests' reference meter: c10's own allocation reports, recorded as they come, with no part
// of TrainScope in between. c10's allocators (the CPU's and CUDA's caching allocator) report
// every block they hand out and take back to the thread's memory-reporting hook; this meter
// pushes a hook of its own that writes down each report, and the test marks points of its step
// by how many reports came before them. The tests run a step once under this meter and once
// under TrainScope, and hold TrainScope's figures against what these reports say.
#pragma once

#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace trainscope::test {

namespace detail {
// The allocator totals' type differs between LibTorch versions (int64_t, then size_t).
template <typename Class, typename Total>
Total totalOf(void (Class::*)(void*, int64_t, Total, Total, c10::Device));
using Total = decltype(totalOf(&c10::MemoryReportingInfoBase::reportMemoryUsage));
}  // namespace detail

// One report: an allocation (bytes > 0) or a free (bytes < 0) of the block at `address`.
using AllocationReport = std::pair<uintptr_t, int64_t>;

class ReferenceMeter {
  public:
    explicit ReferenceMeter(c10::DeviceType device)
        : recorder_(std::make_shared<Recorder>(device)) {}
    // Reports of the calling thread from now on (on the CPU the backward pass runs there too).
    void start() {
        guard_ =
            std::make_unique<c10::DebugInfoGuard>(c10::DebugInfoKind::PROFILER_STATE, recorder_);
    }
    void stop() { guard_.reset(); }
    // The number of reports so far: where a point of the step falls in them.
    size_t mark() const { return recorder_->count(); }
    std::vector<AllocationReport> reports() const { return recorder_->reports(); }

  private:
    class Recorder : public c10::MemoryReportingInfoBase {
      public:
        explicit Recorder(c10::DeviceType device) : device_(device) {}
        void reportMemoryUsage(void* ptr, int64_t bytes, detail::Total, detail::Total,
                               c10::Device device) override {
            if (device.type() != device_ || bytes == 0) {
                return;
            }
            std::lock_guard<std::mutex> lock(mutex_);
            reports_.emplace_back(reinterpret_cast<uintptr_t>(ptr), bytes);
        }
        bool memoryProfilingEnabled() const override { return true; }
        size_t count() {
            std::lock_guard<std::mutex> lock(mutex_);
            return reports_.size();
        }
        std::vector<AllocationReport> reports() {
            std::lock_guard<std::mutex> lock(mutex_);
            return reports_;
        }

      private:
        c10::DeviceType device_;
        std::mutex mutex_;
        std::vector<AllocationReport> reports_;
    };

    std::shared_ptr<Recorder> recorder_;
    std::unique_ptr<c10::DebugInfoGuard> guard_;
};

// The reports replayed: blocks alive after the first `count` reports (address -> bytes and the
// report that allocated it). A free of a block older than the meter is not counted.
inline std::map<uintptr_t, std::pair<int64_t, size_t>> aliveAfter(
    const std::vector<AllocationReport>& reports, size_t count) {
    std::map<uintptr_t, std::pair<int64_t, size_t>> alive;
    for (size_t i = 0; i < std::min(count, reports.size()); ++i) {
        if (reports[i].second > 0) {
            alive[reports[i].first] = {reports[i].second, i};
        } else {
            alive.erase(reports[i].first);
        }
    }
    return alive;
}

// The highest allocated total from report `begin` to report `end`, counted from the meter's
// start, and after how many reports it was first reached.
struct Peak {
    int64_t bytes = 0;
    size_t after = 0;
};
inline Peak peakBetween(const std::vector<AllocationReport>& reports, size_t begin, size_t end) {
    auto alive = aliveAfter(reports, begin);
    int64_t total = 0;
    for (const auto& [address, block] : alive)
        total += block.first;
    Peak peak{total, begin};
    for (size_t i = begin; i < std::min(end, reports.size()); ++i) {
        const auto [address, bytes] = reports[i];
        if (bytes > 0) {
            alive[address] = {bytes, i};
            total += bytes;
        } else if (const auto it = alive.find(address); it != alive.end()) {
            total -= it->second.first;
            alive.erase(it);
        }
        if (total > peak.bytes) {
            peak = {total, i + 1};
        }
    }
    return peak;
}

// What a forward that began at report `forward` allocated and still held when its backward
// began at report `backward`.
inline int64_t keptBetween(const std::vector<AllocationReport>& reports, size_t forward,
                           size_t backward) {
    int64_t kept = 0;
    for (const auto& [address, block] : aliveAfter(reports, backward))
        if (block.second >= forward) {
            kept += block.first;
        }
    return kept;
}

}  // namespace trainscope::test
