// SPDX-License-Identifier: Apache-2.0
// What `trainscope-cli sweep` prints: each batch size measured beside the prediction at it, the
// fitted lines with their quality, the budget and the largest batch within it (and, verified,
// how far the prediction was off).
#pragma once

#include <ostream>

#include "trainscope/sweep.h"

namespace trainscope::cli {

void printSweep(std::ostream& out, const SweepReport& report);

}  // namespace trainscope::cli
