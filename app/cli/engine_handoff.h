// SPDX-License-Identifier: Apache-2.0
// The commands that run a model are the engine's (trainscope-cli-engine, linked with LibTorch):
// trainscope-cli replaces itself with it, arguments unchanged, so that its exit code, output and
// signals are the engine's. It lies beside trainscope-cli in the build tree and under
// libexec/trainscope/ of the installed prefix.
#pragma once

namespace trainscope::cli {

// Execs the engine with `argv`; returns (with a one-line message on stderr and exit code 1)
// only when it cannot be found or started.
int handOverToEngine(char** argv);

}  // namespace trainscope::cli
