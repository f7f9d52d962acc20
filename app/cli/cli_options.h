// SPDX-License-Identifier: Apache-2.0
// The command line of trainscope-cli, parsed into what to run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "trainscope/comparison.h"
#include "trainscope/run_config.h"

namespace trainscope::cli {

enum class Command {
    Memory,
    Time,
    Timeline,
    Profile,
    Show,
    Export,
    Import,
    Compare,
    Sweep,
    Models,
    Help,
    Version
};

enum class CompareFormat { Text, Json, Markdown };

struct CliOptions {
    Command command = Command::Help;
    RunConfig config;
    std::string output;              // a file (memory, time, timeline) or a prefix (profile)
    std::vector<std::string> files;  // the reports to show or export; compare: BASE and NEW
    std::string chrome_trace;        // export: the JSON file to write
    // compare: the gate's limits, the output, and how many items of each kind it lists (0: all)
    GateLimits limits;
    CompareFormat format = CompareFormat::Text;
    int top = -1;  // -1: the format's default (text and markdown 10, JSON all)
    // sweep: the batch sizes (empty: three around the configured one), the memory budget
    // (empty: the device's), and whether to measure the predicted largest batch
    std::vector<int64_t> batch_sizes;
    std::optional<int64_t> memory_budget;
    bool verify = false;
    bool force = false;
    bool quiet = false;
};

// Throws trainscope::Error (a usage error) with a one-line message.
CliOptions parseCommandLine(int argc, const char* const* argv);
// The same, a usage error said on stderr ("trainscope-cli: error: ...") and nothing returned:
// the program then exits with kUsageError.
std::optional<CliOptions> parseCommandLineOrSay(int argc, const char* const* argv);

std::string usage();

}  // namespace trainscope::cli
