// SPDX-License-Identifier: Apache-2.0
// Reports and parameters read and write numbers the same under any C locale: the app runs with
// the user's (Qt sets it), and the Python host in a process whose script may set one. Under
// German, "%f" writes 12,500000 and strtod stops at the dot.
#include <gtest/gtest.h>

#include <clocale>
#include <filesystem>

#include "support/report_reader.h"
#include "trainscope/builtin_models.h"
#include "trainscope/imported_file.h"
#include "trainscope/report_format.h"
#include "trainscope/report_reading.h"
#include "trainscope/report_writer.h"

namespace fs = std::filesystem;
using namespace trainscope;

namespace {

// The tests' German locale (tools/install-debian-deps makes it); restored to "C" at the end.
class GermanNumbers : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_NE(std::setlocale(LC_ALL, "de_DE.UTF-8"), nullptr)
            << "no de_DE.UTF-8 locale: tools/install-debian-deps generates it";
        char text[16];
        std::snprintf(text, sizeof text, "%.1f", 0.5);
        ASSERT_STREQ(text, "0,5") << "the locale does not write a decimal comma";
        dir_ = test::makeTempDir();
    }
    void TearDown() override {
        std::setlocale(LC_ALL, "C");
        fs::remove_all(dir_);
    }
    std::string dir_;
};

}  // namespace

TEST_F(GermanNumbers, ARunTimeReportsIterationTimeIsWrittenWithADecimalPoint) {
    TimeReport report;
    report.entries = {{"aten::linear", 1.0, 1.0, {}, ""}};
    report.iteration_ms = 12.5;
    report.iteration_spread = {12.25, 13.75};
    const std::string path = (fs::path(dir_) / "run.time.sqlite").string();
    writeTimeReport(report, path, Overwrite::Refuse);
    test::ReportReader reader(path);
    auto value = [&](const char* key) {
        return reader.scalar(std::string("SELECT value FROM trainscope_metadata WHERE key = '") +
                             key + "'");
    };
    EXPECT_EQ(value(report_format::kIterationMsKey), "12.5");
    EXPECT_EQ(value(report_format::kIterationMinMsKey), "12.25");
    EXPECT_EQ(value(report_format::kIterationMaxMsKey), "13.75");
}

TEST_F(GermanNumbers, ARunTimeReportKeepsTheIterationTimeTheRunToldToTheBit) {
    // Six fixed decimals kept a step of 0.4467215 ms as 0.446721: the figures a run told and
    // those read back from its files differed.
    TimeReport report;
    report.entries = {{"aten::linear", 1.0, 1.0, {}, ""}};
    report.iteration_ms = 0.4467215;
    report.iteration_spread = {1e-9, 1.0 / 3.0};
    const std::string path = (fs::path(dir_) / "run.time.sqlite").string();
    writeTimeReport(report, path, Overwrite::Refuse);
    EXPECT_EQ(summarizeReportFile(path).iteration_wall_ms, 0.4467215);
    test::ReportReader reader(path);
    auto value = [&](const char* key) {
        return std::stod(reader.scalar(
            std::string("SELECT value FROM trainscope_metadata WHERE key = '") + key + "'"));
    };
    std::setlocale(LC_ALL, "C");  // for std::stod
    EXPECT_EQ(value(report_format::kIterationMinMsKey), 1e-9);
    EXPECT_EQ(value(report_format::kIterationMaxMsKey), 1.0 / 3.0);
}

TEST_F(GermanNumbers, AProbabilityParameterIsReadWithADecimalPoint) {
    BuiltinParameter dropout;
    dropout.kind = ParamKind::Probability;
    EXPECT_EQ(checkParameterValue(dropout, "0.1"), "");
    EXPECT_NE(checkParameterValue(dropout, "0,1"), "");
}

// A trace's times are read as JSON writes them under the app's German locale: an intact V100
// trace was refused in German ("a time that is not a number") where its times went to strtod.
TEST_F(GermanNumbers, ATracesTimesAreReadWithADecimalPoint) {
    const ImportedRun run = importBytes(
        R"({"schemaVersion": 1, "traceEvents": [
            {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
             "ts": 1712195495519689.047, "dur": 2.5},
            {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1,
             "ts": 1.7121954955197e15, "dur": 2.5e-1}]})",
        "v100.json");
    ASSERT_EQ(run.timeline.calls.size(), 2u);
    EXPECT_EQ(run.timeline.calls[0].end_ns - run.timeline.calls[0].start_ns, 2500);
    EXPECT_EQ(run.timeline.calls[1].start_ns - run.timeline.calls[0].start_ns, 10'953);
    EXPECT_EQ(run.timeline.calls[1].end_ns - run.timeline.calls[1].start_ns, 250);
}
