// SPDX-License-Identifier: Apache-2.0
// The timeline writer against the floor of any SQLite writer: a plain prepared-statement
// insert of the same rows. The writer's file is read back table by table (the rows exactly as
// written, STRING_IDS included), then those rows are inserted into a fresh file with the same
// DDL, the same pragmas (no journal, one transaction) and an fsync, as the writer's staged
// file gets. Best of several runs each; the ratio is writer / plain.
#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "bench_report.h"
#include "trainscope/report_writer.h"

using namespace trainscope;
namespace fs = std::filesystem;

namespace {

double nowS() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A timeline the size of a large model's iteration, with names and inputs repeating as real
// ones do.
TimelineReport syntheticTimeline(int calls) {
    std::mt19937 random(7);
    TimelineReport report;
    for (int i = 0; i < 1000; ++i) {
        report.callchains.push_back({{"model/layer" + std::to_string(i % 50) + ".py", 10 + i % 90},
                                     {"model/net.py", 100 + i % 7},
                                     {"train.py", 42}});
    }
    int64_t time = 1'795'000'000'000'000'000;
    for (int i = 0; i < calls; ++i) {
        ApiCall call;
        call.start_ns = time;
        call.end_ns = time + 500 + static_cast<int64_t>(random() % 5000);
        time += 700;
        call.global_tid = (uint64_t{4242} << 32) | 4242;
        call.connection_id = i;
        call.name = report.texts.add("aten::op_" + std::to_string(random() % 200));
        if (i % 3 == 0)
            call.sequence_number = i / 3;
        call.input_shapes =
            report.texts.add(std::to_string(random() % 64) + ",1024;\r\n1024,1024;\r\n");
        call.input_dtypes = report.texts.add("float;\r\nfloat;\r\nScalar");
        call.callchain = i % 4 == 0 ? static_cast<int>(random() % 1000) : -1;
        call.module_path = report.texts.add("blocks_" + std::to_string(i % 24) + ".mlp.lin_0");
        report.calls.push_back(std::move(call));
        if (i % 4 == 0)
            report.connections.emplace_back(i, i + 1);
    }
    int64_t total = 1 << 30;
    for (int i = 0; i < calls / 2; ++i) {
        const int64_t size = 512 * static_cast<int64_t>(1 + random() % 4096);
        total += i % 2 ? -size : size;
        report.memory.push_back({1'795'000'000'000'000'000 + i * 1400LL, total, total, total});
        if (i % 2 == 0) {
            BlockLifetime block{report.texts.add("aten::op_" + std::to_string(random() % 200)),
                                size, report.memory.back(), std::nullopt};
            if (i % 10)
                block.release = report.memory.back();
            report.blocks.push_back(std::move(block));
        }
    }
    report.steps.push_back({3, 1'795'000'000'000'000'000, time});
    report.metadata = {{"model", "synthetic"}};
    return report;
}

using Value = std::variant<std::monostate, int64_t, double, std::string>;
struct Table {
    std::string ddl;
    std::string insert;
    std::vector<std::vector<Value>> rows;
};

std::vector<Table> readBack(const std::string& path) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    std::vector<Table> tables;
    sqlite3_stmt* list = nullptr;
    sqlite3_prepare_v2(db, "SELECT name, sql FROM sqlite_master WHERE type = 'table'", -1, &list,
                       nullptr);
    while (sqlite3_step(list) == SQLITE_ROW) {
        const std::string name = reinterpret_cast<const char*>(sqlite3_column_text(list, 0));
        Table table{reinterpret_cast<const char*>(sqlite3_column_text(list, 1)), "", {}};
        sqlite3_stmt* select = nullptr;
        sqlite3_prepare_v2(db, ("SELECT * FROM " + name).c_str(), -1, &select, nullptr);
        const int columns = sqlite3_column_count(select);
        table.insert = "INSERT INTO " + name + " VALUES (";
        for (int c = 0; c < columns; ++c)
            table.insert += c ? ", ?" : "?";
        table.insert += ")";
        while (sqlite3_step(select) == SQLITE_ROW) {
            std::vector<Value> row;
            for (int c = 0; c < columns; ++c) {
                switch (sqlite3_column_type(select, c)) {
                    case SQLITE_INTEGER:
                        row.emplace_back(static_cast<int64_t>(sqlite3_column_int64(select, c)));
                        break;
                    case SQLITE_FLOAT:
                        row.emplace_back(sqlite3_column_double(select, c));
                        break;
                    case SQLITE_NULL:
                        row.emplace_back();
                        break;
                    default:
                        row.emplace_back(std::string(
                            reinterpret_cast<const char*>(sqlite3_column_text(select, c))));
                }
            }
            table.rows.push_back(std::move(row));
        }
        sqlite3_finalize(select);
        tables.push_back(std::move(table));
    }
    sqlite3_finalize(list);
    sqlite3_close(db);
    return tables;
}

