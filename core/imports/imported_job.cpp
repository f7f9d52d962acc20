// SPDX-License-Identifier: Apache-2.0
#include "trainscope/imported_job.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "trainscope/error.h"
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

// The reports a written run has at its prefix, in runReportSuffixes() order.
std::vector<std::string> writtenReports(const ImportedRun& run, const std::string& prefix) {
    const std::vector<std::string>& suffixes = runReportSuffixes();  // memory, time, timeline
    std::vector<std::string> written;
    if (run.memory) {
        written.push_back(prefix + suffixes[0]);
    }
    if (run.time) {
        written.push_back(prefix + suffixes[1]);
    }
    written.push_back(prefix + suffixes[2]);
    return written;
}

std::vector<ImportedRank> importEach(const std::vector<std::string>& traces,
                                     const std::string& prefix, Overwrite overwrite,
                                     const JobImportProgress& progress,
                                     const RankImported& imported, const std::atomic<bool>* cancel,
                                     std::vector<ImportedRank>& ranks) {
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
        ImportedRank done{trace, rank, rankReportsPrefix(prefix, rank), {}};
        writeImportedRun(run, done.prefix, overwrite);
        done.written = writtenReports(run, done.prefix);
        ranks.push_back(done);
        if (imported) {
            imported(run, ranks.back());
        }
    }
    return ranks;
}

}  // namespace

std::vector<ImportedRank> importRanks(const std::vector<std::string>& traces,
                                      const std::string& prefix, Overwrite overwrite,
                                      const JobImportProgress& progress,
                                      const RankImported& imported,
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
    std::vector<ImportedRank> ranks;
    try {
        return importEach(traces, prefix, overwrite, progress, imported, cancel, ranks);
    } catch (...) {
        for (const ImportedRank& rank : ranks)
            for (const std::string& report : rank.written) {
                std::error_code ignored;  // a report that cannot be removed stays: no worse
                fs::remove(report, ignored);
            }
        throw;
    }
}

}  // namespace trainscope
