// The one home of the report schemas. The standard tables are a contract with Skyline and
// DeepView.Profile (docs/report-formats.md): their DDL must not change.
#pragma once

namespace trainscope::schema {

constexpr int kUserVersion = 1;

// Memory report (Skyline / DeepView.Profile).
constexpr const char* kMemoryTables[] = {
    "CREATE TABLE weight_entries (id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
    "size_bytes INTEGER NOT NULL, grad_size_bytes INTEGER NOT NULL)",
    "CREATE TABLE activation_entries (id INTEGER PRIMARY KEY, "
    "operation_name TEXT NOT NULL, size_bytes INTEGER NOT NULL)",
    "CREATE TABLE entry_types (entry_type INTEGER PRIMARY KEY, name TEXT NOT NULL)",
    "CREATE TABLE stack_correlation (correlation_id INTEGER PRIMARY KEY, "
    "entry_id INTEGER NOT NULL, entry_type INTEGER NOT NULL, "
    "UNIQUE (correlation_id, entry_id))",
    "CREATE UNIQUE INDEX entry_type_and_id ON stack_correlation(entry_type, entry_id)",
    "CREATE TABLE stack_frames (correlation_id INTEGER NOT NULL, "
    "ordering INTEGER NOT NULL, file_path TEXT NOT NULL, "
    "line_number INTEGER NOT NULL, PRIMARY KEY (correlation_id, ordering))",
    "CREATE TABLE misc_sizes (key TEXT PRIMARY KEY, size_bytes INT NOT NULL)",
};

// Run time report (DeepView.Profile).
constexpr const char* kTimeTables[] = {
    "CREATE TABLE run_time_entries (id INTEGER PRIMARY KEY, "
    "operation_name TEXT NOT NULL, forward_ms REAL NOT NULL, backward_ms REAL)",
    "CREATE TABLE stack_frames (ordering INTEGER NOT NULL, file_path TEXT NOT NULL, "
    "line_number INTEGER NOT NULL, entry_id INTEGER NOT NULL, "
    "PRIMARY KEY (entry_id, ordering))",
};

// TrainScope's own tables (allowed as extra tables). Library frames: frames of code outside the
// project root, which the standard stack_frames must not hold. Their `ordering` shares one
// sequence with the entry's stack_frames rows, so the two merge into the full stack.
constexpr const char* kMemoryLibraryFramesTable =
    "CREATE TABLE trainscope_library_frames (correlation_id INTEGER NOT NULL, "
    "ordering INTEGER NOT NULL, file_path TEXT NOT NULL, line_number INTEGER NOT NULL, "
    "library_root TEXT NOT NULL, PRIMARY KEY (correlation_id, ordering))";
constexpr const char* kTimeLibraryFramesTable =
    "CREATE TABLE trainscope_library_frames (entry_id INTEGER NOT NULL, "
    "ordering INTEGER NOT NULL, file_path TEXT NOT NULL, line_number INTEGER NOT NULL, "
    "library_root TEXT NOT NULL, PRIMARY KEY (entry_id, ordering))";

// TrainScope's own table, in both reports: facts about the run (allowed as an extra table).
constexpr const char* kMetadataTable =
    "CREATE TABLE trainscope_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL)";

}  // namespace trainscope::schema
