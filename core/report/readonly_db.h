// SPDX-License-Identifier: Apache-2.0
// A report file opened for reading only, as untrusted input (anyone's report, a real torch_npu
// database): nothing is created or changed beside it, not even in WAL mode or in a read-only
// folder, and the reader's queries stay bounded. Errors become trainscope::Error.
#pragma once

#include <cstdint>
#include <set>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace trainscope {

class ReadOnlyDb {
  public:
    explicit ReadOnlyDb(const std::string& path);  // throws when it is no SQLite database
    ~ReadOnlyDb();
    ReadOnlyDb(const ReadOnlyDb&) = delete;
    ReadOnlyDb& operator=(const ReadOnlyDb&) = delete;

    // A real table (never a view, whose query could be anything) of that name.
    bool hasTable(const std::string& name) const { return tables_.count(name) > 0; }
    // Its columns; columns drift between versions of a format, so readers check by name.
    std::set<std::string> columns(const std::string& table) const;
    sqlite3* handle() const { return db_; }
    const std::string& path() const { return path_; }

  private:
    std::string path_;
    sqlite3* db_ = nullptr;
    std::set<std::string> tables_;
};

// One query; rows are read with step() and the typed getters.
class ReadQuery {
  public:
    ReadQuery(const ReadOnlyDb& db, const std::string& sql);
    ~ReadQuery();
    ReadQuery(const ReadQuery&) = delete;
    ReadQuery& operator=(const ReadQuery&) = delete;

    ReadQuery& bind(int index, int64_t value);
    ReadQuery& bind(int index, const std::string& value);
    bool step();  // false after the last row; throws on an error (a damaged file)
    bool isNull(int column) const;
    bool isInteger(int column) const;  // stored as an integer (not NULL, a real or a text)
    int64_t integer(int column) const;
    double real(int column) const;
    std::string text(int column) const;

  private:
    const ReadOnlyDb& db_;
    sqlite3_stmt* stmt_ = nullptr;
};

// The single value of a query (0 / empty when it has no row or a NULL).
int64_t integerOf(const ReadOnlyDb& db, const std::string& sql);

}  // namespace trainscope
