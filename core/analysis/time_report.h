// SPDX-License-Identifier: Apache-2.0
// The run time report from the recorded steps: each operation's median times over the timed
// steps (those in which torch.compile compiled left out, unless all did), compiled kernels as
// rows of their own, the collectives, and notes on what the steps did differently.
#pragma once

#include <vector>

#include "records/recorded_steps.h"
#include "trainscope/reports.h"

namespace trainscope {

// `metadata`: the report's, to which its facts and notes are added. `activations`: the memory
// report's, renumbered as this report numbers its entries (a kernel's row moves the entries
// after it; `activation_kernels[i]` is activation i's kernel site, or -1).
TimeReport assembleTimeReport(const RecordedSteps& steps, RunMetadata metadata,
                              const std::vector<int>& activation_kernels,
                              std::vector<ActivationEntry>& activations);

// Every observed step's collectives, as the timeline lists them (the memory step's, then each
// timed step's).
std::vector<StepCollective> stepCollectives(const RecordedSteps& steps);

}  // namespace trainscope
