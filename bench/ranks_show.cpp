// SPDX-License-Identifier: Apache-2.0
// The command line's target (issue 75): `trainscope-cli show` of a job's timelines, one per
// rank (8 ranks of 1,000,000 calls; 64 of 100,000), in <= 3 s and <= 1 GB of resident memory.
// The timelines are those of bench/job_timelines.h.
// `show` runs as a user runs it, its output discarded; wall time and the child's peak resident
// memory (wait4's ru_maxrss) are measured around it, three times. One rank alone is timed too:
// at its rate, the ranks spread over the machine's cores give what reading the files costs.
//
//   ranks_show [RANKS [CALLS]]     default 8 1000000
#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "bench_report.h"
#include "job_timelines.h"

namespace {

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args = trainscope::bench::commandLine(
        argc, argv, "ranks_show [RANKS [CALLS]]",
        "Times `trainscope-cli show` of RANKS timelines of CALLS calls each (default 8 and\n"
        "1,000,000; written once into /tmp/trainscope-ranks-RANKSxCALLS/) and prints its\n"
        "peak resident memory, against <= 3 s and <= 1 GB.",
        0, 2);
    const long ranks = args.size() > 0 ? trainscope::bench::positiveArgument(args[0], "RANKS") : 8;
    const long calls =
        args.size() > 1 ? trainscope::bench::positiveArgument(args[1], "CALLS") : 1000000;
    if (ranks < 2) {
        std::fprintf(stderr,
                     "RANKS must be at least 2 (a job of one rank has no ranks' summary)\n");
        return 2;
    }
    const std::vector<std::string> files =
        trainscope::bench::jobTimelines(ranks, calls, TRAINSCOPE_MAKE_LARGE_TIMELINE);
    if (files.empty())
        return 1;
    using trainscope::bench::Measured;
    using trainscope::bench::runQuietly;

    std::vector<std::string> show = {TRAINSCOPE_CLI, "show"};
    show.insert(show.end(), files.begin(), files.end());
    std::vector<double> seconds, one_rank, start;
    double peak_mb = 0;
    for (int run = 0; run < 3; ++run) {
        const Measured m = runQuietly(show);
        if (m.status != 0) {
            std::fprintf(stderr, "ranks_show: trainscope-cli show ended with %d\n", m.status);
            return 1;
        }
        seconds.push_back(m.seconds);
        peak_mb = std::max(peak_mb, m.peak_mb);
        one_rank.push_back(runQuietly({TRAINSCOPE_CLI, "show", files[0]}).seconds);
        start.push_back(runQuietly({TRAINSCOPE_CLI, "--help"}).seconds);
    }
    const double all_s = median(seconds), start_s = median(start);
    const double per_file_s = median(one_rank) - start_s;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::printf(
        "show of the %ld ranks: %.2f s (median of 3; %.2f to %.2f), peak resident %.0f MB\n", ranks,
        all_s, *std::min_element(seconds.begin(), seconds.end()),
        *std::max_element(seconds.begin(), seconds.end()), peak_mb);
    std::printf(
        "the program's start (--help): %.2f s; one rank's file: %.2f s more (its summary's scans "
        "kept "
        "in it, its calls read for its rank's figures); %ld files side by side on %u cores: %.2f "
        "s\n",
        start_s, per_file_s, ranks, cores, start_s + per_file_s * double(ranks) / cores);
    bool met = trainscope::bench::report("show of every rank", all_s, "s", 3.0, "<= 3 s");
    std::printf("  ratio to target: %.2f\n", all_s / 3.0);
    met &=
        trainscope::bench::report("peak resident memory of show", peak_mb, "MB", 1000.0, "<= 1 GB");
    std::printf("  ratio to target: %.2f\n", peak_mb / 1000.0);
    return met ? 0 : 1;
}
