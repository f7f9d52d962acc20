// SPDX-License-Identifier: Apache-2.0
#include "report/sqlite_db.h"

#include <sqlite3.h>

#include "trainscope/error.h"

namespace trainscope {
namespace {

[[noreturn]] void fail(sqlite3* db, const std::string& what) {
    throw Error(what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

}  // namespace

SqliteDb::SqliteDb(const std::string& path) {
    // Never through a symbolic link: a report's staged file is ours alone.
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW;
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
        std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw Error(message);
    }
}

SqliteDb::~SqliteDb() {
    sqlite3_close(db_);
}

void SqliteDb::exec(const std::string& sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        std::string text = message ? message : "unknown error";
        sqlite3_free(message);
        throw Error(text);
    }
}

void SqliteDb::close() {
    if (db_ && sqlite3_close(db_) != SQLITE_OK) {
        fail(db_, "cannot close the file");
    }
    db_ = nullptr;
}

SqliteStatement::SqliteStatement(SqliteDb& db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) {
        fail(db.handle(), "cannot prepare statement");
    }
}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(stmt_);
}

SqliteStatement& SqliteStatement::bind(int index, int64_t value) {
    sqlite3_bind_int64(stmt_, index, value);
    return *this;
}
SqliteStatement& SqliteStatement::bind(int index, double value) {
    sqlite3_bind_double(stmt_, index, value);
    return *this;
}
SqliteStatement& SqliteStatement::bind(int index, std::string_view value) {
    sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
    return *this;
}
SqliteStatement& SqliteStatement::bindNull(int index) {
    sqlite3_bind_null(stmt_, index);
    return *this;
}

void SqliteStatement::step() {
    if (sqlite3_step(stmt_) != SQLITE_DONE) {
        fail(db_.handle(), "cannot write report row");
    }
    // Bindings are kept, not cleared: every insert binds each of its parameters for every row
    // (NULLs explicitly), and clearing them cost a tenth of the timeline writer's time.
    sqlite3_reset(stmt_);
}

}  // namespace trainscope
