// SPDX-License-Identifier: Apache-2.0
// device/cuda.h against a CUDA LibTorch (compiled only when the LibTorch has torch_cuda).
#include "device/cuda.h"

#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include <mutex>

#include "trainscope/error.h"

namespace trainscope::cuda {
namespace {

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        throw Error(std::string("CUDA: ") + what + " failed: " + cudaGetErrorString(status));
    }
}

// The allocator's statistics are arrays by pool kind; the aggregate of all pools is the first
// (StatType::AGGREGATE, whose namespace moved between LibTorch versions).
constexpr size_t kAggregate = 0;

}  // namespace

bool compiledIn() {
    return true;
}

std::optional<DeviceInfo> deviceInfo() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();  // clear the error, so that it does not surface elsewhere
        return std::nullopt;
    }
    const int device = c10::cuda::current_device();
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, device), "reading the device's properties");
    size_t free_bytes = 0, total_bytes = 0;
    check(cudaMemGetInfo(&free_bytes, &total_bytes), "reading the device's memory");
    return DeviceInfo{properties.name, static_cast<int64_t>(total_bytes),
                      static_cast<int64_t>(free_bytes)};
}

AllocatorStats allocatorStats() {
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(c10::cuda::current_device());
    return {stats.allocated_bytes[kAggregate].current, stats.reserved_bytes[kAggregate].current,
            stats.allocated_bytes[kAggregate].peak};
}

void resetPeak() {
    c10::cuda::CUDACachingAllocator::resetPeakStats(c10::cuda::current_device());
}

void synchronize() {
    check(cudaDeviceSynchronize(), "waiting for the device");
}

struct EventTimer::Impl {
    std::mutex mutex;
    std::vector<cudaEvent_t> events;  // span n: events 2n (start) and 2n + 1 (end)
    std::vector<bool> ended;
    size_t spans = 0;

    cudaEvent_t event(size_t index) {
        while (events.size() <= index) {
            cudaEvent_t created = nullptr;
            check(cudaEventCreate(&created), "creating an event");
            events.push_back(created);
        }
        return events[index];
    }
};

EventTimer::EventTimer() : impl_(std::make_unique<Impl>()) {}

EventTimer::~EventTimer() {
    for (cudaEvent_t event : impl_->events) {
        cudaEventDestroy(event);
    }
}

int EventTimer::begin() {
    const cudaStream_t stream = c10::cuda::getCurrentCUDAStream().stream();
    std::lock_guard<std::mutex> lock(impl_->mutex);
    const size_t span = impl_->spans++;
    cudaEvent_t start = impl_->event(2 * span);
    impl_->event(2 * span + 1);  // created now, so that end() only records
    impl_->ended.resize(impl_->spans, false);
    check(cudaEventRecord(start, stream), "recording an event");
    return static_cast<int>(span);
}

void EventTimer::end(int span) {
    const cudaStream_t stream = c10::cuda::getCurrentCUDAStream().stream();
    std::lock_guard<std::mutex> lock(impl_->mutex);
    check(cudaEventRecord(impl_->events.at(2 * static_cast<size_t>(span) + 1), stream),
          "recording an event");
    impl_->ended.at(span) = true;
}

std::vector<double> EventTimer::resolve() {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    std::vector<double> durations(impl_->spans, 0.0);
    if (impl_->spans > 0) {
        synchronize();
    }
    for (size_t span = 0; span < impl_->spans; ++span) {
        if (!impl_->ended[span]) {
            continue;
        }
        float ms = 0.0f;
        check(cudaEventElapsedTime(&ms, impl_->events[2 * span], impl_->events[2 * span + 1]),
              "reading an event's time");
        durations[span] = ms;
    }
    impl_->spans = 0;
    impl_->ended.clear();
    return durations;
}

}  // namespace trainscope::cuda
