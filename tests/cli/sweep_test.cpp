// SPDX-License-Identifier: Apache-2.0
// `trainscope-cli sweep` as a user runs it: the table of measured and predicted figures, the
// largest batch and its verification, and one line for bad input.
#include <gtest/gtest.h>

#include "cli/cli_fixture.h"

using namespace trainscope::test;

namespace {

class Sweep : public Cli {};

const char* kSmallMlpSweep =
    "sweep -q --model builtin:mlp --param d_model=64 --input 2x64x64 --warmup 1 --iterations 3 ";

TEST_F(Sweep, PrintsTheMeasuredAndPredictedFiguresAndTheLargestBatch) {
    const Result swept = run(std::string(kSmallMlpSweep) +
                             "--batch-sizes 1,2,4 --memory-budget 16MiB --verify -o s");
    ASSERT_EQ(swept.exit_code, 0) << swept.err;
    EXPECT_EQ(swept.err, "");
    for (const char* expected :
         {"Batch sizes measured:", "Lines fitted to 3 batch sizes:",
          "Memory budget: 16.0 MiB (16777216 bytes, --memory-budget)",
          "Largest batch within it: ", "Verified at batch ", "Wrote s.sweep.sqlite"}) {
        EXPECT_NE(swept.out.find(expected), std::string::npos) << expected << "\n" << swept.out;
    }
    ReportReader report(work("s.sweep.sqlite"));
    EXPECT_EQ(report.scalar("SELECT COUNT(*) FROM trainscope_sweep_points"), "4");
    EXPECT_EQ(report.scalar("SELECT value FROM trainscope_metadata WHERE key = 'budget_bytes'"),
              "16777216");
    // `show` prints the sweep's table as the sweep did; `compare` says how sweeps compare.
    const Result shown = run("show s.sweep.sqlite");
    ASSERT_EQ(shown.exit_code, 0) << shown.err;
    EXPECT_NE(shown.out.find("s.sweep.sqlite: batch-size sweep\nBatch sizes measured:"),
              std::string::npos)
        << shown.out;
    EXPECT_NE(shown.out.find("Largest batch within it: "), std::string::npos) << shown.out;
    const Result compared = run("compare s.sweep.sqlite s.sweep.sqlite");
    EXPECT_EQ(compared.exit_code, 2);
    EXPECT_NE(compared.err.find("a batch-size sweep, not a run's report"), std::string::npos)
        << compared.err;
    // The same prefix again is refused, as every report is, unless --force.
    const Result again =
        run(std::string(kSmallMlpSweep) + "--batch-sizes 1,2 --memory-budget 16MiB -o s");
    EXPECT_EQ(again.exit_code, 1);
    EXPECT_NE(again.err.find("exists"), std::string::npos) << again.err;
}

TEST_F(Sweep, BadInputGetsOneLine) {
    expectCleanFailure(std::string(kSmallMlpSweep) + "--batch-sizes 4,0 -o s", "--batch-sizes");
    expectCleanFailure(std::string(kSmallMlpSweep) + "--batch-sizes 4 -o s", "two or more");
    expectCleanFailure(std::string(kSmallMlpSweep) + "--memory-budget 12parsecs -o s",
                       "--memory-budget");
    expectCleanFailure(std::string(kSmallMlpSweep) + "--batch-sizes 1,2 --memory-budget 1KiB -o s",
                       "smaller than the model's weights");
    expectCleanFailure("compare --verify a b", "unknown option '--verify'");
}

}  // namespace
