// SPDX-License-Identifier: Apache-2.0
// How every benchmark prints a figure against its target, and reads its command line (plain
// C++, no LibTorch or Qt).
#pragma once

#include <string>
#include <vector>

namespace trainscope::bench {

// Prints "name: value (target ...): met|MISSED" and returns whether value <= limit.
bool report(const std::string& name, double value, const std::string& unit, double limit,
            const std::string& target);

// Peak resident memory of this process so far (VmHWM), in MiB; -1 when unknown.
double peakResidentMiB();

// What this process's threads have read from the disk so far (read_bytes of /proc/self/io, which
// a page-cache hit does not count), in MiB; -1 when unknown.
double diskReadMiB();

// A benchmark's or generator's command line. `--help` (or -h) prints `usage` and what the
// program does (`about`) and ends it with 0, before it does anything else; an option that is
// not in `flags`, or fewer than `min_positional` or more than `max_positional` other arguments,
// prints the usage to stderr and ends it with 2. Returns the arguments after the program name.
std::vector<std::string> commandLine(int argc, char** argv, const char* usage, const char* about,
                                     size_t min_positional, size_t max_positional,
                                     const std::vector<std::string>& flags = {});
// A whole number >= 1 given as an argument; otherwise says so and ends the program with 2.
long positiveArgument(const std::string& text, const char* what);
// A whole number >= at_least, likewise.
long wholeArgument(const std::string& text, const char* what, long at_least);

}  // namespace trainscope::bench
