// SPDX-License-Identifier: Apache-2.0
// Do the per-operation times add up? The sum of forward and backward times of a time report,
// against the forward and backward passes of the same model timed without any observer.
#include <torch/csrc/jit/runtime/graph_executor.h>

#include <cmath>
#include <cstdio>

#include "bench_support.h"
#include "trainscope/profiler.h"

using namespace trainscope;
using namespace trainscope::bench;

int main(int argc, char** argv) {
    // Default: the acceptance model, seed 004's MLP in bfloat16 (about a second an iteration).
    const std::vector<std::string> args = commandLine(
        argc, argv, "timing_accuracy [--quick]",
        "Compares the sum of a time report's forward and backward times with the unobserved\n"
        "forward and backward passes of the MLP at d_model=1024 in bfloat16 (target: within\n"
        "15%). --quick: a small float32 MLP, for a smoke test.",
        0, 0, {"--quick"});
    const bool quick = !args.empty();
    const RunConfig config = quick ? mlpConfig(256, "2x512x256", DType::Float32)
                                   : mlpConfig(1024, "2x4096x1024", DType::BFloat16);

    const TimeReport report = Profiler(config).measureTime();
    const double observed = report.forwardMs() + report.backwardMs();

    torch::jit::setGraphExecutorOptimize(false);
    Workload workload(config);
    PassTimer timer;
    std::vector<double> plain;
    for (int i = 0; i < config.warmup + config.iterations; ++i) {
        workload.runIteration(timer);
        if (i >= config.warmup)
            plain.push_back(timer.lastMs());
    }
    const double unobserved = median(plain);
    std::printf(
        "MLP d_model=%s input %s %s: sum of per-operation forward+backward %.3f ms, "
        "forward+backward without observer %.3f ms\n",
        config.params.at("d_model").c_str(), toString(config.inputs[0]).c_str(),
        toString(config.dtype).c_str(), observed, unobserved);
    const double deviation = std::abs(observed / unobserved - 1.0);
    std::printf("ratio observed / unobserved: %.4f\n", observed / unobserved);
    return bench::report("|ratio - 1|", deviation, "", 0.15, "<= 0.15") ? 0 : 1;
}
