// SPDX-License-Identifier: Apache-2.0
// Issue 16's target: comparing two run time reports of 1,000,000 entries each takes < 3 s.
// The two reports are make_large_report's (3 frames per entry, no module paths: every
// operation is matched by its innermost source line, the slower way) with the same operations
// and frames and other times, as two runs of one model are. The figure is the wall time of
// trainscope::compareRuns (reading both files, matching, every figure's change, sorting) plus
// the gate, against the 3 s target.
//
//   compare_runs [ENTRIES]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "bench_report.h"
#include "trainscope/comparison.h"
#include "trainscope/error.h"

namespace {

std::string largeReport(long entries, long times_seed) {
    const std::string path = "/tmp/trainscope-compare-" + std::to_string(entries) + "-" +
                             std::to_string(times_seed) + ".time.sqlite";
    if (!std::filesystem::exists(path)) {
        const std::string command = std::string(TRAINSCOPE_MAKE_LARGE_REPORT) + " " + path + " " +
                                    std::to_string(entries) + " " + std::to_string(times_seed) +
                                    " >/dev/null";
        if (std::system(command.c_str()) != 0) {
            std::fprintf(stderr, "compare_runs: could not write %s\n", path.c_str());
            std::exit(1);
        }
    }
    return path;
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args = trainscope::bench::commandLine(
        argc, argv, "compare_runs [ENTRIES]",
        "Compares two run time reports of ENTRIES entries (default 1,000,000; written once to\n"
        "/tmp by make_large_report) and prints the time against the 3 s target.",
        0, 1);
    const long entries =
        args.empty() ? 1000000 : trainscope::bench::positiveArgument(args[0], "ENTRIES");
    const std::string base = largeReport(entries, 2026);
    const std::string rerun = largeReport(entries, 7);
    try {
        const auto start = std::chrono::steady_clock::now();
        const trainscope::Comparison comparison = trainscope::compareRuns(
            trainscope::findRunReports(base), trainscope::findRunReports(rerun));
        const auto violations = trainscope::gateViolations(comparison, trainscope::GateLimits{});
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf(
            "%ld entries each: %lld operations matched, %lld added, %lld removed, %zu "
            "items, %zu over the default limits; peak memory %.0f MiB\n",
            entries, static_cast<long long>(comparison.matched_operations),
            static_cast<long long>(comparison.added_operations),
            static_cast<long long>(comparison.removed_operations), comparison.items.size(),
            violations.size(), trainscope::bench::peakResidentMiB());
        const bool met = trainscope::bench::report("compare two run time reports", seconds, "s",
                                                   3.0, "< 3 s for 1,000,000 entries each");
        std::printf("ratio to the target: %.2f\n", seconds / 3.0);
        return met ? 0 : 1;
    } catch (const trainscope::Error& e) {
        std::fprintf(stderr, "compare_runs: %s\n", e.what());
        return 1;
    }
}
