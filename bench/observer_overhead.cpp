// SPDX-License-Identifier: Apache-2.0
// What observing costs, on a model of tiny operations where the cost shows: 50 layers of
// Linear(16,16) (an addmm) and ReLU at batch 1, so that an iteration is almost all
// per-operation overhead. For each observer configuration, iterations with and without it
// alternate (drift hits both alike) and the medians give:
//   - µs per RecordFunction event (every call the callbacks see: operations, nested calls,
//     backward nodes, the optimizer's), and µs per recorded (top-level) operation;
//   - the ratio to an unobserved iteration.
// The floor is the same hooks doing nothing: an empty RecordFunction callback on the same
// scopes, and (for the memory pass, which needs it) an empty memory-reporting hook.
// Then the wide MLP (d_model=1024), where the time pass must not distort what it times.
#include <ATen/record_function.h>
#include <c10/util/ThreadLocalDebugInfo.h>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/torch.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>

#include "bench_support.h"
#include "torch_compat.h"
#include "tracking/memory_observer.h"
#include "tracking/operation_observer.h"
#include "tracking/source_locator.h"

using namespace trainscope;
using namespace trainscope::bench;

namespace {

constexpr int kLayers = 50;

// The tiny-operation model as a TorchScript archive, built here (no Python needed).
std::string writeTinyModel(const std::string& folder) {
    torch::jit::Module module("TinyOps");
    std::string source = "def forward(self, x):\n";
    for (int i = 0; i < kLayers; ++i) {
        const std::string n = std::to_string(i);
        module.register_parameter("w" + n, torch::randn({16, 16}).requires_grad_(), false);
        module.register_parameter("b" + n, torch::randn({16}).requires_grad_(), false);
        source += "    x = torch.relu(torch.addmm(self.b" + n + ", x, self.w" + n + "))\n";
    }
    source += "    return x\n";
    module.define(source);
    const std::string path = folder + "/tiny_ops.pt";
    module.save(path);
    return path;
}

std::atomic<int64_t> g_events{0};

// An observer configuration: made before each observed iteration, destroyed after it.
using Setup = std::function<std::shared_ptr<IterationListener>()>;

struct Cost {
    double off_ms = 0, on_ms = 0;
    double extra_ms = 0;     // median over rounds of (observed - unobserved) within a round
    std::vector<double> on;  // per round, for ratios between configurations
};

// Each round runs every configuration in turn, each as an unobserved iteration followed by an
// observed one (see below), so that the machine's drift (a shared VM) hits all of them alike.
std::vector<Cost> measure(Workload& workload, const std::vector<Setup>& setups, int rounds) {
    std::vector<std::vector<double>> off(setups.size()), on(setups.size()), extra(setups.size());
    for (int i = 0; i < rounds; ++i) {
        for (size_t c = 0; c < setups.size(); ++c) {
            IterationListener none;
            double start = nowMs();
            workload.runIteration(none);
            off[c].push_back(nowMs() - start);
            // Observed twice, timed the second time: a run's observers exist before the
            // iteration they measure, so their first sight of the model's blocks (frees of
            // blocks they never saw allocated, growing tables) is not the steady cost.
            std::shared_ptr<IterationListener> listener = setups[c]();
            workload.runIteration(*listener);
            start = nowMs();
            workload.runIteration(*listener);
            on[c].push_back(nowMs() - start);
            extra[c].push_back(on[c].back() - off[c].back());
        }
    }
    std::vector<Cost> costs;
    for (size_t c = 0; c < setups.size(); ++c)
        costs.push_back({median(off[c]), median(on[c]), median(extra[c]), on[c]});
    return costs;
}

// An empty RecordFunction callback on the scopes the observers use, counting events.
class EmptyCallback : public IterationListener {
  public:
    explicit EmptyCallback(bool count) {
        auto callback = at::RecordFunctionCallback(
            count ? [](const at::RecordFunction&) -> std::unique_ptr<at::ObserverContext> {
                ++g_events;
                return nullptr;
            }
                  : [](const at::RecordFunction&) -> std::unique_ptr<at::ObserverContext> {
                        return nullptr;
                    },
            [](const at::RecordFunction&, at::ObserverContext*) {});
        handle_ = at::addGlobalCallback(
            callback.scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION}));
    }
    ~EmptyCallback() override { at::removeCallback(handle_); }

  private:
    at::CallbackHandle handle_;
};

OperationObserver::Options timeOptions() {
    OperationObserver::Options options;
    options.time = true;
    return options;
}

class EmptyMemoryHook : public c10::MemoryReportingInfoBase {
  public:
    void reportMemoryUsage(void*, int64_t, compat::AllocatorTotal, compat::AllocatorTotal,
                           c10::Device) override {}
    bool memoryProfilingEnabled() const override { return true; }
};

// The memory pass: the operation observer attributing allocations to operations, and the
// memory observer, made before the iterations it observes, as in a run.
struct MemoryPassObservers {
    explicit MemoryPassObservers(bool timeline)
        : memory(c10::DeviceType::CPU), operations(options(timeline)) {
        memory.attributeTo(&operations);
    }
    static OperationObserver::Options options(bool timeline) {
        OperationObserver::Options options;
        options.timeline = timeline;
        return options;
    }
    MemoryObserver memory;
    OperationObserver operations;
};

class MemoryPass : private MemoryPassObservers, public IterationListeners {
  public:
    explicit MemoryPass(bool timeline)
        : MemoryPassObservers(timeline), IterationListeners({&operations, &memory}) {}
};

