// SPDX-License-Identifier: Apache-2.0
// trainscope-cli: TrainScope without a GUI, for GPU servers and CI. It reads, imports, exports and
// compares reports itself, without LibTorch (which takes a second and 160 MB to load); the
// commands that run a model go to the engine (cli/engine_handoff.h).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>

#include "cli/cli_options.h"
#include "cli/compare_output.h"
#include "cli/engine_handoff.h"
#include "cli/exit_codes.h"
#include "cli/file_summary.h"
#include "cli/sweep_output.h"
#include "cli/terminal_safe_output.h"
#include "trainscope/advice_text.h"
#include "trainscope/cluster.h"
#include "trainscope/comparison.h"
#include "trainscope/error.h"
#include "trainscope/imported_file.h"
#include "trainscope/imported_job.h"
#include "trainscope/ranks_text.h"
#include "trainscope/report_format.h"
#include "trainscope/report_reading.h"
#include "trainscope/report_writer.h"
#include "trainscope/run_files.h"
#include "trainscope/side_by_side.h"
#include "trainscope/summary_text.h"
#include "trainscope/timeline_data.h"

using namespace trainscope;

namespace {

using cli::kCannotCompare;
using cli::kLimitExceeded;
using cli::kRunFailed;
using cli::kUsageError;

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
    } catch (const std::bad_alloc&) {
        file.error = "out of memory: reading it needs more than this machine has";
        return file;
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

// A trace or a snapshot where a report is read: the reports are its import's.
// `give`: what of the import's to give instead.
void refuseUnimported(const std::string& path, const std::string& give) {
    if (importedFormatOf(path) != ImportedFormat::None) {
        throw Error(path + " is a torch.profiler trace or a memory snapshot: import it first (" +
                    "trainscope-cli import " + path + " -o PREFIX) and give " + give);
    }
}

// `compare`: exit code 0 within the limits, 1 over a limit, 2 when the runs cannot be compared.
int compare(const cli::CliOptions& options) {
    try {
        for (const std::string& path : options.files)
            refuseUnimported(path, "PREFIX");
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
    for (const std::string& suffix : runReportSuffixes()) {
        std::error_code ec;  // a report path that does not exist is not the file
        if (std::filesystem::equivalent(options.files[0], prefix + suffix, ec)) {
            throw Error("'" + prefix + suffix +
                        "' is the file being imported: its reports would replace it; choose "
                        "another -o PREFIX");
        }
        checkReportOutput(prefix + suffix, overwrite);  // with --force, reports alone replaced
    }
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
    const std::vector<std::string> removed = writeImportedRun(run, prefix, overwrite);
    printSummary(std::cout, run.memory ? &*run.memory : nullptr, run.time ? &*run.time : nullptr,
                 &run.timeline);
    for (const std::string& report : importedRunReports(run, prefix))
        std::cout << "Wrote " << report << "\n";
    for (const std::string& path : removed)
        std::cout << "Removed " << path << ", the replaced set's: " << options.files[0]
                  << " has no data for it\n";
    return 0;
}

// `import` of a job's ranks (several traces, or a folder of them): each rank's set, one line
// each, then the ranks side by side; progress on stderr, trace by trace.
int importJob(const cli::CliOptions& options) {
    std::vector<std::string> traces = options.files;
    if (traces.size() == 1) {
        traces = tracesInFolder(traces.front());
        if (traces.size() == 1) {  // a folder of one trace: that trace's reports, as PREFIX.*
            cli::CliOptions one = options;
            one.files = traces;
            return importReports(one);
        }
    }
    int shown = -1;
    const JobImportProgress progress = [&](size_t trace, uint64_t done, uint64_t total) {
        const int percent = total > 0 ? static_cast<int>(done * 100 / total) : 0;
        const int step = static_cast<int>(trace) * 100 + percent / 25;
        if (step != shown) {
            shown = step;
            std::cerr << "[import] " << trace + 1 << " of " << traces.size() << ": " << percent
                      << " %" << std::endl;
        }
    };
    std::vector<std::string> timelines;
    for (const ImportedRank& rank :
         importRanks(traces, options.output, options.force ? Overwrite::Allow : Overwrite::Refuse,
                     options.quiet ? JobImportProgress{} : progress)) {
        std::cout << "Rank " << rank.rank << ": " << rank.source << "\n";
        for (const std::string& report : rank.written)
            std::cout << "  Wrote " << report << "\n";
        timelines.push_back(rank.written.back());
    }
    std::cout << "Ranks of the job: ";
    printRanksOfFiles(std::cout, timelines);
    return 0;
}

int exportTrace(const cli::CliOptions& options) {
    refuseUnimported(options.files[0], "PREFIX.timeline.sqlite");
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
    const std::optional<cli::CliOptions> parsed = cli::parseCommandLineOrSay(argc, argv);
    if (!parsed) {
        return kUsageError;
    }
    const cli::CliOptions& options = *parsed;
    if (options.command == cli::Command::Help) {
        std::cout << cli::usage();
        return 0;
    }
    // What the commands run here print holds names and paths from files, which may be anyone's
    // (the engine, exec'd below, prints what the user's own model names).
    const bool in_process =
        options.command == cli::Command::Show || options.command == cli::Command::Export ||
        options.command == cli::Command::Import || options.command == cli::Command::Compare;
    std::optional<cli::TerminalSafeOutput> safe_out, safe_err;
    if (in_process) {
        safe_out.emplace(std::cout);
        safe_err.emplace(std::cerr);
    }
    try {
        if (options.command == cli::Command::Show)
            return show(options);
        if (options.command == cli::Command::Export)
            return exportTrace(options);
        if (options.command == cli::Command::Import)
            return options.files.size() > 1 || std::filesystem::is_directory(options.files[0])
                       ? importJob(options)
                       : importReports(options);
        if (options.command == cli::Command::Compare)
            return compare(options);
        return cli::handOverToEngine(argv);  // returns only when the engine cannot be started
    } catch (const std::bad_alloc&) {
        std::cerr << "trainscope-cli: error: out of memory: this needs more than the machine has"
                  << std::endl;
        return kRunFailed;
    } catch (const std::exception& e) {
        std::cerr << "trainscope-cli: error: " << e.what() << std::endl;
        return kRunFailed;
    }
}
