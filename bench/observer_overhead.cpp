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
};

Cost measure(Workload& workload, const Setup& setup, int rounds) {
    std::vector<double> off, on;
    for (int i = 0; i < rounds; ++i) {
        IterationListener none;
        double start = nowMs();
        workload.runIteration(none);
        off.push_back(nowMs() - start);
        std::shared_ptr<IterationListener> listener = setup();
        start = nowMs();
        workload.runIteration(*listener);
        on.push_back(nowMs() - start);
    }
    return {median(off), median(on)};
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
    void reportMemoryUsage(void*, int64_t, int64_t, int64_t, c10::Device) override {}
    bool memoryProfilingEnabled() const override { return true; }
};

// The memory pass: the operation observer, and a memory observer installed when the forward
// pass begins. (In a run it exists before the model; here it is made per iteration, and a
// block from an earlier iteration freed under it would make c10 log a warning each time.)
class MemoryPass : public IterationListener {
  public:
    explicit MemoryPass(bool timeline) : operations_(options(timeline)) {}
    void forwardBegins() override {
        memory_ = std::make_unique<MemoryObserver>(c10::DeviceType::CPU);
        memory_->attributeTo(&operations_);
        operations_.forwardBegins();
        memory_->forwardBegins();
    }
    void backwardBegins() override {
        operations_.backwardBegins();
        memory_->backwardBegins();
    }
    void backwardEnded() override {
        operations_.backwardEnded();
        memory_->backwardEnded();
    }
    void iterationEnded() override {
        operations_.iterationEnded();
        memory_->iterationEnded();
        memory_.reset();
    }

  private:
    static OperationObserver::Options options(bool timeline) {
        OperationObserver::Options options;
        options.timeline = timeline;
        return options;
    }
    OperationObserver operations_;
    std::unique_ptr<MemoryObserver> memory_;
};

// The floor of the memory pass: an empty callback, and an empty memory hook installed in the
// same way.
class EmptyHooks : public IterationListener {
  public:
    void forwardBegins() override {
        guard_ = std::make_unique<c10::DebugInfoGuard>(c10::DebugInfoKind::PROFILER_STATE,
                                                       std::make_shared<EmptyMemoryHook>());
    }
    void iterationEnded() override { guard_.reset(); }

  private:
    EmptyCallback callback_{false};
    std::unique_ptr<c10::DebugInfoGuard> guard_;
};

}  // namespace

int main() {
    torch::jit::setGraphExecutorOptimize(false);  // as the profiler runs models
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
    measure(
        tiny, [] { return std::make_shared<IterationListener>(); }, 100);  // warm-up
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

    const int rounds = 2000;
    const Cost floor_rf = measure(
        tiny, [] { return std::make_shared<EmptyCallback>(false); }, rounds);
    const Cost floor_memory = measure(
        tiny, [] { return std::make_shared<EmptyHooks>(); }, rounds);
    const Cost time_pass = measure(
        tiny, [] { return std::make_shared<OperationObserver>(timeOptions()); }, rounds);
    const Cost memory = measure(
        tiny, [] { return std::make_shared<MemoryPass>(false); }, rounds);
    const Cost memory_timeline = measure(
        tiny, [] { return std::make_shared<MemoryPass>(true); }, rounds);
    SourceLocator locator(std::filesystem::path(config.model).parent_path().string());
    std::vector<const c10::TensorImpl*> weights;
    for (const NamedParameter& p : tiny.parameters())
        weights.push_back(p.tensor.unsafeGetTensorImpl());
    const Cost capture = measure(
        tiny,
        [&] {
            OperationObserver::Options options;
            options.frames = &locator;
            options.weights = weights;
            options.modules = true;
            options.inputs = true;
            return std::make_shared<OperationObserver>(options);
        },
        rounds / 4);

    auto print = [&](const char* name, const Cost& cost) {
        const double extra_us = (cost.on_ms - cost.off_ms) * 1000.0;
        std::printf("  %-34s %8.4f ms vs %8.4f ms off: %6.3fx, %6.3f us/event, %7.3f us/op\n", name,
                    cost.on_ms, cost.off_ms, cost.on_ms / cost.off_ms, extra_us / events,
                    extra_us / operations);
        return extra_us / events;
    };
    std::printf("median iteration, observed vs unobserved (alternating):\n");
    const double floor_rf_us = print("empty callback (floor)", floor_rf);
    const double floor_us = print("empty callback + memory hook", floor_memory);
    print("time pass", time_pass);
    const double memory_us = print("memory pass", memory);
    print("memory pass + timeline", memory_timeline);
    print("stack capture (frames, inputs)", capture);
    std::printf("  (the floor of the RecordFunction callback alone: %.3f us/event)\n", floor_rf_us);
    met &= report("memory pass per event / floor per event", memory_us / floor_us, "x", 1.2,
                  "<= 1.2x the same hooks doing nothing");
    // Each ratio is to its own interleaved unobserved iterations, so drift between the two
    // measurements cancels.
    const double with_timeline = memory_timeline.on_ms / memory_timeline.off_ms;
    const double without = memory.on_ms / memory.off_ms;
    met &= report("timeline recording, added to the memory pass's iteration",
                  (with_timeline / without - 1.0) * 100.0, "%", 10.0, "<= 10%");

    Workload wide(mlpConfig(1024, "2x512x1024", DType::Float32));
    const Setup timer = [] { return std::make_shared<OperationObserver>(timeOptions()); };
    measure(wide, timer, 2);
    const Cost wide_cost = measure(wide, timer, 15);
    std::printf("MLP d_model=1024, input 2x512x1024 float32: %.3f ms off, %.3f ms on\n",
                wide_cost.off_ms, wide_cost.on_ms);
    met &= report("timed iteration, observer on / off", wide_cost.on_ms / wide_cost.off_ms, "x",
                  1.05, "<= 1.05x");
    std::filesystem::remove_all(dir);
    return met ? 0 : 1;
}
