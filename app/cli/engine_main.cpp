// SPDX-License-Identifier: Apache-2.0
// trainscope-cli-engine: the commands of trainscope-cli that run a model (memory, time, timeline,
// profile, sweep, models, --version), with LibTorch. trainscope-cli hands them over to it
// (cli/engine_handoff.h), so that reading, importing and comparing reports never load LibTorch.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "cli/cli_options.h"
#include "cli/exit_codes.h"
#include "cli/sweep_output.h"
#include "trainscope/builtin_models.h"
#include "trainscope/error.h"
#include "trainscope/profiler.h"
#include "trainscope/report_format.h"
#include "trainscope/report_writer.h"
#include "trainscope/run.h"
#include "trainscope/summary_text.h"
#include "trainscope/sweep.h"

using namespace trainscope;

namespace {

void printModels() {
    for (const BuiltinModelInfo& model : builtinModels()) {
        std::cout << "builtin:" << model.name << "\n  " << model.description
                  << "\n  default inputs: " << model.default_inputs
                  << "   default loss: " << model.default_loss << "\n  parameters:\n";
        for (const BuiltinParameter& p : model.parameters) {
            std::string line = "    " + p.name + "=" + p.default_value;
            line.resize(std::max<size_t>(line.size() + 1, 24), ' ');
            std::cout << line << p.description;
            if (!p.choices.empty()) {
                std::cout << " (";
                for (size_t i = 0; i < p.choices.size(); ++i) {
                    std::cout << (i ? ", " : "") << p.choices[i];
                }
                std::cout << ")";
            }
            std::cout << "\n";
        }
    }
    std::cout << "models folder: " << builtinModelsDir() << "\n";
}

void printProgress(const Progress& progress) {
    std::cerr << "[" << trainscope::stageName(progress) << "]";
    if (progress.total > 0) {
        std::cerr << " iteration " << progress.iteration << "/" << progress.total;
    }
    if (progress.last_iteration_ms > 0) {
        std::fprintf(stderr, " (%.1f ms)", progress.last_iteration_ms);
    }
    std::cerr << std::endl;
}

int run(const cli::CliOptions& options) {
    RunPlan plan;
    plan.config = options.config;
    plan.measure = options.command == cli::Command::Memory     ? Measure::Memory
                   : options.command == cli::Command::Time     ? Measure::Time
                   : options.command == cli::Command::Timeline ? Measure::Timeline
                                                               : Measure::All;
    plan.output = options.output;
    plan.overwrite = options.force ? Overwrite::Allow : Overwrite::Refuse;
    const RunResult result = runAndWrite(plan, options.quiet ? ProgressCallback{} : printProgress);
    printSummary(std::cout, result.memory ? &*result.memory : nullptr,
                 result.time ? &*result.time : nullptr,
                 result.timeline ? &*result.timeline : nullptr);
    for (const std::string& path : result.paths)
        std::cout << "Wrote " << path << "\n";
    return 0;
}

void printSweepProgress(const SweepProgress& progress) {
    if (progress.verifying) {
        std::cerr << "[verify: batch " << progress.batch_size << "] ";
    } else {
        std::cerr << "[batch " << progress.batch_size << ", " << progress.index << "/"
                  << progress.of << "] ";
    }
    printProgress(progress.run);
}

int sweep(const cli::CliOptions& options) {
    SweepPlan plan;
    plan.config = options.config;
    plan.batch_sizes = options.batch_sizes;
    plan.memory_budget = options.memory_budget;
    plan.verify = options.verify;
    plan.output = options.output;
    plan.overwrite = options.force ? Overwrite::Allow : Overwrite::Refuse;
    const SweepReport report =
        runSweep(plan, options.quiet ? SweepProgressCallback{} : printSweepProgress);
    cli::printSweep(std::cout, report);
    std::cout << "Wrote " << options.output << report_format::kSweepSuffix << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    installTempFileCleanup();  // Ctrl-C during a run leaves no temporary report behind
    const std::optional<cli::CliOptions> parsed = cli::parseCommandLineOrSay(argc, argv);
    if (!parsed) {
        return cli::kUsageError;
    }
    const cli::CliOptions& options = *parsed;
    try {
        switch (options.command) {
            case cli::Command::Version:
                std::cout << "trainscope-cli " << version() << " (LibTorch " << torchVersion()
                          << ")\n";
                return 0;
            case cli::Command::Models:
                printModels();
                return 0;
            case cli::Command::Sweep:
                return sweep(options);
            case cli::Command::Memory:
            case cli::Command::Time:
            case cli::Command::Timeline:
            case cli::Command::Profile:
                return run(options);
            default:
                std::cerr << "trainscope-cli: error: the engine runs models; this command is "
                             "trainscope-cli's\n";
                return cli::kUsageError;
        }
    } catch (const std::exception& e) {
        std::cerr << "trainscope-cli: error: " << e.what() << std::endl;
        return cli::kRunFailed;
    }
}
