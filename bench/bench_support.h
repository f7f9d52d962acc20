// SPDX-License-Identifier: Apache-2.0
// Shared pieces of the engine benchmarks.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bench_report.h"
#include "device/cuda.h"
#include "model/workload.h"
#include "tracking/iteration_listener.h"

namespace trainscope::bench {

double median(std::vector<double> values);

// The time of forward + loss + backward, the span an observer would see: wall time, or on a
// GPU the GPU time between two CUDA events (read when the iteration ends).
class PassTimer : public IterationListener {
  public:
    explicit PassTimer(bool gpu = false);
    ~PassTimer() override;
    void forwardBegins() override;
    void backwardEnded() override;
    void iterationEnded() override;
    double lastMs() const { return last_ms_; }

  private:
    std::unique_ptr<cuda::EventTimer> gpu_;
    int span_ = -1;
    double start_ = 0.0;
    double last_ms_ = 0.0;
};

double nowMs();

RunConfig mlpConfig(int64_t d_model, const std::string& input, DType dtype);

}  // namespace trainscope::bench
