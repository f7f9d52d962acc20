// SPDX-License-Identifier: Apache-2.0
// The reports must be byte-for-byte schema compatible with Skyline and DeepView.Profile
// (docs/report-formats.md): the expected DDL below is copied from that contract.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include <sqlite3.h>

#include "support/report_reader.h"
#include "trainscope/comparison.h"
#include "trainscope/error.h"
#include "trainscope/report_reading.h"
#include "trainscope/report_writer.h"
#include "trainscope/summary_text.h"

namespace fs = std::filesystem;
using namespace trainscope;
using test::ReportReader;

namespace {

std::string normalized(std::string sql) {
    sql = std::regex_replace(sql, std::regex("\\s+"), " ");
    sql = std::regex_replace(sql, std::regex("\\( "), "(");
    sql = std::regex_replace(sql, std::regex(" \\)"), ")");
    return sql;
}

std::vector<std::string> schemaOf(const std::string& path) {
    std::vector<std::string> ddl;
    for (const auto& row : ReportReader(path).rows(
             "SELECT sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
             "AND name NOT LIKE 'trainscope_%' AND sql IS NOT NULL ORDER BY name")) {
        ddl.push_back(normalized(row[0]));
    }
    return ddl;
}

std::vector<std::string> sortedByName(std::vector<std::pair<std::string, std::string>> ddl) {
    std::sort(ddl.begin(), ddl.end());
    std::vector<std::string> result;
    for (auto& [name, sql] : ddl)
        result.push_back(normalized(sql));
    return result;
}

MemoryReport sampleMemoryReport() {
    MemoryReport report;
    report.weights = {{"lin_0.weight", 400, 400, {{"model.py", 12}, {"train.py", 40}}, "lin_0"},
                      {"lin_0.bias", 8, 8, {}, "lin_0"}};
    report.activations = {{"aten::linear", 1000, {{"model.py", 12}, {"train.py", 40}}, "lin_0"},
                          {"aten::gelu", 2000, {{"layers.py", 3}, {"model.py", 13}}, ""}};
    report.peak_usage_bytes = 5000;
    report.metadata = {{"model", "sample"}};
    return report;
}

TimeReport sampleTimeReport() {
    TimeReport report;
    report.entries = {{"aten::linear", 1.5, 2.5, {{"model.py", 12}, {"train.py", 40}}, "lin_0"},
                      {"aten::zeros_like", 0.25, std::nullopt, {{"model.py", 14}}, ""}};
    report.iteration_ms = 5.0;
    return report;
}

class ReportFiles : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = test::makeTempDir(); }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const std::string& name) const { return (fs::path(dir_) / name).string(); }
    size_t fileCount() const {
        return static_cast<size_t>(std::distance(fs::directory_iterator(dir_), {}));
    }
    std::string dir_;
};

}  // namespace

TEST_F(ReportFiles, MemoryReportHasTheStandardSchema) {
    writeMemoryReport(sampleMemoryReport(), path("m.sqlite"), Overwrite::Refuse);
    const auto expected = sortedByName({
        {"activation_entries",
         "CREATE TABLE activation_entries (id INTEGER PRIMARY KEY, operation_name TEXT NOT NULL, "
         "size_bytes INTEGER NOT NULL)"},
        {"entry_type_and_id",
         "CREATE UNIQUE INDEX entry_type_and_id ON stack_correlation(entry_type, entry_id)"},
        {"entry_types",
         "CREATE TABLE entry_types (entry_type INTEGER PRIMARY KEY, name TEXT NOT NULL)"},
        {"misc_sizes", "CREATE TABLE misc_sizes (key TEXT PRIMARY KEY, size_bytes INT NOT NULL)"},
        {"stack_correlation",
         "CREATE TABLE stack_correlation (correlation_id INTEGER PRIMARY KEY, entry_id INTEGER "
         "NOT NULL, entry_type INTEGER NOT NULL, UNIQUE (correlation_id, entry_id))"},
        {"stack_frames",
         "CREATE TABLE stack_frames (correlation_id INTEGER NOT NULL, ordering INTEGER NOT NULL, "
         "file_path TEXT NOT NULL, line_number INTEGER NOT NULL, PRIMARY KEY (correlation_id, "
         "ordering))"},
        {"weight_entries",
         "CREATE TABLE weight_entries (id INTEGER PRIMARY KEY, name TEXT NOT NULL, size_bytes "
         "INTEGER NOT NULL, grad_size_bytes INTEGER NOT NULL)"},
    });
    EXPECT_EQ(schemaOf(path("m.sqlite")), expected);
    ReportReader db(path("m.sqlite"));
    EXPECT_EQ(db.scalar("PRAGMA user_version"), "1");
    EXPECT_EQ(db.rows("SELECT entry_type, name FROM entry_types ORDER BY entry_type"),
              (std::vector<test::Row>{{"1", "Weight"}, {"2", "Activation"}}))
        << "the names Skyline's and DeepView.Profile's report builders write";
    EXPECT_EQ(db.scalar("SELECT size_bytes FROM misc_sizes WHERE key = 'peak_usage_bytes'"),
              "5000");
}

