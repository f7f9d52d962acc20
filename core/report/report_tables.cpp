// SPDX-License-Identifier: Apache-2.0
#include "report/report_tables.h"

#include "report/schema.h"

namespace trainscope {

void createTables(SqliteDb& db, const char* const* begin, const char* const* end) {
    for (auto it = begin; it != end; ++it) {
        db.exec(*it);
    }
    db.exec(schema::kMetadataTable);
    db.exec("PRAGMA user_version = " + std::to_string(schema::kUserVersion));
}

void insertMetadata(SqliteDb& db, const RunMetadata& metadata) {
    SqliteStatement insert(db, "INSERT INTO trainscope_metadata (key, value) VALUES (?, ?)");
    for (const auto& [key, value] : metadata) {
        insert.bind(1, key).bind(2, value).step();
    }
}

}  // namespace trainscope
