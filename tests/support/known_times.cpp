// SPDX-License-Identifier: Apache-2.0
#include "support/known_times.h"

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>
#include <vector>

#include "trainscope/report_format.h"

namespace trainscope::test {
namespace {

namespace fs = std::filesystem;

// A read-write connection that throws on any error.
class Database {
  public:
    explicit Database(const std::string& path) {
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
            throw std::runtime_error("cannot open " + path);
        }
    }
    ~Database() { sqlite3_close(db_); }
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // Runs `sql` with `values` bound in order; calls `row` for each row of its result.
    void run(const std::string& sql, const std::vector<double>& values = {},
             const std::function<void(sqlite3_stmt*)>& row = {}) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
            throw std::runtime_error(std::string(sqlite3_errmsg(db_)) + ": " + sql);
        }
        for (size_t i = 0; i < values.size(); ++i)
            sqlite3_bind_double(stmt, static_cast<int>(i + 1), values[i]);
        int status = SQLITE_ROW;
        while ((status = sqlite3_step(stmt)) == SQLITE_ROW) {
            if (row) {
                row(stmt);
            }
        }
        sqlite3_finalize(stmt);
        if (status != SQLITE_DONE) {
            throw std::runtime_error(std::string(sqlite3_errmsg(db_)) + ": " + sql);
        }
    }

  private:
    sqlite3* db_ = nullptr;
};

struct Entry {
    double id = 0;
    std::string operation;
    bool has_backward = false;
};

}  // namespace

KnownTime timeWithin(double ms, double spread_pct) {
    return {ms, ms * (1.0 - spread_pct / 100.0), ms * (1.0 + spread_pct / 100.0)};
}

void copyWithKnownTimes(const std::string& prefix, const std::string& copy,
                        const std::function<KnownTime(const std::string& operation)>& time_of) {
    for (const char* kind : {".memory.sqlite", ".time.sqlite"})
        fs::copy_file(prefix + kind, copy + kind, fs::copy_options::overwrite_existing);
    Database db(copy + ".time.sqlite");
    std::vector<Entry> entries;
    db.run("SELECT id, operation_name, backward_ms IS NOT NULL FROM run_time_entries", {},
           [&](sqlite3_stmt* row) {
               entries.push_back({sqlite3_column_double(row, 0),
                                  reinterpret_cast<const char*>(sqlite3_column_text(row, 1)),
                                  sqlite3_column_int(row, 2) != 0});
           });
    KnownTime iteration;
    db.run("BEGIN");
    for (const Entry& entry : entries) {
        const KnownTime t = time_of(entry.operation);
        const int passes = entry.has_backward ? 2 : 1;
        iteration.median_ms += passes * t.median_ms;
        iteration.min_ms += passes * t.min_ms;
        iteration.max_ms += passes * t.max_ms;
        db.run(
            "UPDATE run_time_entries SET forward_ms = ?1, "
            "backward_ms = CASE WHEN backward_ms IS NULL THEN NULL ELSE ?1 END WHERE id = ?2",
            {t.median_ms, entry.id});
        db.run(
            "UPDATE trainscope_time_spread SET forward_min_ms = ?1, forward_max_ms = ?2, "
            "backward_min_ms = CASE WHEN backward_min_ms IS NULL THEN NULL ELSE ?1 END, "
            "backward_max_ms = CASE WHEN backward_max_ms IS NULL THEN NULL ELSE ?2 END "
            "WHERE entry_id = ?3",
            {t.min_ms, t.max_ms, entry.id});
    }
    const auto setMetadata = [&](const std::string& key, double value) {
        db.run(std::string("UPDATE ") + report_format::kMetadataTable + " SET value = '" +
               std::to_string(value) + "' WHERE key = '" + key + "'");
    };
    setMetadata(report_format::kIterationMsKey, iteration.median_ms);
    setMetadata(report_format::kIterationMinMsKey, iteration.min_ms);
    setMetadata(report_format::kIterationMaxMsKey, iteration.max_ms);
    db.run("COMMIT");
}

}  // namespace trainscope::test
