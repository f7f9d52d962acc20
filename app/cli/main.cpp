// SPDX-License-Identifier: Apache-2.0
// trainscope-cli: the engine without a GUI, for GPU servers and CI.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli/cli_options.h"
#include "cli/compare_output.h"
#include "cli/file_summary.h"
#include "cli/sweep_output.h"
#include "trainscope/advice_text.h"
#include "trainscope/builtin_models.h"
#include "trainscope/cluster.h"
#include "trainscope/comparison.h"
#include "trainscope/error.h"
#include "trainscope/imported_file.h"
#include "trainscope/profiler.h"
#include "trainscope/ranks_text.h"
#include "trainscope/report_format.h"
#include "trainscope/report_reading.h"
#include "trainscope/report_writer.h"
#include "trainscope/run.h"
#include "trainscope/run_files.h"
#include "trainscope/side_by_side.h"
#include "trainscope/summary_text.h"
#include "trainscope/sweep.h"
#include "trainscope/timeline_data.h"

using namespace trainscope;

namespace {

constexpr int kRunFailed = 1;
constexpr int kUsageError = 2;
constexpr int kLimitExceeded = 1;  // compare
constexpr int kCannotCompare = 2;

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

// What `show` reads of one file, on a worker: its summary, and for a rank's timeline what the
// summary of the ranks needs; or why not.
struct ShownFile {
    std::optional<ImportedRun> imported;  // a trace or a memory snapshot, read in memory
    std::optional<SweepReport> sweep;
    std::optional<AdviceReport> advice;
    std::optional<ReportFileSummary> summary;
    std::optional<RankFacts> rank;
    std::string error;       // no summary
    std::string rank_error;  // a summary, but its calls could not be read for the ranks
};

ShownFile readShownFile(const std::string& path) {
    ShownFile file;
    try {
        if (importedFormatOf(path) != ImportedFormat::None) {
            file.imported = importFile(path);
            return file;
        }
        if (isSweepReport(path)) {
            file.sweep = readSweepReport(path);
            return file;
        }
        if (isAdviceReport(path)) {
            file.advice = readAdviceReport(path);
            return file;
        }
        file.summary = summarizeReportFile(path);
    } catch (const std::exception& e) {
        file.error = e.what();
        return file;
    }
    if (file.summary->kind == ReportFileKind::Timeline && file.summary->rank >= 0) {
        try {
            file.rank = rankFactsOf(loadTimelineData(path, TimelineParts::CallsAndSteps));
        } catch (const std::exception& e) {
            file.rank_error = e.what();
        }
    }
    return file;
}

// `show`: every file's summary; a file that cannot be read gets its line on stderr, and the
// others are still shown. The timelines of several ranks of one job are then summed up side by
// side. Files are read side by side (readInOrder) and printed in the order given.
int show(const cli::CliOptions& options) {
    int status = 0;
    std::vector<RankFacts> ranks;
    readInOrder(
        options.files, [](const std::string& path, size_t) { return readShownFile(path); },
        [&](ShownFile file, size_t i) {
            const std::string& path = options.files[i];
            if (!file.error.empty()) {
                std::cerr << "trainscope-cli: error: " << file.error << std::endl;
                status = kRunFailed;
            } else if (file.imported) {
                const ImportedRun& run = *file.imported;
                std::cout << path << ": " << (run.time ? "torch.profiler trace" : "memory snapshot")
                          << "\n";
                printSummary(std::cout, run.memory ? &*run.memory : nullptr,
                             run.time ? &*run.time : nullptr, &run.timeline);
            } else if (file.sweep) {
                std::cout << path << ": batch-size sweep\n";
                cli::printSweep(std::cout, *file.sweep);
            } else if (file.advice) {
                std::cout << path << ": what-ifs (advise)\n";
                printAdvice(std::cout, *file.advice);
            } else {
                cli::printFileSummary(std::cout, path, *file.summary);
                if (file.rank) {
                    ranks.push_back(std::move(*file.rank));
                } else if (!file.rank_error.empty()) {
                    std::cerr << "trainscope-cli: error: " << file.rank_error << std::endl;
                    status = kRunFailed;
                }
            }
        });
    if (ranks.size() >= 2) {
        try {
            std::cout << "Ranks of the job: ";
            printRanks(std::cout, summarizeRanks(std::move(ranks)));
        } catch (const std::exception& e) {
            std::cout << "\n";
            std::cerr << "trainscope-cli: error: " << e.what() << std::endl;
            status = kRunFailed;
        }
    }
    return status;
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

// `compare`: exit code 0 within the limits, 1 over a limit, 2 when the runs cannot be compared.
int compare(const cli::CliOptions& options) {
    try {
        // The base first: a problem with both is told of the first named.
        const RunReports base = findRunReports(options.files[0]);
        const Comparison comparison = compareRuns(base, findRunReports(options.files[1]));
        const std::vector<GateViolation> violations = gateViolations(comparison, options.limits);
        cli::printComparison(std::cout, options.format, comparison, options.limits, violations,
                             options.top);
        // The offending items also on stderr, one line each, where a CI log shows them beside
        // a JSON or markdown document on stdout.
        if (options.format != cli::CompareFormat::Text) {
            for (const GateViolation& v : violations)
                std::cerr << "trainscope-cli: over the limit: "
                          << cli::violationLine(v, options.limits) << "\n";
        }
        return violations.empty() ? 0 : kLimitExceeded;
    } catch (const std::exception& e) {
        std::cerr << "trainscope-cli: error: cannot compare: " << e.what() << std::endl;
        return kCannotCompare;
    }
}

// `import`: a trace's or a snapshot's reports, written as one set; progress on stderr.
int importReports(const cli::CliOptions& options) {
    const std::string& prefix = options.output;
    const Overwrite overwrite = options.force ? Overwrite::Allow : Overwrite::Refuse;
    for (const std::string& suffix : runReportSuffixes())
        checkOutputPath(prefix + suffix, overwrite);
    int shown = -1;
    const ImportProgress progress = [&](uint64_t done, uint64_t total) {
        const int percent = total > 0 ? static_cast<int>(done * 100 / total) : 0;
        if (percent / 10 != shown / 10) {
            shown = percent;
            std::cerr << "[import] " << percent << " %" << std::endl;
        }
    };
    const ImportedRun run =
        importFile(options.files[0], options.quiet ? ImportProgress{} : progress);
    writeImportedRun(run, prefix, overwrite);
    printSummary(std::cout, run.memory ? &*run.memory : nullptr, run.time ? &*run.time : nullptr,
                 &run.timeline);
    const std::vector<std::string>& suffixes = runReportSuffixes();  // memory, time, timeline
    for (const auto& [written, suffix] :
         {std::pair{run.memory.has_value(), suffixes[0]},
          std::pair{run.time.has_value(), suffixes[1]}, std::pair{true, suffixes[2]}})
        if (written) {
            std::cout << "Wrote " << prefix << suffix << "\n";
        }
    return 0;
}

int exportTrace(const cli::CliOptions& options) {
    const ChromeTraceCounts counts =
        exportChromeTrace(options.files[0], options.chrome_trace,
                          options.force ? Overwrite::Allow : Overwrite::Refuse);
    std::cout << "Wrote " << options.chrome_trace << ": " << counts.complete << " calls and tasks, "
              << counts.counters << " memory samples, " << counts.flows << " links\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    installTempFileCleanup();  // Ctrl-C during a run leaves no temporary report behind
    cli::CliOptions options;
    try {
        options = cli::parseCommandLine(argc, argv);
    } catch (const Error& e) {
        std::cerr << "trainscope-cli: error: " << e.what() << std::endl;
        return kUsageError;
    }
    switch (options.command) {
        case cli::Command::Help:
            std::cout << cli::usage();
            return 0;
        case cli::Command::Version:
            std::cout << "trainscope-cli " << version() << " (LibTorch " << torchVersion() << ")\n";
            return 0;
        case cli::Command::Models:
            printModels();
            return 0;
        default:
            break;
    }
    try {
        if (options.command == cli::Command::Show)
            return show(options);
        if (options.command == cli::Command::Export)
            return exportTrace(options);
        if (options.command == cli::Command::Import)
            return importReports(options);
        if (options.command == cli::Command::Compare)
            return compare(options);
        if (options.command == cli::Command::Sweep)
            return sweep(options);
        return run(options);
    } catch (const std::exception& e) {
        std::cerr << "trainscope-cli: error: " << e.what() << std::endl;
        return kRunFailed;
    }
}
