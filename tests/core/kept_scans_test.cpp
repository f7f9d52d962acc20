// SPDX-License-Identifier: Apache-2.0
// What a timeline's summary reads of its large tables, kept in the file by TrainScope's writer
// (report/kept_scans.h): the summary read from them is the one read from the tables, and a file
// changed since it was written (through SQLite, in its bytes, or put in WAL mode) is read from
// its tables again, so that what `show` prints is what the file holds.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "report/kept_scans.h"
#include "report/readonly_db.h"
#include "support/report_reader.h"
#include "trainscope/report_reading.h"
#include "trainscope/report_writer.h"

namespace fs = std::filesystem;
using namespace trainscope;

namespace {

// Two threads of calls of three names, memory samples and blocks (one never freed).
TimelineReport smallTimeline() {
    TimelineReport report;
    report.rank = 0;
    report.steps = {{1, 1'000, 90'000, false}};
    for (int i = 0; i < 60; ++i) {
        ApiCall c;
        c.start_ns = 1'000 + 1'000 * i;
        c.end_ns = c.start_ns + 100 + 37 * (i % 7);
        c.global_tid = uint64_t(7) << 32 | uint64_t(1 + i % 2);
        c.name = report.texts.add(i % 3 == 0   ? "aten::mm"
                                  : i % 3 == 1 ? "aten::add"
                                               : "aten::relu");
        c.api_type = kOperationApiType;
        report.calls.push_back(c);
        const MemorySample at{c.start_ns + 10, 4096 * (i + 1), 8192 * (i + 1), 4096 * (i + 1)};
        report.memory.push_back(at);
        BlockLifetime block;
        block.operation_name = c.name;
        block.size_bytes = 512 * (1 + i % 5);
        block.allocation = at;
        if (i != 17) {
            block.release = MemorySample{c.end_ns, 0, 0, 0};
        }
        report.blocks.push_back(block);
    }
    return report;
}

void expectSameScans(const ReportFileSummary& a, const ReportFileSummary& b) {
    EXPECT_EQ(a.api_calls, b.api_calls);
    EXPECT_EQ(a.threads, b.threads);
    EXPECT_EQ(a.first_ns, b.first_ns);
    EXPECT_EQ(a.last_ns, b.last_ns);
    ASSERT_EQ(a.calls_by_type.size(), b.calls_by_type.size());
    for (size_t i = 0; i < a.calls_by_type.size(); ++i) {
        EXPECT_EQ(a.calls_by_type[i].name, b.calls_by_type[i].name);
        EXPECT_EQ(a.calls_by_type[i].count, b.calls_by_type[i].count);
    }
    ASSERT_EQ(a.top_operations.size(), b.top_operations.size());
    for (size_t i = 0; i < a.top_operations.size(); ++i) {
        EXPECT_EQ(a.top_operations[i].name, b.top_operations[i].name);
        EXPECT_EQ(a.top_operations[i].calls, b.top_operations[i].calls);
        EXPECT_EQ(a.top_operations[i].total_ns, b.top_operations[i].total_ns);
    }
    ASSERT_EQ(a.memory.size(), b.memory.size());
    for (size_t i = 0; i < a.memory.size(); ++i) {
        EXPECT_EQ(a.memory[i].component, b.memory[i].component);
        EXPECT_EQ(a.memory[i].records, b.memory[i].records);
        EXPECT_EQ(a.memory[i].peak_allocated, b.memory[i].peak_allocated);
        EXPECT_EQ(a.memory[i].peak_reserved, b.memory[i].peak_reserved);
        EXPECT_EQ(a.memory[i].peak_active, b.memory[i].peak_active);
    }
    EXPECT_EQ(a.blocks, b.blocks);
    EXPECT_EQ(a.blocks_never_freed, b.blocks_never_freed);
    ASSERT_EQ(a.largest_allocations.size(), b.largest_allocations.size());
    for (size_t i = 0; i < a.largest_allocations.size(); ++i) {
        EXPECT_EQ(a.largest_allocations[i].operation, b.largest_allocations[i].operation);
        EXPECT_EQ(a.largest_allocations[i].size_bytes, b.largest_allocations[i].size_bytes);
        EXPECT_EQ(a.largest_allocations[i].allocated_ns, b.largest_allocations[i].allocated_ns);
        EXPECT_EQ(a.largest_allocations[i].released_ns, b.largest_allocations[i].released_ns);
    }
}

class KeptScans : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = test::makeTempDir();
        path_ = dir_ + "/run.timeline.sqlite";
        writeTimelineReport(smallTimeline(), path_, Overwrite::Refuse);
    }
    void TearDown() override { fs::remove_all(dir_); }

    bool kept(int top = 10) const {
        const ReadOnlyDb db(path_);
        ReportFileSummary s;
        return readKeptScans(db, s, top);
    }
    // The tables read as they are.
    ReportFileSummary scanned(int top = 10) const {
        const ReadOnlyDb db(path_);
        ReportFileSummary s;
        scanTimelineTables(db, s, top, top);
        return s;
    }
    void execute(const std::string& sql) const {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
        EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK)
            << sqlite3_errmsg(db);
        sqlite3_close(db);
    }

    uint32_t changeCounter() const {
        std::ifstream in(path_, std::ios::binary);
        unsigned char header[28] = {};
        in.read(reinterpret_cast<char*>(header), sizeof header);
        return uint32_t(header[24]) << 24 | uint32_t(header[25]) << 16 | uint32_t(header[26]) << 8 |
               uint32_t(header[27]);
    }

    std::string dir_, path_;
};

