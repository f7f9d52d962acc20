// SPDX-License-Identifier: Apache-2.0
// A job's large timelines, one per rank, for the ranks' benchmarks (ranks_show, ranks_view):
// written once by make_large_timeline (the engine's writer; each rank its own durations and
// eight all-reduces) into /tmp/trainscope-ranks-RANKSxCALLS/, and a program run as a user runs
// it, measured from outside.
#pragma once

#include <string>
#include <vector>

namespace trainscope::bench {

struct Measured {
    double seconds = 0;
    double peak_mb = 0;  // the child's peak resident memory (wait4's ru_maxrss)
    int status = -1;     // its exit status; 128 + the signal that ended it
};

// Runs `args` (the program first) with stdout and stderr to /dev/null.
Measured runQuietly(const std::vector<std::string>& args);

// The job's files, generated with `generator` where missing or older than it; empty (and a
// line on stderr) when one could not be written.
std::vector<std::string> jobTimelines(long ranks, long calls, const std::string& generator);

}  // namespace trainscope::bench
