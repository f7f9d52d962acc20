// SPDX-License-Identifier: Apache-2.0
// What `trainscope-cli show` prints for one report file: exact figures first (as sqlite3 would
// compute them from the file), readable units after.
#pragma once

#include <ostream>
#include <string>

#include "trainscope/report_reading.h"

namespace trainscope::cli {

void printFileSummary(std::ostream& out, const std::string& path, const ReportFileSummary& s);

}  // namespace trainscope::cli