TEST_F(KeptScans, AWrittenTimelineKeepsWhatItsTablesGive) {
    for (int top : {0, 2, 10, kKeptLargestAllocations}) {
        const ReadOnlyDb db(path_);
        ReportFileSummary from_kept;
        ASSERT_TRUE(readKeptScans(db, from_kept, top)) << "top " << top;
        expectSameScans(from_kept, scanned(top));
    }
    // The summary `show` prints, with the figures read elsewhere from the tables.
    const ReportFileSummary shown = summarizeReportFile(path_);
    expectSameScans(shown, scanned());
    EXPECT_EQ(shown.api_calls, 60);
    EXPECT_EQ(shown.blocks_never_freed, 1);
    EXPECT_EQ(shown.threads, 2);
    EXPECT_EQ(shown.rank, 0);
    EXPECT_EQ(shown.steps.size(), 1u);
    // More allocations than kept: read from the tables.
    EXPECT_FALSE(kept(kKeptLargestAllocations + 1));
}

TEST_F(KeptScans, AFileChangedThroughSqliteIsReadFromItsTables) {
    ASSERT_TRUE(kept());
    const int64_t mm_before = summarizeReportFile(path_).top_operations.at(0).total_ns;
    // A user's edit: one aten::mm call a second long.
    execute(
        "UPDATE PYTORCH_API SET endNs = CAST(CAST(startNs AS INTEGER) + 1000000000 AS TEXT) "
        "WHERE rowid = (SELECT MIN(rowid) FROM PYTORCH_API)");
    EXPECT_FALSE(kept());
    const ReportFileSummary shown = summarizeReportFile(path_);
    ASSERT_FALSE(shown.top_operations.empty());
    EXPECT_EQ(shown.top_operations[0].name, "aten::mm");
    EXPECT_GT(shown.top_operations[0].total_ns, 1'000'000'000);
    EXPECT_GT(shown.top_operations[0].total_ns, mm_before);
    expectSameScans(shown, scanned());
}

TEST_F(KeptScans, KeptFiguresDamagedInTheFilesBytesAreNotTrusted) {
    ASSERT_TRUE(kept());
    // A digit of the kept text changed in place, the header (and its change counter) untouched.
    std::string bytes;
    {
        std::ifstream in(path_, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    const size_t at = bytes.find("\"api_calls\":60");
    ASSERT_NE(at, std::string::npos);
    bytes[at + 13] = '1';  // 60 -> 61
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << bytes;
    EXPECT_FALSE(kept());
    EXPECT_EQ(summarizeReportFile(path_).api_calls, 60);
}

TEST_F(KeptScans, AFileInWalModeIsReadFromItsTables) {
    ASSERT_TRUE(kept());
    execute("PRAGMA journal_mode = WAL");
    EXPECT_FALSE(kept());
    expectSameScans(summarizeReportFile(path_), scanned());
}

// Kept text of the wrong shape, with the counter its own change leaves and its CRC right (a
// hostile file, or one a later TrainScope wrote): not trusted, and nothing read out of bounds.
TEST_F(KeptScans, KeptTextOfAnotherShapeIsNotTrusted) {
    // Made so, well formed: trusted, and what the summary says (so the shapes below reach the
    // reading of the text, past the counter and the CRC).
    auto keep = [&](const char* shape) {
        char text[512];
        std::snprintf(text, sizeof text, shape, changeCounter() + 1);
        const uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(text), uInt(strlen(text)));
        execute("UPDATE trainscope_summary SET value = '" + std::string(text) +
                "', crc32 = " + std::to_string(crc));
        return std::string(text);
    };
    keep(R"({"version":1,"change_counter":%u,"api_calls":61,"threads":1,"first_ns":0,)"
         R"("last_ns":0,"calls_by_type":[],"operations":[],"memory":[],"blocks":0,)"
         R"("blocks_never_freed":0,"largest_allocations":[]})");
    ASSERT_TRUE(kept());
    EXPECT_EQ(summarizeReportFile(path_).api_calls, 61);
    for (const char* shape :
         {R"({"version":1,"change_counter":%u,"api_calls":1,"threads":1,"first_ns":0,)"
          R"("last_ns":0,"calls_by_type":5,"operations":[],"memory":[],"blocks":0,)"
          R"("blocks_never_freed":0,"largest_allocations":[]})",
          R"({"version":1,"change_counter":%u,"api_calls":1,"threads":1,"first_ns":0,)"
          R"("last_ns":0,"calls_by_type":[[1,"op"]],"operations":[["x"]],"memory":[[]],)"
          R"("blocks":0,"blocks_never_freed":0,"largest_allocations":[["a",1,2]]})",
          R"({"version":2,"change_counter":%u})", R"([%u])"}) {
        const std::string text = keep(shape);
        EXPECT_FALSE(kept()) << text;
        EXPECT_EQ(summarizeReportFile(path_).api_calls, 60) << text;
    }
}

}  // namespace
