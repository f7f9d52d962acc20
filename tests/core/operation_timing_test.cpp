// SPDX-License-Identifier: Apache-2.0
// Run time entries: one per top-level operation invocation, backward nodes linked to the
// forward operation that created them.
#include <gtest/gtest.h>

#include "support/toynet.h"
#include "trainscope/error.h"
#include "trainscope/profiler.h"

using namespace trainscope;

namespace {

RunConfig toynet() {
    return test::toynetConfig(TOYNET_PROJECT, 3);
}

std::vector<std::string> namesOf(const TimeReport& report) {
    std::vector<std::string> names;
    for (const RunTimeEntry& entry : report.entries)
        names.push_back(entry.operation_name);
    return names;
}

}  // namespace

TEST(OperationTiming, OneEntryPerTopLevelOperationOfTheMlp) {
    RunConfig config;
    config.model = "builtin:mlp";
    config.params = {{"d_model", "64"}, {"act", "gelu"}};
    config.inputs = {parseInputSpec("4x32x64")};
    const TimeReport report = Profiler(config).measureTime();
    // Nested aten::t / aten::addmm / aten::matmul count toward aten::linear; the loss is last.
    EXPECT_EQ(namesOf(report), (std::vector<std::string>{"aten::linear", "aten::gelu",
                                                         "aten::linear", "aten::sum"}));
    for (const RunTimeEntry& entry : report.entries) {
        EXPECT_GT(entry.forward_ms, 0.0) << entry.operation_name;
        ASSERT_TRUE(entry.backward_ms.has_value()) << entry.operation_name;
        EXPECT_GT(*entry.backward_ms, 0.0) << entry.operation_name;
    }
    EXPECT_GT(report.iteration_ms, report.partTimes().forward_ms);
}

TEST(OperationTiming, BackwardIsNullForOperationsAutogradDoesNotDifferentiate) {
    const TimeReport report = Profiler(toynet()).measureTime();
    // Two blocks of linear, gelu, mul, linear, add; then zeros_like, add, linear, relu; the loss.
    const std::vector<std::string> block = {"aten::linear", "aten::gelu", "aten::mul",
                                            "aten::linear", "aten::add"};
    std::vector<std::string> expected = block;
    expected.insert(expected.end(), block.begin(), block.end());
    expected.insert(expected.end(),
                    {"aten::zeros_like", "aten::add", "aten::linear", "aten::relu", "aten::sum"});
    ASSERT_EQ(namesOf(report), expected);
    for (const RunTimeEntry& entry : report.entries) {
        if (entry.operation_name == "aten::zeros_like") {
            EXPECT_FALSE(entry.backward_ms.has_value());
        } else {
            EXPECT_TRUE(entry.backward_ms.has_value()) << entry.operation_name;
        }
    }
}

TEST(OperationTiming, WrongInputShapeIsAClearError) {
    RunConfig config = toynet();
    config.inputs = {parseInputSpec("8x31")};
    try {
        Profiler(config).measureTime();
        FAIL() << "expected an error";
    } catch (const Error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("shapes cannot be multiplied"), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

TEST(OperationTiming, CancelStopsTheRun) {
    std::atomic<bool> cancel{false};
    int seen = 0;
    Profiler profiler(
        toynet(), [&](const Progress&) { cancel = ++seen >= 2; }, &cancel);
    EXPECT_THROW(profiler.measureTime(), Cancelled);
}
