// SPDX-License-Identifier: Apache-2.0
// What the engine needs from CUDA, behind plain C++ types: the device's name and memory, the
// caching allocator's statistics, and GPU time measured with CUDA events. cuda.cpp implements
// it against a CUDA LibTorch; cuda_absent.cpp, for a CPU-only LibTorch, says so when called.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace trainscope::cuda {

// Whether this build of the engine has CUDA support (a CUDA LibTorch).
bool compiledIn();

struct DeviceInfo {
    std::string name;     // "NVIDIA H100 80GB HBM3"
    int64_t total_bytes;  // the device's memory
    int64_t free_bytes;   // free now, as the driver sees it (other processes' use included)
};

// The current CUDA device, or nothing when none is visible or CUDA is not compiled in.
std::optional<DeviceInfo> deviceInfo();

// The caching allocator's aggregate figures for the current device: bytes allocated to
// tensors, bytes it holds from the driver (reserved), and the highest allocated since
// resetPeak().
struct AllocatorStats {
    int64_t allocated = 0;
    int64_t reserved = 0;
    int64_t peak_allocated = 0;
};
AllocatorStats allocatorStats();
void resetPeak();

// Waits until the device has finished all work queued so far.
void synchronize();

// Spans of GPU work, each between two CUDA events recorded on the current stream of the
// calling thread: recording costs the host a few microseconds and never waits for the GPU.
// resolve() waits once for the device to finish (one synchronisation for all spans) and reads
// every span. The events are pooled, so a timer reused from iteration to iteration creates none
// after the first. Thread-safe: the forward pass and autograd's device thread record into the
// same timer.
class EventTimer {
  public:
    EventTimer();  // throws trainscope::Error without CUDA
    ~EventTimer();
    EventTimer(const EventTimer&) = delete;
    EventTimer& operator=(const EventTimer&) = delete;

    int begin();         // records a start event; returns the span's number
    void end(int span);  // records its end event
    // The duration of every span begun since the last resolve(), in milliseconds, by number;
    // then forgets them. A span that was never ended reads 0.
    std::vector<double> resolve();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace trainscope::cuda