TEST_F(ReportFiles, TimeReportHasTheStandardSchema) {
    writeTimeReport(sampleTimeReport(), path("t.sqlite"), Overwrite::Refuse);
    const auto expected = sortedByName({
        {"run_time_entries",
         "CREATE TABLE run_time_entries (id INTEGER PRIMARY KEY, operation_name TEXT NOT NULL, "
         "forward_ms REAL NOT NULL, backward_ms REAL)"},
        {"stack_frames",
         "CREATE TABLE stack_frames (ordering INTEGER NOT NULL, file_path TEXT NOT NULL, "
         "line_number INTEGER NOT NULL, entry_id INTEGER NOT NULL, PRIMARY KEY (entry_id, "
         "ordering))"},
    });
    EXPECT_EQ(schemaOf(path("t.sqlite")), expected);
    ReportReader db(path("t.sqlite"));
    EXPECT_EQ(db.scalar("PRAGMA user_version"), "1");
    EXPECT_EQ(db.rows("SELECT operation_name, forward_ms, backward_ms FROM run_time_entries"),
              (std::vector<test::Row>{{"aten::linear", "1.5", "2.5"},
                                      {"aten::zeros_like", "0.25", "NULL"}}));
}

// A cold open reads the file in the order its tables are asked for: each table's leaf pages lie
// together, the entries and modules (read at open) before the frames (read after the first
// screens) and the spreads (read when runs are compared).
TEST_F(ReportFiles, TimeReportTablesLieInTheFileInTheOrderTheyAreRead) {
    TimeReport report;
    for (int i = 0; i < 3000; ++i) {
        report.entries.push_back({"aten::linear",
                                  0.5,
                                  1.0,
                                  {{"torch/nn/modules/linear.py", 114, "/usr/lib/python3"},
                                   {"model.py", 12},
                                   {"train.py", 40}},
                                  "blocks." + std::to_string(i % 48) + ".mlp"});
    }
    writeTimeReport(report, path("t.sqlite"), Overwrite::Refuse);
    const std::vector<std::string> order = {"run_time_entries", "trainscope_entry_modules",
                                            "stack_frames", "trainscope_library_frames",
                                            "trainscope_time_spread"};
    ReportReader db(path("t.sqlite"));
    std::string previous_last = "0";
    for (const std::string& table : order) {
        // The table's own leaves and those of its primary key's index (written alongside).
        const std::string pages = "FROM dbstat WHERE pagetype = 'leaf' AND (name = '" + table +
                                  "' OR name = 'sqlite_autoindex_" + table + "_1')";
        const double first = db.number("SELECT min(pageno) " + pages);
        EXPECT_GT(first, std::stod(previous_last)) << table << " begins after the table before";
        previous_last = db.scalar("SELECT max(pageno) " + pages);
    }
}

TEST_F(ReportFiles, FirstFramePerEntryQueriesOfTheOriginalTools) {
    writeMemoryReport(sampleMemoryReport(), path("m.sqlite"), Overwrite::Refuse);
    writeTimeReport(sampleTimeReport(), path("t.sqlite"), Overwrite::Refuse);
    // The query Skyline's and DeepView's readers run against the memory report.
    EXPECT_EQ(ReportReader(path("m.sqlite"))
                  .rows("SELECT a.operation_name, f.file_path, f.line_number "
                        "FROM activation_entries a JOIN stack_correlation c "
                        "ON c.entry_id = a.id AND c.entry_type = 2 "
                        "JOIN stack_frames f ON f.correlation_id = c.correlation_id "
                        "GROUP BY f.correlation_id HAVING f.ordering == MIN(f.ordering) "
                        "ORDER BY a.id"),
              (std::vector<test::Row>{{"aten::linear", "model.py", "12"},
                                      {"aten::gelu", "layers.py", "3"}}));
    EXPECT_EQ(ReportReader(path("t.sqlite"))
                  .rows("SELECT entry_id, file_path, line_number FROM stack_frames "
                        "GROUP BY entry_id HAVING ordering == MIN(ordering) ORDER BY entry_id"),
              (std::vector<test::Row>{{"1", "model.py", "12"}, {"2", "model.py", "14"}}));
}

