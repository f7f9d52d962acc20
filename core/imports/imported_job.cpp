// SPDX-License-Identifier: Apache-2.0
#include "trainscope/imported_job.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include <unistd.h>

#include "trainscope/error.h"
#include "trainscope/report_writer.h"
#include "trainscope/run_files.h"

namespace trainscope {

namespace fs = std::filesystem;

std::vector<std::string> tracesInFolder(const std::string& folder) {
    std::vector<std::string> traces;
    std::error_code ec;
    fs::directory_iterator entries(folder, ec);
    if (ec) {
        throw Error("cannot read the folder '" + folder + "': " + ec.message());
    }
    for (const fs::directory_entry& entry : entries) {
        std::error_code kind;
        if (entry.is_regular_file(kind) &&
            importedFormatOf(entry.path().string()) == ImportedFormat::ProfilerTrace) {
            traces.push_back(entry.path().string());
        }
    }
    if (traces.empty()) {
        throw Error("the folder '" + folder + "' holds no torch.profiler trace (.json, .json.gz)");
    }
    std::sort(traces.begin(), traces.end());
    return traces;
}

std::string rankReportsPrefix(const std::string& prefix, int rank) {
    return prefix + ".rank" + std::to_string(rank);
}

namespace {

// Where the ranks' sets are written first, beside PREFIX: moved into place once every rank is,
// so that a failure leaves PREFIX's reports as they were (with --force too).
std::string stagingPrefix(const std::string& prefix) {
    const fs::path path(prefix);
    return (path.parent_path() /
            ("." + path.filename().string() + ".importing-" + std::to_string(::getpid())))
        .string();
}

// Each trace imported and its rank's set written at the staging prefix; `ranks` says what is
// written so far.
void importEach(const std::vector<std::string>& traces, const std::string& prefix,
                const std::string& staging, const JobImportProgress& progress,
                const std::atomic<bool>* cancel, std::vector<ImportedRank>& ranks,
                std::vector<std::string>& staged) {
    std::map<int, std::string> source_of_rank;
    for (size_t i = 0; i < traces.size(); ++i) {
        const std::string& trace = traces[i];
        ImportProgress reading;
        if (progress) {
            reading = [&progress, i](uint64_t done, uint64_t total) { progress(i, done, total); };
        }
        const ImportedRun run = importFile(trace, reading, cancel);
        const int rank = run.timeline.rank;
        if (rank < 0) {
            throw Error(trace +
                        " names no rank (the trace has no distributedInfo): it is not a rank of "
                        "a distributed job; import it alone");
        }
        const auto [seen, first] = source_of_rank.emplace(rank, trace);
        if (!first) {
            throw Error(seen->second + " and " + trace + " are both rank " + std::to_string(rank) +
                        ": they are not the traces of one job's ranks");
        }
        const std::string at = rankReportsPrefix(staging, rank);
        const std::vector<std::string> files = importedRunReports(run, at);
        staged.insert(staged.end(), files.begin(), files.end());  // removed if anything fails
        writeImportedRun(run, at, Overwrite::Refuse);
        ranks.push_back({trace, rank, rankReportsPrefix(prefix, rank),
                         importedRunReports(run, rankReportsPrefix(prefix, rank))});
    }
}

// Moves the staged sets into place: every path checked first (an existing report only with
// `overwrite`, never another file), then each moved, a rank's reports that its new set lacks
// removed (PREFIX.rankR's reports are this import's).
void moveIntoPlace(const std::vector<ImportedRank>& ranks, const std::string& staging,
                   Overwrite overwrite) {
    for (const ImportedRank& rank : ranks)
        for (const std::string& suffix : runReportSuffixes()) {
            checkReportOutput(rank.prefix + suffix, overwrite);  // those to remove, too
        }
    for (const ImportedRank& rank : ranks) {
        const std::string from = rankReportsPrefix(staging, rank.rank);
        for (const std::string& suffix : runReportSuffixes()) {
            const std::string path = rank.prefix + suffix;
            std::error_code ec;
            if (std::find(rank.written.begin(), rank.written.end(), path) != rank.written.end()) {
                fs::rename(from + suffix, path, ec);
                if (ec) {
                    throw Error("cannot move '" + from + suffix + "' to '" + path +
                                "': " + ec.message());
                }
            } else {
                fs::remove(path, ec);
            }
        }
    }
}

}  // namespace

std::vector<ImportedRank> importRanks(const std::vector<std::string>& traces,
                                      const std::string& prefix, Overwrite overwrite,
                                      const JobImportProgress& progress,
                                      const std::atomic<bool>* cancel) {
    if (traces.size() < 2) {
        throw Error("a job's ranks are imported from two traces or more");
    }
    for (const std::string& trace : traces)
        if (importedFormatOf(trace) != ImportedFormat::ProfilerTrace) {
            throw Error(trace +
                        " is not a torch.profiler trace: a job's ranks are imported from their "
                        "traces (a memory snapshot names no rank; import it alone)");
        }
    const std::string staging = stagingPrefix(prefix);
    std::vector<ImportedRank> ranks;
    std::vector<std::string> staged;
    try {
        importEach(traces, prefix, staging, progress, cancel, ranks, staged);
        moveIntoPlace(ranks, staging, overwrite);
    } catch (...) {
        for (const std::string& file : staged) {
            std::error_code ignored;  // one never written, or already moved: nothing to do
            fs::remove(file, ignored);
        }
        throw;
    }
    return ranks;
}

}  // namespace trainscope
