// SPDX-License-Identifier: Apache-2.0
// trainscope-cli's exit codes (its --help and the README say what each means).
#pragma once

namespace trainscope::cli {

constexpr int kRunFailed = 1;
constexpr int kUsageError = 2;
constexpr int kLimitExceeded = 1;  // compare
constexpr int kCannotCompare = 2;

}  // namespace trainscope::cli
