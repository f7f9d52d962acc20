// SPDX-License-Identifier: Apache-2.0
// Issue 17's targets for the batch-size sweep, on the CPU, for the built-in mlp, transformer
// and resnet: each is swept as `trainscope-cli sweep` does by default (half, the same and twice
// its configured batch), then measured at twice the largest of those. Printed: the predicted
// peak memory against the measured one (target within 5%), the predicted throughput against
// the measured one (within 15%), and the sweep's cost against one `profile` run at the largest
// swept batch (at most 3.5x).
//
//   sweep_accuracy [--quick]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "bench_report.h"
#include "trainscope/run.h"
#include "trainscope/sweep.h"

using namespace trainscope;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Model {
    const char* name;
    RunConfig config;
    int64_t batch;  // the configured batch, which the sweep's sizes are around
};

RunConfig builtin(const char* name, std::map<std::string, std::string> params, const char* input) {
    RunConfig config;
    config.model = std::string("builtin:") + name;
    config.params = std::move(params);
    config.inputs = {parseInputSpec(input)};
    config.warmup = 2;
    config.iterations = 10;
    return config;
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args = bench::commandLine(
        argc, argv, "sweep_accuracy [--quick]",
        "Sweeps the built-in mlp, transformer and resnet on the CPU around their batch (half,\n"
        "the same, twice), measures each at twice the largest, and prints the prediction's\n"
        "errors (peak memory: target within 5%; throughput: within 15%) and the sweep's cost\n"
        "against one profile at the largest (target at most 3.5x). --quick: smaller models.",
        0, 0, {"--quick"});
    const bool quick = !args.empty();
    // The built-ins at their default widths (the mlp narrower, with one long sequence per
    // sample), so that a sample's work, not LibTorch's fixed cost per call, makes the time.
    const std::vector<Model> models = {
        {"mlp",
         builtin("mlp", {{"d_model", quick ? "64" : "256"}}, quick ? "1x64x64" : "1x4096x256"), 2},
        {"transformer",
         builtin("transformer",
                 {{"d_model", quick ? "32" : "256"},
                  {"n_heads", "4"},
                  {"n_layers", quick ? "2" : "4"},
                  {"vocab", quick ? "256" : "8192"},
                  {"seq_len", quick ? "16" : "128"}},
                 quick ? "1x16:int64:256" : "1x128:int64:8192"),
         quick ? 2 : 8},
        {"resnet",
         builtin("resnet",
                 {{"depth", quick ? "10" : "18"},
                  {"width", quick ? "4" : "64"},
                  {"image_size", quick ? "16" : "64"},
                  {"classes", "100"}},
                 quick ? "1x3x16x16" : "1x3x64x64"),
         quick ? 2 : 8},
    };
    const std::string dir = std::filesystem::temp_directory_path() / "trainscope-sweep-bench";
    std::filesystem::create_directories(dir);
    bool met = true;
    for (const Model& model : models) {
        std::printf("--- builtin:%s\n", model.name);
        {  // LibTorch's first run of a model pays for its set-up (threads, the JIT): not timed
            RunConfig warm = model.config;
            warm.warmup = 0;
            warm.iterations = 1;
            Profiler(warm).measureTime();
        }
        SweepPlan plan;
        plan.config = model.config;
        plan.batch_sizes = defaultBatchSizes(model.batch);
        const int64_t largest = plan.batch_sizes.back(), beyond = 2 * largest;
        plan.memory_budget = int64_t{1} << 40;
        plan.output = dir + "/" + model.name;
        plan.overwrite = Overwrite::Allow;
        auto start = std::chrono::steady_clock::now();
        const SweepReport sweep = runSweep(plan);
        const double sweep_s = secondsSince(start);

        RunPlan profile;
        profile.config = model.config;
        profile.config.batch_size = largest;
        profile.output = dir + "/" + model.name + "-profile";
        profile.overwrite = Overwrite::Allow;
        start = std::chrono::steady_clock::now();
        runAndWrite(profile);
        const double profile_s = secondsSince(start);

        RunConfig at = model.config;
        at.batch_size = beyond;
        Profiler profiler(at);
        const double peak = static_cast<double>(profiler.measureMemory().peak_usage_bytes);
        // As the sweep measures it: the fastest of the measured iterations.
        const double throughput =
            1000.0 * double(beyond) / profiler.measureTime().iteration_spread.min_ms;

        const double peak_error = std::abs(sweep.predictedPeak(beyond) - peak) / peak;
        // No prediction (the fitted iteration time did not grow) counts as a 100% error.
        const std::optional<double> predicted = sweep.predictedThroughput(beyond);
        const double throughput_error =
            predicted ? std::abs(*predicted - throughput) / throughput : 1.0;
        std::printf("  swept at %lld, %lld, %lld; measured at %lld\n",
                    static_cast<long long>(plan.batch_sizes[0]),
                    static_cast<long long>(plan.batch_sizes[1]), static_cast<long long>(largest),
                    static_cast<long long>(beyond));
        std::printf("  peak: predicted %.0f B, measured %.0f B (fit R² %.6f)\n",
                    sweep.predictedPeak(beyond), peak, sweep.peak.r_squared);
        if (predicted) {
            std::printf("  throughput: predicted %.1f, measured %.1f samples/s (fit R² %.4f)\n",
                        *predicted, throughput, sweep.iteration.r_squared);
        } else {
            std::printf(
                "  throughput: none predicted (the fitted iteration time did not grow "
                "with the batch), measured %.1f samples/s\n",
                throughput);
        }
        std::printf("  the sweep: %.2f s; one profile at %lld: %.2f s\n", sweep_s,
                    static_cast<long long>(largest), profile_s);
        met &= bench::report(std::string(model.name) + ": peak error at 2x the largest",
                             100 * peak_error, "%", 5, "within 5%");
        met &= bench::report(std::string(model.name) + ": throughput error at 2x the largest",
                             100 * throughput_error, "%", 15, "within 15%");
        met &= bench::report(std::string(model.name) + ": sweep / one profile", sweep_s / profile_s,
                             "x", 3.5, "at most 3.5x");
    }
    std::filesystem::remove_all(dir);
    return met ? 0 : 1;
}
