// The operation observer's cost:
//  1. per operation, on a model of many tiny operations (the MLP at d_model=16, input 4x16),
//     where the iteration time is almost all per-operation overhead;
//  2. as a ratio of timed iterations with the observer on and off, for the MLP at d_model=1024.
// Iterations with and without the observer alternate, so drift hits both alike.
#include <ATen/record_function.h>
#include <torch/csrc/jit/runtime/graph_executor.h>

#include <atomic>
#include <cstdio>

#include "bench_support.h"
#include "tracking/operation_observer.h"

using namespace trainscope;
using namespace trainscope::bench;

namespace {

std::atomic<int64_t> g_callbacks{0};

// Every RecordFunction the observer would see in one iteration: top-level and nested
// operations, and backward nodes.
int64_t callbacksPerIteration(Workload& workload) {
    g_callbacks = 0;
    auto handle = at::addGlobalCallback(
        at::RecordFunctionCallback([](const at::RecordFunction&)
                                       -> std::unique_ptr<at::ObserverContext> {
            ++g_callbacks;
            return nullptr;
        }).scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION}));
    IterationListener none;
    workload.runIteration(none);
    at::removeCallback(handle);
    return g_callbacks.load();
}

// Median iteration times (ms) with the observer off and on, alternating.
std::pair<double, double> offAndOn(Workload& workload, int rounds) {
    std::vector<double> off, on;
    for (int i = 0; i < rounds; ++i) {
        IterationListener none;
        double start = nowMs();
        workload.runIteration(none);
        off.push_back(nowMs() - start);
        OperationObserver observer({/*time=*/true, nullptr, {}});
        start = nowMs();
        workload.runIteration(observer);
        on.push_back(nowMs() - start);
    }
    return {median(off), median(on)};
}

}  // namespace

int main() {
    torch::jit::setGraphExecutorOptimize(false);  // as the profiler runs models
    bool met = true;

    Workload tiny(mlpConfig(16, "4x16", DType::Float32));
    offAndOn(tiny, 200);  // warm-up
    const int64_t callbacks = callbacksPerIteration(tiny);
    const auto [tiny_off, tiny_on] = offAndOn(tiny, 3000);
    std::printf(
        "tiny MLP (d_model=16, input 4x16): %lld operations and backward nodes per "
        "iteration, %.4f ms off, %.4f ms on\n",
        static_cast<long long>(callbacks), tiny_off, tiny_on);
    met &= report("observer cost per operation", (tiny_on - tiny_off) * 1000.0 / callbacks, "us",
                  2.0, "<= 2 us");

    Workload wide(mlpConfig(1024, "2x512x1024", DType::Float32));
    offAndOn(wide, 2);
    const auto [wide_off, wide_on] = offAndOn(wide, 15);
    std::printf("MLP d_model=1024, input 2x512x1024 float32: %.3f ms off, %.3f ms on\n", wide_off,
                wide_on);
    met &= report("timed iteration, observer on / off", wide_on / wide_off, "x", 1.05, "<= 1.05x");
    return met ? 0 : 1;
}
