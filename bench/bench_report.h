// How every benchmark prints a figure against its target (plain C++, no LibTorch or Qt).
#pragma once

#include <string>

namespace trainscope::bench {

// Prints "name: value (target ...): met|MISSED" and returns whether value <= limit.
bool report(const std::string& name, double value, const std::string& unit, double limit,
            const std::string& target);

// Peak resident memory of this process so far (VmHWM), in MiB; -1 when unknown.
double peakResidentMiB();

}  // namespace trainscope::bench
