// SPDX-License-Identifier: Apache-2.0
// The built-in transformer at a size that profiles in a second: what the timeline tests run.
#pragma once

#include <string>

#include "trainscope/run.h"

namespace trainscope::test {

// All three reports under PREFIX (.memory/.time/.timeline.sqlite), one warm-up, one iteration.
inline RunPlan smallTransformerPlan(const std::string& prefix) {
    RunPlan plan;
    plan.config.model = "builtin:transformer";
    plan.config.params = {
        {"d_model", "32"}, {"n_heads", "2"}, {"n_layers", "2"}, {"vocab", "64"}, {"seq_len", "16"}};
    plan.config.inputs = {parseInputSpec("2x16:int64:64")};
    plan.config.warmup = 1;
    plan.config.iterations = 1;
    plan.output = prefix;
    return plan;
}

}  // namespace trainscope::test
