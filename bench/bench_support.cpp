#include "bench_support.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

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

void PassTimer::forwardBegins() {
    start_ = nowMs();
}
void PassTimer::backwardEnded() {
    last_ms_ = nowMs() - start_;
}

RunConfig mlpConfig(int64_t d_model, const std::string& input, DType dtype) {
    RunConfig config;
    config.model = "builtin:mlp";
    config.params = {{"d_model", std::to_string(d_model)}, {"act", "gelu"}};
    config.inputs = {parseInputSpec(input)};
    config.dtype = dtype;
    return config;
}

bool report(const std::string& name, double value, const std::string& unit, double limit,
            const std::string& target) {
    const bool met = value <= limit;
    std::printf("%-58s %10.4f %-3s (target %s): %s\n", name.c_str(), value, unit.c_str(),
                target.c_str(), met ? "met" : "MISSED");
    return met;
}

}  // namespace trainscope::bench
