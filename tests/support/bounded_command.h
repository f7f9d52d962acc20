// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdlib>
#include <string>

namespace trainscope::test {

// A test's shell command bounded in time: `timeout` ends it past its limit (exit status 124,
// then SIGKILL ten seconds on), so that a hang fails its test with the command named instead
// of holding the suite until CTest's limit for the whole test binary.
// TRAINSCOPE_TEST_SUBPROCESS_LIMIT (seconds) scales the limit, as for the Python tests.
inline std::string bounded(const std::string& command) {
    const char* limit = std::getenv("TRAINSCOPE_TEST_SUBPROCESS_LIMIT");
    std::string quoted = "'";
    for (const char c : command)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return "timeout -k 10 " + std::string(limit && *limit ? limit : "300") + " sh -c " + quoted +
           "'";
}

}  // namespace trainscope::test