// The floor of the memory pass: an empty callback and an empty memory hook.
class EmptyHooks : public IterationListener {
  private:
    EmptyCallback callback_{false};
    c10::DebugInfoGuard guard_{c10::DebugInfoKind::PROFILER_STATE,
                               std::make_shared<EmptyMemoryHook>()};
};

}  // namespace

int main(int argc, char** argv) {
    commandLine(argc, argv, "observer_overhead",
                "What observing costs per RecordFunction event and per operation, on a model of\n"
                "tiny operations (50 x Linear(16,16) + ReLU, batch 1), for the time pass, the\n"
                "memory pass, the timeline and stack capture, against an empty callback; then\n"
                "the time pass on the wide MLP. Prints each figure against its target.",
                0, 0);
    torch::jit::setGraphExecutorOptimize(false);  // as the profiler runs models
    // c10 warns when a block it did not see allocated is freed under a memory hook, as blocks
    // of the unobserved iterations are here; the warning is not news.
    compat::logErrorsOnly();
    bool met = true;
    const std::string folder = std::filesystem::temp_directory_path() / "trainscope-bench-XXXXXX";
    std::vector<char> name(folder.begin(), folder.end());
    name.push_back('\0');
    const std::string dir = mkdtemp(name.data());

    RunConfig config;
    config.model = writeTinyModel(dir);
    config.inputs = {parseInputSpec("1x16")};
    Workload tiny(config);

    // Events and top-level operations per iteration.
    measure(tiny, {[] { return std::make_shared<IterationListener>(); }}, 100);  // warm-up
    g_events = 0;
    {
        EmptyCallback counter(true);
        IterationListener none;
        tiny.runIteration(none);
    }
    const double events = static_cast<double>(g_events.load());
    double operations = 0;
    {
        OperationObserver counted({});
        tiny.runIteration(counted);
        operations = static_cast<double>(counted.operations().size());
    }
    std::printf(
        "tiny-operation model (%d x Linear(16,16) + ReLU, batch 1): %.0f RecordFunction "
        "events and %.0f top-level operations per iteration\n",
        kLayers, events, operations);

    SourceLocator locator(std::filesystem::path(config.model).parent_path().string());
    TorchScriptFrames frames(locator);
    std::vector<const void*> weights;
    for (const NamedParameter& p : tiny.parameters())
        weights.push_back(p.tensor.unsafeGetTensorImpl());
    const std::vector<Setup> setups = {
        [] { return std::make_shared<EmptyCallback>(false); },
        [] { return std::make_shared<EmptyHooks>(); },
        [] { return std::make_shared<OperationObserver>(timeOptions()); },
        [] { return std::make_shared<MemoryPass>(false); },
        [] { return std::make_shared<MemoryPass>(true); },
        [&] {
            OperationObserver::Options options;
            options.frames = &frames;
            options.weights = weights;
            options.modules = true;
            options.inputs = true;
            return std::make_shared<OperationObserver>(options);
        }};
    const std::vector<Cost> costs = measure(tiny, setups, 1000);
    const Cost& floor_rf = costs[0];
    const Cost& floor_memory = costs[1];
    const Cost& memory = costs[3];
    const Cost& memory_timeline = costs[4];

    auto print = [&](const char* name, const Cost& cost) {
        const double extra_us = cost.extra_ms * 1000.0;
        std::printf("  %-34s %8.4f ms vs %8.4f ms off: %6.3fx, %6.3f us/event, %7.3f us/op\n", name,
                    cost.on_ms, cost.off_ms, cost.on_ms / cost.off_ms, extra_us / events,
                    extra_us / operations);
        return extra_us / events;
    };
    std::printf("median iteration, observed vs unobserved (interleaved rounds):\n");
    const double floor_rf_us = print("empty callback (floor)", floor_rf);
    const double floor_us = print("empty callback + memory hook", floor_memory);
    print("time pass", costs[2]);
    const double memory_us = print("memory pass", memory);
    print("memory pass + timeline", memory_timeline);
    print("stack capture (frames, inputs)", costs[5]);
    std::printf("  (the floor of the RecordFunction callback alone: %.3f us/event)\n", floor_rf_us);
    met &= report("memory pass per event / floor per event", memory_us / floor_us, "x", 1.2,
                  "<= 1.2x the same hooks doing nothing");
    // The same round's memory-pass iteration with and without the timeline.
    std::vector<double> added;
    for (size_t i = 0; i < memory.on.size(); ++i)
        added.push_back(memory_timeline.on[i] / memory.on[i] - 1.0);
    met &= report("timeline recording, added to the memory pass's iteration", median(added) * 100.0,
                  "%", 10.0, "<= 10%");

    Workload wide(mlpConfig(1024, "2x512x1024", DType::Float32));
    const Setup timer = [] { return std::make_shared<OperationObserver>(timeOptions()); };
    measure(wide, {timer}, 2);
    const Cost wide_cost = measure(wide, {timer}, 15)[0];
    std::printf("MLP d_model=1024, input 2x512x1024 float32: %.3f ms off, %.3f ms on\n",
                wide_cost.off_ms, wide_cost.on_ms);
    met &= report("timed iteration, observer on / off", wide_cost.on_ms / wide_cost.off_ms, "x",
                  1.05, "<= 1.05x");
    std::filesystem::remove_all(dir);
    return met ? 0 : 1;
}