TEST_F(ReportFiles, ExistingFileIsNeverReplacedWithoutForce) {
    std::ofstream(path("t.sqlite")) << "the user's data";
    EXPECT_THROW(writeTimeReport(sampleTimeReport(), path("t.sqlite"), Overwrite::Refuse), Error);
    std::ifstream in(path("t.sqlite"));
    std::string content((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(content, "the user's data");
    EXPECT_EQ(fileCount(), 1u) << "a temporary file was left behind";

    // Forced, a report is replaced; the user's other files never are.
    EXPECT_THROW(writeTimeReport(sampleTimeReport(), path("t.sqlite"), Overwrite::Allow), Error);
    std::ifstream again(path("t.sqlite"));
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), {}), "the user's data");
    TimeReport shorter = sampleTimeReport();
    shorter.entries.pop_back();
    writeTimeReport(shorter, path("r.sqlite"), Overwrite::Refuse);
    writeTimeReport(sampleTimeReport(), path("r.sqlite"), Overwrite::Allow);
    EXPECT_EQ(ReportReader(path("r.sqlite")).scalar("SELECT COUNT(*) FROM run_time_entries"), "2");
}

TEST_F(ReportFiles, BothReportsOfARunOrNeither) {
    std::ofstream(path("run.time.sqlite")) << "keep";
    EXPECT_THROW(writeReports(sampleMemoryReport(), path("run.memory.sqlite"), sampleTimeReport(),
                              path("run.time.sqlite"), Overwrite::Refuse),
                 Error);
    EXPECT_FALSE(fs::exists(path("run.memory.sqlite")));
    EXPECT_EQ(fileCount(), 1u);
}

TEST_F(ReportFiles, MissingFolderIsAClearError) {
    try {
        writeTimeReport(sampleTimeReport(), path("no/such/t.sqlite"), Overwrite::Refuse);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
    }
}

// Each entry's part of the step is written beside Skyline's columns and read back as that part's
// time: by `show`'s summary and by a comparison, whose totals hold the optimizer apart.
TEST_F(ReportFiles, AnEntrysPartOfTheStepIsReadBackAsThatPartsTime) {
    TimeReport report = sampleTimeReport();
    report.entries.push_back({"aten::clamp", 0.125, std::nullopt, {}, ""});
    report.entries.back().part = StepPart::AfterBackward;
    report.entries.push_back({"Optimizer.step#AdamW.step", 3.0, std::nullopt, {}, ""});
    report.entries.back().part = StepPart::Optimizer;
    writeTimeReport(report, path("t.time.sqlite"), Overwrite::Refuse);
    ReportReader db(path("t.time.sqlite"));
    EXPECT_EQ(db.rows("SELECT entry_id, part FROM trainscope_entry_parts ORDER BY entry_id"),
              (std::vector<test::Row>{{"3", "after_backward"}, {"4", "optimizer"}}));

    const ReportFileSummary summary = summarizeReportFile(path("t.time.sqlite"));
    EXPECT_EQ(summary.operations, 4);
    EXPECT_DOUBLE_EQ(summary.times.forward_ms, 1.75);
    EXPECT_DOUBLE_EQ(summary.times.backward_ms, 2.5);
    EXPECT_DOUBLE_EQ(summary.times.after_backward_ms, 0.125);
    EXPECT_DOUBLE_EQ(summary.times.optimizer_ms, 3.0);
    EXPECT_EQ(iterationText(5.0, summary.times),
              "Iteration (wall) 5.000 ms, sum of operations 7.375 ms (forward 1.750 ms, backward "
              "2.500 ms, after backward 0.125 ms, optimizer 3.000 ms), 147.5% of the iteration");

    // The optimizer twice as slow in a second run: the optimizer's total says so, forward not.
    report.entries.back().forward_ms = 6.0;
    writeTimeReport(report, path("u.time.sqlite"), Overwrite::Refuse);
    const Comparison c =
        compareRuns({"t", "", path("t.time.sqlite"), ""}, {"u", "", path("u.time.sqlite"), ""});
    std::map<std::string, std::pair<double, double>> totals;
    for (const ComparedItem& item : c.items)
        for (const FigureChange& f : item.figures)
            if (item.kind == ItemKind::Total && isTime(f.figure) && f.compared())
                totals[std::string(figureKey(f.figure))] = {*f.base, *f.changed};
    EXPECT_EQ(totals.at("forward_ms"), std::make_pair(1.75, 1.75));
    EXPECT_EQ(totals.at("after_backward_ms"), std::make_pair(0.125, 0.125));
    EXPECT_EQ(totals.at("optimizer_ms"), std::make_pair(3.0, 6.0));
}

// A part that is none is a damaged file's, refused in one line rather than read as forward.
TEST_F(ReportFiles, APartOfTheStepThatIsNoneIsRefused) {
    writeTimeReport(sampleTimeReport(), path("t.time.sqlite"), Overwrite::Refuse);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path("t.time.sqlite").c_str(), &db), SQLITE_OK);
    EXPECT_EQ(
        sqlite3_exec(db, "INSERT INTO trainscope_entry_parts (entry_id, part) VALUES (1, 'lunch')",
                     nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(db);
    try {
        summarizeReportFile(path("t.time.sqlite"));
        FAIL() << "read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("names a part of the step that is none: 'lunch'"),
                  std::string::npos)
            << e.what();
    }
}
