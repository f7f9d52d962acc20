// SPDX-License-Identifier: Apache-2.0
// A thin RAII layer over the SQLite C API for the writers: errors become trainscope::Error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace trainscope {

class SqliteDb {
  public:
    explicit SqliteDb(const std::string& path);  // creates the file
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    void exec(const std::string& sql);
    void close();  // flushes; throws on failure
    sqlite3* handle() const { return db_; }

  private:
    sqlite3* db_ = nullptr;
};

class SqliteStatement {
  public:
    SqliteStatement(SqliteDb& db, const std::string& sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    SqliteStatement& bind(int index, int64_t value);
    SqliteStatement& bind(int index, double value);
    SqliteStatement& bind(int index, std::string_view value);  // copied by SQLite
    SqliteStatement& bindNull(int index);
    // Runs the statement and resets it for the next row. Bindings stay: bind every parameter
    // of every row.
    void step();

  private:
    SqliteDb& db_;
    sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace trainscope
