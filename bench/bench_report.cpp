#include "bench_report.h"

#include <cstdio>

namespace trainscope::bench {

bool report(const std::string& name, double value, const std::string& unit, double limit,
            const std::string& target) {
    const bool met = value <= limit;
    std::printf("%-58s %10.4f %-3s (target %s): %s\n", name.c_str(), value, unit.c_str(),
                target.c_str(), met ? "met" : "MISSED");
    return met;
}

}  // namespace trainscope::bench
