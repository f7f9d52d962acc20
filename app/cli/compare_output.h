// SPDX-License-Identifier: Apache-2.0
// What `trainscope-cli compare` prints: the comparison and the gate's verdict as text for a
// terminal, JSON for tools (its schema is in docs/comparison.md) or markdown for a merge
// request's comment.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_options.h"
#include "trainscope/comparison.h"

namespace trainscope::cli {

// `top`: how many items of each kind to list, by the size of their change (0: all).
void printComparison(std::ostream& out, CompareFormat format, const Comparison& comparison,
                     const GateLimits& limits, const std::vector<GateViolation>& violations,
                     int top);

// One line for an item over a limit: "operation lin_0 · aten::linear #1: forward_ms 1.200 ms ->
// 2.400 ms (+100.0%, limit 25%; base 1.150-1.250 ms, new 2.300-2.500 ms over the measured
// iterations)".
std::string violationLine(const GateViolation& violation, const GateLimits& limits);

}  // namespace trainscope::cli
