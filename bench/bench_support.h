// SPDX-License-Identifier: Apache-2.0
// Shared pieces of the engine benchmarks.
#pragma once

#include <string>
#include <vector>

#include "bench_report.h"
#include "model/workload.h"
#include "tracking/iteration_listener.h"

namespace trainscope::bench {

double median(std::vector<double> values);

// Wall time of forward + loss + backward, the span an observer would see.
class PassTimer : public IterationListener {
  public:
    void forwardBegins() override;
    void backwardEnded() override;
    double lastMs() const { return last_ms_; }

  private:
    double start_ = 0.0;
    double last_ms_ = 0.0;
};

double nowMs();

RunConfig mlpConfig(int64_t d_model, const std::string& input, DType dtype);

}  // namespace trainscope::bench
