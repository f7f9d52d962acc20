// SPDX-License-Identifier: Apache-2.0
#include "bench_report.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace trainscope::bench {

bool report(const std::string& name, double value, const std::string& unit, double limit,
            const std::string& target) {
    const bool met = value <= limit;
    std::printf("%-58s %10.4f %-3s (target %s): %s\n", name.c_str(), value, unit.c_str(),
                target.c_str(), met ? "met" : "MISSED");
    return met;
}

namespace {

// The number after `key` in the first line of the /proc file `path` that starts with it
// ("VmHWM:   123456 kB", "read_bytes: 123456"); -1 when there is none.
double procFigure(const char* path, const std::string& key) {
    std::ifstream file(path);
    for (std::string line; std::getline(file, line);) {
        if (line.rfind(key, 0) == 0)
            return std::stod(line.substr(key.size()));
    }
    return -1;
}

}  // namespace

double peakResidentMiB() {
    const double kib = procFigure("/proc/self/status", "VmHWM:");
    return kib < 0 ? -1 : kib / 1024.0;
}

double diskReadMiB() {
    const double bytes = procFigure("/proc/self/io", "read_bytes:");
    return bytes < 0 ? -1 : bytes / 1048576.0;
}

std::vector<std::string> commandLine(int argc, char** argv, const char* usage, const char* about,
                                     size_t min_positional, size_t max_positional,
                                     const std::vector<std::string>& flags) {
    std::vector<std::string> arguments(argv + 1, argv + argc);
    size_t positional = 0;
    for (const std::string& argument : arguments) {
        if (argument == "--help" || argument == "-h") {
            std::printf("usage: %s\n\n%s\n", usage, about);
            std::exit(0);
        }
        const bool flag = argument.size() > 1 && argument[0] == '-';
        bool known = false;
        for (const std::string& f : flags)
            known = known || f == argument;
        if (flag && !known) {
            std::fprintf(stderr, "%s: unknown option %s\nusage: %s\n", argv[0], argument.c_str(),
                         usage);
            std::exit(2);
        }
        positional += flag ? 0 : 1;
    }
    if (positional < min_positional || positional > max_positional) {
        std::fprintf(stderr, "usage: %s\n", usage);
        std::exit(2);
    }
    return arguments;
}

long wholeArgument(const std::string& text, const char* what, long at_least) {
    char* end = nullptr;
    errno = 0;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || value < at_least) {
        std::fprintf(stderr, "%s must be a whole number of at least %ld, not '%s'\n", what,
                     at_least, text.c_str());
        std::exit(2);
    }
    return value;
}

long positiveArgument(const std::string& text, const char* what) {
    return wholeArgument(text, what, 1);
}

}  // namespace trainscope::bench
