// SPDX-License-Identifier: Apache-2.0
// Issue 17's targets for the batch-size sweep, on the CPU, for the built-in mlp, transformer
// and resnet: each is swept at batch sizes 1, 2 and 4, then measured at 8 (twice the largest
// measured). Printed: the predicted peak memory against the measured one (target within 5%),
// the predicted throughput against the measured one (within 15%), and the sweep's cost
// against one `profile` run at batch 4 (at most 3.5x).
//
//   sweep_accuracy [--quick]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

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
};

RunConfig builtin(const char* name, std::map<std::string, std::string> params, const char* input) {
    RunConfig config;
    config.model = std::string("builtin:") + name;
    config.params = std::move(params);
    config.inputs = {parseInputSpec(input)};
    config.warmup = 2;
    config.iterations = 5;
    return config;
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args = bench::commandLine(
        argc, argv, "sweep_accuracy [--quick]",
        "Sweeps the built-in mlp, transformer and resnet at batch sizes 1, 2 and 4 on the CPU,\n"
        "measures each at 8, and prints the prediction's errors (peak memory: target within\n"
        "5%; throughput: within 15%) and the sweep's cost against one profile at batch 4\n"
        "(target at most 3.5x). --quick: smaller models, for a smoke test.",
        0, 0, {"--quick"});
    const bool quick = !args.empty();
    // The built-ins at their default widths (the mlp narrower, with one long sequence per
    // sample), so that a sample's work, not LibTorch's fixed cost per call, makes the time.
    const std::vector<Model> models = {
        {"mlp",
         builtin("mlp", {{"d_model", quick ? "64" : "256"}}, quick ? "1x64x64" : "1x1024x256")},
        {"transformer", builtin("transformer",
                                {{"d_model", quick ? "32" : "256"},
                                 {"n_heads", "4"},
                                 {"n_layers", quick ? "2" : "4"},
                                 {"vocab", quick ? "256" : "8192"},
                                 {"seq_len", quick ? "16" : "128"}},
                                quick ? "1x16:int64:256" : "1x128:int64:8192")},
        {"resnet", builtin("resnet",
                           {{"depth", quick ? "10" : "18"},
                            {"width", quick ? "4" : "64"},
                            {"image_size", quick ? "16" : "64"},
                            {"classes", "100"}},
                           quick ? "1x3x16x16" : "1x3x64x64")},
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
        plan.batch_sizes = {1, 2, 4};
        plan.memory_budget = int64_t{1} << 40;
        plan.output = dir + "/" + model.name;
        plan.overwrite = Overwrite::Allow;
        auto start = std::chrono::steady_clock::now();
        const SweepReport sweep = runSweep(plan);
        const double sweep_s = secondsSince(start);

        RunPlan profile;
        profile.config = model.config;
        profile.config.batch_size = 4;
        profile.output = dir + "/" + model.name + "-profile";
        profile.overwrite = Overwrite::Allow;
        start = std::chrono::steady_clock::now();
        runAndWrite(profile);
        const double profile_s = secondsSince(start);

        RunConfig at8 = model.config;
        at8.batch_size = 8;
        Profiler profiler(at8);
        const double peak = static_cast<double>(profiler.measureMemory().peak_usage_bytes);
        const double throughput = 8000.0 / profiler.measureTime().iteration_ms;

        const double peak_error = std::abs(sweep.predictedPeak(8) - peak) / peak;
        const double throughput_error =
            std::abs(sweep.predictedThroughput(8) - throughput) / throughput;
        std::printf("  peak at 8: predicted %.0f B, measured %.0f B (fit R² %.6f)\n",
                    sweep.predictedPeak(8), peak, sweep.peak.r_squared);
        std::printf("  throughput at 8: predicted %.1f, measured %.1f samples/s (fit R² %.4f)\n",
                    sweep.predictedThroughput(8), throughput, sweep.iteration.r_squared);
        std::printf("  sweep of 1, 2, 4: %.2f s; one profile at 4: %.2f s\n", sweep_s, profile_s);
        met &= bench::report(std::string(model.name) + ": peak error at batch 8", 100 * peak_error,
                             "%", 5, "within 5%");
        met &= bench::report(std::string(model.name) + ": throughput error at batch 8",
                             100 * throughput_error, "%", 15, "within 15%");
        met &= bench::report(std::string(model.name) + ": sweep / one profile", sweep_s / profile_s,
                             "x", 3.5, "at most 3.5x");
    }
    std::filesystem::remove_all(dir);
    return met ? 0 : 1;
}
