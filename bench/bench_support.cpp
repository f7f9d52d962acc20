// SPDX-License-Identifier: Apache-2.0
#include "bench_support.h"

#include <algorithm>
#include <chrono>

namespace trainscope::bench {

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

double nowMs() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

PassTimer::PassTimer(bool gpu) : gpu_(gpu ? std::make_unique<cuda::EventTimer>() : nullptr) {}
PassTimer::~PassTimer() = default;

void PassTimer::forwardBegins() {
    if (gpu_) {
        span_ = gpu_->begin();
    } else {
        start_ = nowMs();
    }
}
void PassTimer::backwardEnded() {
    if (gpu_) {
        gpu_->end(span_);
    } else {
        last_ms_ = nowMs() - start_;
    }
}
void PassTimer::iterationEnded() {
    if (gpu_) {
        last_ms_ = gpu_->resolve().at(span_);
    }
}

RunConfig mlpConfig(int64_t d_model, const std::string& input, DType dtype) {
    RunConfig config;
    config.model = "builtin:mlp";
    config.params = {{"d_model", std::to_string(d_model)}, {"act", "gelu"}};
    config.inputs = {parseInputSpec(input)};
    config.dtype = dtype;
    return config;
}

}  // namespace trainscope::bench
