// SPDX-License-Identifier: Apache-2.0
// Test helper: a run of the toy project's archive (tests/fixtures/make_fixture.py), whose
// stack frames point into tests/fixtures/toyproject.
#pragma once

#include <string>

#include "trainscope/run_config.h"

namespace trainscope::test {

inline RunConfig toynetConfig(const std::string& project_root, int iterations) {
    RunConfig config;
    config.model = TOYNET_ARCHIVE;
    config.inputs = {parseInputSpec("8x32")};
    config.project_root = project_root;
    config.warmup = 1;
    config.iterations = iterations;
    return config;
}

}  // namespace trainscope::test
