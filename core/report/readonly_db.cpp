// SPDX-License-Identifier: Apache-2.0
#include "report/readonly_db.h"

#include <sqlite3.h>

#include <cctype>

#include "trainscope/error.h"

namespace trainscope {
namespace {

// A URI names the file exactly, whatever characters its path has.
std::string fileUri(const std::string& path) {
    std::string uri = "file:";
    static const char kHex[] = "0123456789ABCDEF";
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~') {
            uri += static_cast<char>(c);
        } else {
            uri += '%';
            uri += kHex[c >> 4];
            uri += kHex[c & 15];
        }
    }
    // immutable: no lock, no -wal or -shm file, no journal replay; a file in WAL mode that
    // MindStudio Insight has opened reads like any other, also in a read-only folder.
    return uri + "?mode=ro&immutable=1";
}

}  // namespace

ReadOnlyDb::ReadOnlyDb(const std::string& path) : path_(path) {
    // NOMUTEX: a connection is used by one thread at a time (each reader opens its own), so
    // SQLite need not lock around every call.
    const int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(fileUri(path).c_str(), &db_, flags, nullptr) != SQLITE_OK) {
        const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw Error("cannot open " + path + ": " + message);
    }
    // A hostile file may hold triggers, views or schema tricks: none of them may run code
    // that writes, and SQLite's defensive mode refuses what could corrupt it.
    sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
    sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
    try {
        ReadQuery tables(*this, "SELECT name FROM sqlite_master WHERE type = 'table'");
        while (tables.step()) {
            tables_.insert(tables.text(0));
        }
    } catch (const Error& e) {
        // SQLite's header, but pages that do not hold together (a file cut off or damaged),
        // apart from a file that is no SQLite database at all.
        const bool damaged = (sqlite3_errcode(db_) & 0xff) == SQLITE_CORRUPT;
        sqlite3_close(db_);
        db_ = nullptr;
        throw Error(
            "cannot open " + path + ": " +
            (damaged ? "a damaged or cut-off SQLite database (" : "not an SQLite database (") +
            e.what() + ")");
    }
}

ReadOnlyDb::~ReadOnlyDb() {
    sqlite3_close(db_);
}

std::set<std::string> ReadOnlyDb::columns(const std::string& table) const {
    std::set<std::string> names;
    if (!hasTable(table)) {
        return names;
    }
    ReadQuery info(*this, "SELECT name FROM pragma_table_info(?)");
    info.bind(1, table);
    while (info.step()) {
        names.insert(info.text(0));
    }
    return names;
}

ReadQuery::ReadQuery(const ReadOnlyDb& db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) {
        throw Error(db.path() + ": " + sqlite3_errmsg(db.handle()));
    }
}

ReadQuery::~ReadQuery() {
    sqlite3_finalize(stmt_);
}

ReadQuery& ReadQuery::bind(int index, int64_t value) {
    sqlite3_bind_int64(stmt_, index, value);
    return *this;
}

ReadQuery& ReadQuery::bind(int index, const std::string& value) {
    sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
    return *this;
}

bool ReadQuery::step() {
    const int status = sqlite3_step(stmt_);
    if (status == SQLITE_ROW) {
        return true;
    }
    if (status == SQLITE_DONE) {
        return false;
    }
    throw Error(db_.path() + ": " + sqlite3_errmsg(db_.handle()));
}

bool ReadQuery::isNull(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

bool ReadQuery::isInteger(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_INTEGER;
}

int64_t ReadQuery::integer(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

double ReadQuery::real(int column) const {
    return sqlite3_column_double(stmt_, column);
}

std::string ReadQuery::text(int column) const {
    const auto* bytes = sqlite3_column_text(stmt_, column);
    return bytes ? std::string(reinterpret_cast<const char*>(bytes),
                               static_cast<size_t>(sqlite3_column_bytes(stmt_, column)))
                 : std::string();
}

int64_t integerOf(const ReadOnlyDb& db, const std::string& sql) {
    ReadQuery query(db, sql);
    return query.step() ? query.integer(0) : 0;
}

}  // namespace trainscope
