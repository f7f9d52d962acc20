#include "bench_report.h"

#include <cstdio>
#include <fstream>

namespace trainscope::bench {

bool report(const std::string& name, double value, const std::string& unit, double limit,
            const std::string& target) {
    const bool met = value <= limit;
    std::printf("%-58s %10.4f %-3s (target %s): %s\n", name.c_str(), value, unit.c_str(),
                target.c_str(), met ? "met" : "MISSED");
    return met;
}

double peakResidentMiB() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;  // "VmHWM:   123456 kB"
    }
    return -1;
}

}  // namespace trainscope::bench
