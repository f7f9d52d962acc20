// SPDX-License-Identifier: Apache-2.0
// The comparison gate on live runs, as a CI job uses it: how often a rerun of the same
// configuration passes the default gate, and how often a wider MLP is flagged in its linear
// layers' forward time. The tests judge the gate only on known times (a live verdict on a
// shared machine is a matter of luck); this prints what the live one does, over N tries each.
//
// Each try profiles its pair back to back with trainscope-cli, each run a process of its own,
// with one intra-op thread, as docs/comparison.md advises for a gate:
//   rerun:  the MLP at d_model 256 (input 2x512x256, 5 warm-up and 20 measured iterations),
//           twice;
//   wider:  the MLP at d_model 256, then at 512 (its default input 2x1024xd, 1 warm-up and 3
//           measured iterations): four times the multiply-adds in each linear layer.
//
//   compare_gate [TRIES]
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_report.h"
#include "trainscope/comparison.h"
#include "trainscope/error.h"

namespace {

namespace fs = std::filesystem;

void profile(const std::string& arguments, const std::string& output) {
    const std::string command = "OMP_NUM_THREADS=1 " + std::string(TRAINSCOPE_CLI) +
                                " profile -q -f --model builtin:mlp " + arguments + " -o " +
                                output + " >/dev/null";
    if (std::system(command.c_str()) != 0) {
        std::fprintf(stderr, "compare_gate: failed: %s\n", command.c_str());
        std::exit(1);
    }
}

std::vector<trainscope::GateViolation> violations(const std::string& base,
                                                  const std::string& changed,
                                                  trainscope::Comparison& comparison) {
    comparison = trainscope::compareRuns(trainscope::findRunReports(base),
                                         trainscope::findRunReports(changed));
    return trainscope::gateViolations(comparison, trainscope::GateLimits{});
}

bool linearForwardFlagged(const std::vector<trainscope::GateViolation>& found) {
    int linear = 0;
    for (const trainscope::GateViolation& v : found)
        if (v.item->operation == "aten::linear" &&
            v.change.figure == trainscope::Figure::ForwardTime)
            ++linear;
    return linear == 2;  // lin_0 and lin_1
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args = trainscope::bench::commandLine(
        argc, argv, "compare_gate [TRIES]",
        "Profiles TRIES (default 10) rerun pairs of the built-in MLP and TRIES pairs of it at\n"
        "two widths with trainscope-cli, compares each pair with the default gate, and prints\n"
        "how many reruns passed and how many wider runs were flagged in their linear layers'\n"
        "forward time, against the target of all of them.",
        0, 1);
    const long tries = args.empty() ? 10 : trainscope::bench::positiveArgument(args[0], "TRIES");
    const fs::path dir = fs::temp_directory_path() / "trainscope-compare-gate";
    fs::create_directories(dir);
    const std::string base = (dir / "base").string(), other = (dir / "other").string();
    long passed = 0, flagged = 0;
    try {
        for (long attempt = 1; attempt <= tries; ++attempt) {
            trainscope::Comparison c;
            const std::string rerun =
                "--param d_model=256 --input 2x512x256 --warmup 5 --iterations 20";
            profile(rerun, base);
            profile(rerun, other);
            const auto rerun_found = violations(base, other, c);
            passed += rerun_found.empty();
            std::printf("try %ld: rerun %s", attempt, rerun_found.empty() ? "passed" : "flagged:");
            for (const trainscope::GateViolation& v : rerun_found)
                std::printf(" %s %s;", v.item->name.c_str(),
                            trainscope::figureKey(v.change.figure));

            profile("--param d_model=256 --warmup 1 --iterations 3", base);
            profile("--param d_model=512 --warmup 1 --iterations 3", other);
            const bool wider_flagged = linearForwardFlagged(violations(base, other, c));
            flagged += wider_flagged;
            std::printf("; wider MLP %s\n", wider_flagged ? "flagged in both linear layers"
                                                          : "NOT flagged in both linear layers");
        }
    } catch (const trainscope::Error& e) {
        std::fprintf(stderr, "compare_gate: %s\n", e.what());
        return 1;
    }
    fs::remove_all(dir);
    std::printf("reruns that passed the default gate: %ld of %ld\n", passed, tries);
    std::printf("wider MLPs flagged in their linear layers' forward time: %ld of %ld\n", flagged,
                tries);
    const bool reruns_met = trainscope::bench::report(
        "reruns failing the gate", double(tries - passed), "", 0.0, "none of them");
    const bool wider_met = trainscope::bench::report(
        "wider MLPs not flagged", double(tries - flagged), "", 0.0, "none of them");
    return reruns_met && wider_met ? 0 : 1;
}
