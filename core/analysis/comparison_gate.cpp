// SPDX-License-Identifier: Apache-2.0
// The CI gate over a comparison (trainscope/comparison.h): the increases beyond the noise and
// beyond the limits.
#include "trainscope/comparison.h"

namespace trainscope {

std::vector<GateViolation> gateViolations(const Comparison& comparison, const GateLimits& limits) {
    std::vector<GateViolation> violations;
    for (const ComparedItem& item : comparison.items) {
        if (item.presence != Presence::Both) {
            continue;
        }
        for (const FigureChange& f : item.figures) {
            const std::optional<double> percent = f.percent();
            const double limit =
                isTime(f.figure) ? limits.max_time_increase_pct : limits.max_memory_increase_pct;
            if (percent && f.delta() > 0 && f.significant() && *percent > limit) {
                violations.push_back({&item, f});
            }
        }
    }
    return violations;
}

}  // namespace trainscope
