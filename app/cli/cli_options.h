// The command line of trainscope-cli, parsed into what to run.
#pragma once

#include <string>

#include "trainscope/run_config.h"

namespace trainscope::cli {

enum class Command { Memory, Time, Timeline, Profile, Models, Help, Version };

struct CliOptions {
    Command command = Command::Help;
    RunConfig config;
    std::string output;  // a file (memory, time, timeline) or a prefix (profile)
    bool force = false;
    bool quiet = false;
};

// Throws trainscope::Error (a usage error) with a one-line message.
CliOptions parseCommandLine(int argc, const char* const* argv);

std::string usage();

}  // namespace trainscope::cli
