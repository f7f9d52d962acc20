// SPDX-License-Identifier: Apache-2.0
// Do the per-operation times add up? The sum of forward and backward times of a time report,
// against the forward and backward passes of the same model timed without any observer.
#include <torch/csrc/jit/runtime/graph_executor.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench_support.h"
#include "trainscope/profiler.h"

using namespace trainscope;
using namespace trainscope::bench;

int main(int argc, char** argv) {
    // Default: the acceptance model, the MLP block in bfloat16 (about a second an iteration).
    const std::vector<std::string> args = commandLine(
        argc, argv, "timing_accuracy [--quick] [--cuda]",
        "Compares the sum of a time report's forward and backward times with the unobserved\n"
        "forward and backward passes of the MLP at d_model=1024 in bfloat16 (target: within\n"
        "15% on the CPU, 10% on a GPU). --quick: a small float32 MLP, for a smoke test.\n"
        "--cuda: on the GPU, where both sides are GPU times between CUDA events.",
        0, 0, {"--quick", "--cuda"});
    const bool quick = std::find(args.begin(), args.end(), "--quick") != args.end();
    const bool gpu = std::find(args.begin(), args.end(), "--cuda") != args.end();
    RunConfig config = quick ? mlpConfig(256, "2x512x256", DType::Float32)
                             : mlpConfig(1024, "2x4096x1024", DType::BFloat16);
    if (gpu) {
        config.device = Device::Cuda;
        config.warmup = 5;  // cuBLAS picks its kernels in the first iterations
        config.iterations = 20;
    }
    const double target = gpu ? 0.10 : 0.15;

    const TimeReport report = Profiler(config).measureTime();
    const double observed = report.partTimes().sum();

    torch::jit::setGraphExecutorOptimize(false);
    Workload workload(config);
    PassTimer timer(gpu);
    std::vector<double> plain;
    for (int i = 0; i < config.warmup + config.iterations; ++i) {
        workload.runIteration(timer);
        if (i >= config.warmup)
            plain.push_back(timer.lastMs());
    }
    const double unobserved = median(plain);
    std::printf(
        "MLP d_model=%s input %s %s on %s: sum of per-operation forward+backward %.3f ms, "
        "forward+backward without observer %.3f ms (%s)\n",
        config.params.at("d_model").c_str(), toString(config.inputs[0]).c_str(),
        toString(config.dtype).c_str(), toString(config.device).c_str(), observed, unobserved,
        gpu ? "GPU time between CUDA events" : "wall time");
    const double deviation = std::abs(observed / unobserved - 1.0);
    std::printf("ratio observed / unobserved: %.4f\n", observed / unobserved);
    return bench::report("|ratio - 1|", deviation, "", target, gpu ? "<= 0.10" : "<= 0.15") ? 0 : 1;
}
