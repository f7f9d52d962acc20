// SPDX-License-Identifier: Apache-2.0
// The command line of trainscope-cli, parsed into what to run.
#pragma once

#include <string>
#include <vector>

#include "trainscope/run_config.h"

namespace trainscope::cli {

enum class Command { Memory, Time, Timeline, Profile, Show, Export, Models, Help, Version };

struct CliOptions {
    Command command = Command::Help;
    RunConfig config;
    std::string output;              // a file (memory, time, timeline) or a prefix (profile)
    std::vector<std::string> files;  // the reports to show or export
    std::string chrome_trace;        // export: the JSON file to write
    bool force = false;
    bool quiet = false;
};

// Throws trainscope::Error (a usage error) with a one-line message.
CliOptions parseCommandLine(int argc, const char* const* argv);

std::string usage();

}  // namespace trainscope::cli
