// SPDX-License-Identifier: Apache-2.0
// The advice report (PREFIX.advice.sqlite): what is written is read back as it was, its text is
// what `advise` and `show` print, and a damaged or foreign file is refused in one line.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <filesystem>
#include <sstream>

#include "support/report_reader.h"
#include "trainscope/advice_report.h"
#include "trainscope/advice_text.h"
#include "trainscope/error.h"

namespace trainscope {
namespace {

namespace fs = std::filesystem;

AdviceReport sample() {
    AdviceReport report;
    report.baseline = {20'986'904, 8'388'612, 13.4};
    WhatIf verified{
        "GELU -> ReLU", "act_fn", {19'938'328, 4'194'308, 13.4}, {}, "", "model.py", 24, {}};
    verified.measured = StepFigures{19'938'328, 4'194'308, 14.1};
    report.what_ifs.push_back(verified);
    report.what_ifs.push_back(
        {"checkpoint each block", "h", {15'000'000, 2'000'000, 16.0}, {}, "not asked", "", 0, {}});
    report.what_ifs.back().not_predicted = "the forward of h.0 run again in backward";
    report.metadata = {{"model", "entry.py:MLP"}};
    return report;
}

// Changes a written report as a damaged file or an older TrainScope's would differ.
void changeReport(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

class AdviceReportTest : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = test::makeTempDir(); }
    void TearDown() override { fs::remove_all(dir_); }
    std::string dir_;
};

TEST_F(AdviceReportTest, WhatIsWrittenIsReadBackAsItWas) {
    const std::string path = dir_ + "/run.advice.sqlite";
    writeAdviceReport(sample(), path, Overwrite::Refuse);
    ASSERT_TRUE(isAdviceReport(path));
    const AdviceReport read = readAdviceReport(path);
    EXPECT_EQ(read.baseline.peak_bytes, 20'986'904);
    EXPECT_EQ(read.baseline.activation_bytes, 8'388'612);
    EXPECT_DOUBLE_EQ(read.baseline.step_ms, 13.4);
    ASSERT_EQ(read.what_ifs.size(), 2u);
    EXPECT_EQ(read.what_ifs[0].change, "GELU -> ReLU");
    ASSERT_TRUE(read.what_ifs[0].measured);
    EXPECT_EQ(read.what_ifs[0].measured->peak_bytes, 19'938'328);
    EXPECT_DOUBLE_EQ(read.what_ifs[0].measured->step_ms, 14.1);
    EXPECT_FALSE(read.what_ifs[1].measured);
    EXPECT_EQ(read.what_ifs[1].why_not, "not asked");
    EXPECT_EQ(read.what_ifs[0].not_predicted, "");
    EXPECT_EQ(read.what_ifs[1].not_predicted, "the forward of h.0 run again in backward");
    EXPECT_EQ(read.metadata.at("model"), "entry.py:MLP");
    // Written once: a second write is refused without Overwrite::Allow.
    EXPECT_THROW(writeAdviceReport(sample(), path, Overwrite::Refuse), Error);

    std::ostringstream text;
    printAdvice(text, read);
    EXPECT_NE(text.str().find("GELU -> ReLU at act_fn:\n  peak         predicted 19.0 MiB    "
                              "measured 19.0 MiB    (exact)"),
              std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("(-4.96 %)"), std::string::npos) << text.str();  // 13.4 vs 14.1
    EXPECT_NE(text.str().find("  not run: not asked\n"), std::string::npos) << text.str();
    // What the prediction leaves out, said under its figures; nothing where nothing is.
    EXPECT_NE(text.str().find("  step         predicted 16.0 ms     \n  not predicted: the forward "
                              "of h.0 run again in backward\n"),
              std::string::npos)
        << text.str();
    EXPECT_EQ(text.str().find("not predicted:"), text.str().rfind("not predicted:"));
    // The line to change, read back and printed; none where none was found.
    EXPECT_EQ(read.what_ifs[0].source_file, "model.py");
    EXPECT_EQ(read.what_ifs[0].source_line, 24);
    EXPECT_EQ(read.what_ifs[1].source_file, "");
    EXPECT_NE(text.str().find("(-4.96 %)\n  your line: model.py:24\n"), std::string::npos)
        << text.str();
    EXPECT_EQ(text.str().find("your line", text.str().find("checkpoint each block")),
              std::string::npos)
        << text.str();
}

// The job over more ranks (and ZeRO-1) changes the collectives: its step time is not predicted,
// and the report and its text say so rather than give the step's own as a prediction.
TEST_F(AdviceReportTest, AStepTimeNotPredictedIsReadBackAndSaidSo) {
    AdviceReport report;
    report.baseline = {1'301'468, 115'336, 38.2};
    WhatIf job{"the job over 4 ranks", "rank 3", {962'180, 115'336, 0.0}, {}, "", "", 0, {}};
    job.step_predicted = false;
    job.measured = StepFigures{962'180, 115'336, 103.0};
    report.what_ifs.push_back(job);
    const std::string path = dir_ + "/job.advice.sqlite";
    writeAdviceReport(report, path, Overwrite::Refuse);
    EXPECT_EQ(test::ReportReader(path).scalar(
                  "SELECT count(*) FROM trainscope_what_ifs WHERE predicted_step_ms IS NULL"),
              "1");
    const AdviceReport read = readAdviceReport(path);
    ASSERT_EQ(read.what_ifs.size(), 1u);
    EXPECT_FALSE(read.what_ifs[0].step_predicted);
    EXPECT_TRUE(sample().what_ifs[0].step_predicted);
    std::ostringstream text;
    printAdvice(text, read);
    EXPECT_NE(text.str().find("the job over 4 ranks at rank 3:\n  peak         predicted 939.6 "
                              "KiB   measured 939.6 KiB   (exact)\n"),
              std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("\n  step         not predicted         measured 103.0 ms\n"),
              std::string::npos)
        << text.str();
}

// A what-if that raises the memory it was offered to lower is said to make the step worse,
// by its measured figures where it was run: checkpointing a Sequential of linear layers (each
// block's input kept is larger than what the block saves) raised activations 2.1 -> 16.9 KiB.
TEST(AdviceEffect, AWhatIfThatRaisesTheMemoryIsSaidToMakeTheStepWorse) {
    AdviceReport report;
    report.baseline = {100'000, 2'150, 10.0};
    WhatIf checkpoint{"checkpoint each block", "layers", {99'000, 1'000, 12.0}, {}, "", "", 0, {}};
    checkpoint.measured = StepFigures{114'750, 17'306, 12.5};  // predicted lower, measured higher
    WhatIf same_peak{"GELU -> ReLU", "act", {100'000, 2'200, 10.0}, {}, "not asked", "", 0, {}};
    WhatIf lower{
        "AdamW -> SGD", "the optimizer", {90'000, 2'150, 10.0}, {}, "not asked", "", 0, {}};
    WhatIf batch{
        "batch size 8 -> 16", "the inputs", {180'000, 4'300, 18.0}, {}, "not asked", "", 0, {}};
    report.what_ifs = {checkpoint, same_peak, lower, batch};

    const MemoryEffect measured = memoryEffect(checkpoint, report.baseline);
    EXPECT_TRUE(measured.worse);
    EXPECT_TRUE(measured.measured);
    EXPECT_EQ(measured.peak_change, 14'750);
    EXPECT_EQ(measured.activation_change, 15'156);
    EXPECT_TRUE(memoryEffect(same_peak, report.baseline).worse);  // the same peak, more kept
    EXPECT_FALSE(memoryEffect(same_peak, report.baseline).measured);
    EXPECT_FALSE(memoryEffect(lower, report.baseline).worse);
    EXPECT_FALSE(memoryEffect(batch, report.baseline).worse);  // meant to use the memory

    std::ostringstream text;
    printAdvice(text, report);
    EXPECT_NE(text.str().find("  worse: measured, the peak 14.4 KiB higher and activations "
                              "14.8 KiB more than the step as it is: not advised\n"),
              std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("  worse: predicted, activations 50 B more than the step as it "
                              "is: not advised\n"),
              std::string::npos)
        << text.str();
    EXPECT_EQ(text.str().find("worse", text.str().find("AdamW -> SGD")), std::string::npos)
        << text.str();
}

// With a memory budget, each batch size's peak is held against it in bytes (4.0 MiB reads the
// same on both sides of the byte that decides), read back from the file; a report without one
// says nothing of a budget.
TEST_F(AdviceReportTest, ABatchSizesPeakIsHeldAgainstTheBudgetInBytes) {
    AdviceReport report = sample();
    report.budget_bytes = 4'194'304;
    WhatIf largest{
        "batch size 8 -> 3183", "the inputs", {4'194'000, 3'000'000, 9.0}, {}, "", "", 0, {}};
    largest.measured = StepFigures{4'194'000, 3'000'000, 8.0};
    WhatIf above{"batch size 8 -> 3184 (the first above the budget)",
                 "the inputs",
                 {4'195'320, 3'001'000, 9.0},
                 {},
                 "not asked",
                 "",
                 0,
                 {}};
    WhatIf none{"the largest batch size within the budget", "the inputs", {1, 1, 1.0}, {},
                "nothing in the step grows with the batch", "",           0,           {}};
    report.what_ifs = {largest, above, none};
    const std::string path = dir_ + "/run.advice.sqlite";
    writeAdviceReport(report, path, Overwrite::Refuse);
    const AdviceReport read = readAdviceReport(path);
    EXPECT_EQ(read.budget_bytes, 4'194'304);
    std::ostringstream text;
    printAdvice(text, read);
    EXPECT_NE(text.str().find("(+12.50 %)\n  budget       4.0 MiB (4194304 B): predicted within it "
                              "(4194000 B), measured within it (4194000 B)\n"),
              std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("  budget       4.0 MiB (4194304 B): predicted above it "
                              "(4195320 B)\n  not run: not asked\n"),
              std::string::npos)
        << text.str();
    EXPECT_EQ(text.str().find("budget  ", text.str().find("the largest batch size")),
              std::string::npos)
        << text.str();

    const std::string without = dir_ + "/without.advice.sqlite";
    writeAdviceReport(sample(), without, Overwrite::Refuse);
    EXPECT_EQ(readAdviceReport(without).budget_bytes, std::nullopt);
}

// Each what-if run is timed in turns with the step as it is: the ratio's median and range over
// the pairs, read back; where the range holds 1, no difference is readable.
TEST_F(AdviceReportTest, AStepTimedInTurnsIsARatioWithItsRange) {
    AdviceReport report = sample();
    report.what_ifs[0].step_ratio = StepRatio{1.21, 1.05, 1.40, 7};
    report.what_ifs[0].measured = StepFigures{1, 1, 1.0};
    report.what_ifs[1].step_ratio = StepRatio{0.98, 0.86, 1.07, 7};
    report.what_ifs[1].measured = StepFigures{1, 1, 1.0};
    const std::string path = dir_ + "/run.advice.sqlite";
    writeAdviceReport(report, path, Overwrite::Refuse);
    const AdviceReport read = readAdviceReport(path);
    ASSERT_TRUE(read.what_ifs[0].step_ratio);
    EXPECT_EQ(read.what_ifs[0].step_ratio->pairs, 7);
    EXPECT_TRUE(read.what_ifs[0].step_ratio->readable());
    EXPECT_FALSE(read.what_ifs[1].step_ratio->readable());
    std::ostringstream text;
    printAdvice(text, read);
    EXPECT_NE(text.str().find("  step ratio   1.21 x the step as it is, timed in turns (1.05 to "
                              "1.40 x over 7 pairs)\n"),
              std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("  step ratio   0.98 x the step as it is, timed in turns (0.86 to "
                              "1.07 x over 7 pairs): no difference readable within the machine's "
                              "noise\n"),
              std::string::npos)
        << text.str();

    changeReport(path, "UPDATE trainscope_what_ifs SET step_ratio_low = 2 WHERE id = 1");
    EXPECT_THROW(readAdviceReport(path), Error);
}

// A report written before the what-ifs said what their prediction leaves out has no such
// column: read as leaving out nothing.
TEST_F(AdviceReportTest, AReportWithoutWhatIsNotPredictedIsReadAsLeavingOutNothing) {
    const std::string path = dir_ + "/run.advice.sqlite";
    writeAdviceReport(sample(), path, Overwrite::Refuse);
    changeReport(path, "ALTER TABLE trainscope_what_ifs DROP COLUMN not_predicted");
    const AdviceReport read = readAdviceReport(path);
    ASSERT_EQ(read.what_ifs.size(), 2u);
    EXPECT_EQ(read.what_ifs[1].not_predicted, "");
    EXPECT_EQ(read.what_ifs[0].source_line, 24);
}

TEST_F(AdviceReportTest, ADamagedOrForeignFileIsRefusedInOneLine) {
    const std::string path = dir_ + "/run.advice.sqlite";
    writeAdviceReport(sample(), path, Overwrite::Refuse);
    changeReport(path, "UPDATE trainscope_what_ifs SET predicted_peak_bytes = -1");
    try {
        readAdviceReport(path);
        FAIL() << "a negative size was read";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("negative"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(isAdviceReport(dir_));
    EXPECT_FALSE(isAdviceReport(dir_ + "/missing.sqlite"));
    EXPECT_THROW(readAdviceReport(dir_ + "/missing.sqlite"), Error);
}

}  // namespace
}  // namespace trainscope
