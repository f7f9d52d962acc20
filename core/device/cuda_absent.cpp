// SPDX-License-Identifier: Apache-2.0
// device/cuda.h for a LibTorch without CUDA: there is no device, and asking for one's figures
// is an error with a clear message (run_config.cpp refuses --device cuda before that).
#include "device/cuda.h"

#include "trainscope/error.h"

namespace trainscope::cuda {
namespace {

[[noreturn]] void absent() {
    throw Error("this TrainScope was built against a LibTorch without CUDA support");
}

}  // namespace

bool compiledIn() {
    return false;
}

std::optional<DeviceInfo> deviceInfo() {
    return std::nullopt;
}

AllocatorStats allocatorStats() {
    absent();
}

void resetPeak() {
    absent();
}

void synchronize() {
    absent();
}

struct EventTimer::Impl {};

EventTimer::EventTimer() {
    absent();
}

EventTimer::~EventTimer() = default;

int EventTimer::begin() {
    absent();
}

void EventTimer::end(int) {
    absent();
}

std::vector<double> EventTimer::resolve() {
    absent();
}

}  // namespace trainscope::cuda
