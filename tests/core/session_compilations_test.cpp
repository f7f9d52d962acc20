// SPDX-License-Identifier: Apache-2.0
// torch.compile's compilations in a session's reports (a host tells the session of them): each
// is placed in the step it ran in by its time, and a timed step that compiled is left out of
// the times, since its time holds the compilation. The compilations' times are the test's own.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <chrono>

#include "trainscope/report_format.h"
#include "trainscope/session.h"

using namespace trainscope;

namespace {

int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

Compilation compilation(const std::string& id, int64_t start_ns, int64_t end_ns,
                        const std::string& again = {}) {
    return {id, "forward", "forward", "train.py", 3, start_ns, end_ns, -1, {}, again};
}

}  // namespace

TEST(SessionCompilations, EachIsInItsStepAndATimedStepThatCompiledIsLeftOutOfTheTimes) {
    Session session(SessionOptions{});
    const torch::Tensor weight = torch::randn({8, 8}, torch::requires_grad());
    std::vector<std::pair<int64_t, int64_t>> inside;  // a span within each step
    for (int step = 0; step < 3; ++step) {
        session.beginStep();
        const int64_t start = nowNs();
        torch::matmul(torch::randn({4, 8}), weight).sum().backward();
        inside.push_back({start, nowNs()});
        session.endStep();
    }
    const int64_t before = inside[0].first - 2'000'000;
    session.addCompilations({compilation("0/0", before, before + 1'000'000),
                             compilation("0/1", inside[2].first, inside[2].second, "a guard")});
    const SessionReports reports = session.assemble();

    const std::vector<Compilation>& listed = reports.time.compilations;
    ASSERT_EQ(listed.size(), 2u);
    EXPECT_EQ(listed[0].step, 0);  // before the first observed step: the warm-up
    ASSERT_EQ(reports.timeline.steps.size(), 3u);
    EXPECT_EQ(listed[1].step, reports.timeline.steps[2].id);
    EXPECT_EQ(listed[1].recompiled_because, "a guard");
    // Two timed steps, one of which compiled: the times are the other's.
    EXPECT_EQ(reports.time.metadata.at("timed_steps"), "1");
    EXPECT_EQ(reports.time.metadata.at(report_format::kCompiledStepsKey),
              "torch.compile compiled in observed steps (" +
                  std::to_string(reports.timeline.steps[2].id) +
                  "); the timed steps that compiled are left out of the times");
}

TEST(SessionCompilations, WithoutCompilationsTheReportSaysNothingOfThem) {
    Session session(SessionOptions{});
    const torch::Tensor weight = torch::randn({8, 8}, torch::requires_grad());
    for (int step = 0; step < 2; ++step) {
        session.beginStep();
        torch::matmul(torch::randn({4, 8}), weight).sum().backward();
        session.endStep();
    }
    const SessionReports reports = session.assemble();
    EXPECT_TRUE(reports.time.compilations.empty());
    EXPECT_EQ(reports.time.metadata.count(report_format::kCompiledStepsKey), 0u);
    EXPECT_EQ(reports.time.metadata.at("timed_steps"), "1");
}