void plainInsert(const std::vector<Table>& tables, const std::string& path) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db, "PRAGMA journal_mode = OFF; BEGIN", nullptr, nullptr, nullptr);
    for (const Table& table : tables) {
        sqlite3_exec(db, table.ddl.c_str(), nullptr, nullptr, nullptr);
        sqlite3_stmt* insert = nullptr;
        sqlite3_prepare_v2(db, table.insert.c_str(), -1, &insert, nullptr);
        for (const std::vector<Value>& row : table.rows) {
            for (size_t c = 0; c < row.size(); ++c) {
                const int index = static_cast<int>(c) + 1;
                if (const auto* i = std::get_if<int64_t>(&row[c]))
                    sqlite3_bind_int64(insert, index, *i);
                else if (const auto* d = std::get_if<double>(&row[c]))
                    sqlite3_bind_double(insert, index, *d);
                else if (const auto* s = std::get_if<std::string>(&row[c]))
                    sqlite3_bind_text(insert, index, s->c_str(), static_cast<int>(s->size()),
                                      SQLITE_STATIC);
                else
                    sqlite3_bind_null(insert, index);
            }
            sqlite3_step(insert);
            sqlite3_reset(insert);
        }
        sqlite3_finalize(insert);
    }
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    const int fd = ::open(path.c_str(), O_RDONLY);
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

int main(int argc, char** argv) {
    trainscope::bench::commandLine(
        argc, argv, "timeline_writer",
        "Writes a 300,000-call timeline with the engine's writer and the same rows with plain\n"
        "prepared inserts into scratch files, best of 9 each, and prints the ratio against\n"
        "its target (<= 1.2x).",
        0, 0);
    const int calls = 300000;
    const TimelineReport report = syntheticTimeline(calls);
    const fs::path dir = fs::temp_directory_path() / "trainscope-writer-bench";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string written = (dir / "written.sqlite").string();
    const std::string plain = (dir / "plain.sqlite").string();

    double writer_s = 1e9, plain_s = 1e9;
    std::vector<Table> tables;
    size_t rows = 0;
    for (int round = 0; round < 9; ++round) {
        double start = nowS();
        writeTimelineReport(report, written, Overwrite::Allow);
        writer_s = std::min(writer_s, nowS() - start);
        if (tables.empty()) {
            tables = readBack(written);
            for (const Table& t : tables)
                rows += t.rows.size();
        }
        fs::remove(plain);
        start = nowS();
        plainInsert(tables, plain);
        plain_s = std::min(plain_s, nowS() - start);
    }
    std::printf(
        "timeline of %d calls: %zu rows in %zu tables; best of 9: writer %.3f s, plain "
        "prepared inserts of the same rows %.3f s\n",
        calls, rows, tables.size(), writer_s, plain_s);
    fs::remove_all(dir);
    const bool met = bench::report("timeline writer / plain prepared insert", writer_s / plain_s,
                                   "x", 1.2, "<= 1.2x");
    return met ? 0 : 1;
}
