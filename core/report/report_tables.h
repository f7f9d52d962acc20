// SPDX-License-Identifier: Apache-2.0
// What every report file TrainScope writes begins and ends with: its tables with the metadata
// table and the format's user_version, and the run's metadata rows.
#pragma once

#include "report/sqlite_db.h"
#include "trainscope/reports.h"

namespace trainscope {

// Creates the tables [begin, end), trainscope_metadata, and sets PRAGMA user_version.
void createTables(SqliteDb& db, const char* const* begin, const char* const* end);
void insertMetadata(SqliteDb& db, const RunMetadata& metadata);

}  // namespace trainscope
