// SPDX-License-Identifier: Apache-2.0
// Archive and built-in runs held against c10's own allocation reports (support/reference_meter.h,
// no TrainScope code): the same step of the same model, run once with no observer under the
// reference meter, has the report's peak and activations, byte for byte.
#include <gtest/gtest.h>

#include <algorithm>

#include <torch/csrc/jit/runtime/graph_executor.h>

#include "model/workload.h"
#include "support/reference_meter.h"
#include "trainscope/profiler.h"
#include "trainscope/run_config.h"

using namespace trainscope;

namespace {

// Marks the points of the iteration where the profiler's session sees them.
class Marks : public IterationListener {
  public:
    explicit Marks(const test::ReferenceMeter& meter) : meter_(meter) {}
    void forwardBegins() override { forward = meter_.mark(); }
    void backwardBegins() override { backward = meter_.mark(); }
    void iterationEnded() override { end = meter_.mark(); }
    size_t forward = 0, backward = 0, end = 0;

  private:
    const test::ReferenceMeter& meter_;
};

RunConfig model(const char* name, std::map<std::string, std::string> params, const char* input) {
    RunConfig config;
    config.model = name;
    config.params = std::move(params);
    config.inputs = {parseInputSpec(input)};
    config.optimizer = OptimizerKind::Adam;
    return config;
}

class AgainstTheReferenceMeter : public ::testing::TestWithParam<RunConfig> {};

}  // namespace

namespace trainscope {
// How GoogleTest and `ctest -N` show a case: its model, not its bytes.
void PrintTo(const RunConfig& config, std::ostream* out) {
    *out << config.model;
}
}  // namespace trainscope

// The report of `config`'s memory pass, and c10's reports of the same step run with no observer.
struct Measured {
    MemoryReport report;
    int64_t reference_peak = 0;
    int64_t reference_activations = 0;
};

Measured measure(const RunConfig& config) {
    Measured measured{Profiler(config).measureMemory()};
    // As the profiler's memory pass: the meter before the model exists, its warm-ups, then the
    // observed step, with TorchScript's graph optimizer off as the profiler has it (on, it
    // merges a method's operations into differentiable graphs after a few runs, which keep
    // other tensors: the transformer's qkv outputs stayed alive into the backward pass).
    const torch::jit::GraphOptimizerEnabledGuard as_the_profiler_runs(false);
    test::ReferenceMeter meter(c10::DeviceType::CPU);
    Marks marks(meter);
    meter.start();
    {
        Workload plain(config);
        IterationListener nothing;
        for (int i = 0; i < std::max(config.warmup, 1); ++i)
            plain.runIteration(nothing);
        plain.runIteration(marks);
    }
    meter.stop();
    const std::vector<test::AllocationReport> reports = meter.reports();
    measured.reference_peak = test::peakBetween(reports, marks.forward, marks.end).bytes;
    measured.reference_activations = test::keptBetween(reports, marks.forward, marks.backward);
    return measured;
}

TEST_P(AgainstTheReferenceMeter, ThePeakAndTheActivationsAreC10sOwn) {
    const Measured measured = measure(GetParam());
    EXPECT_EQ(measured.report.peak_usage_bytes, measured.reference_peak);
    EXPECT_EQ(measured.report.activationBytes(), measured.reference_activations);
    EXPECT_GT(measured.report.activationBytes(), 0);
}

INSTANTIATE_TEST_SUITE_P(Builtin, AgainstTheReferenceMeter,
                         ::testing::Values(model("builtin:mlp", {{"d_model", "64"}}, "4x16x64"),
                                           model("builtin:transformer",
                                                 {{"vocab", "64"},
                                                  {"d_model", "64"},
                                                  {"n_heads", "4"},
                                                  {"seq_len", "16"},
                                                  {"n_layers", "2"}},
                                                 "2x16:int64:64"),
                                           model("builtin:resnet", {{"width", "8"}}, "2x3x32x32")),
                         [](const auto& info) {
                             return info.param.model.substr(info.param.model.find(':') + 1);
                         });
