// The report format's names that writers and readers share: file suffixes, TrainScope's own
// tables, keys and entry types. One home for them, used by the engine, the app and the tests.
// The standard tables' DDL lives with the writer (core/report/schema.h); docs/report-formats.md
// describes both.
#pragma once

namespace trainscope::report_format {

// A run's reports: PREFIX.memory.sqlite and PREFIX.time.sqlite.
inline constexpr char kMemorySuffix[] = ".memory.sqlite";
inline constexpr char kTimeSuffix[] = ".time.sqlite";

// misc_sizes key of the memory report's peak.
inline constexpr char kPeakUsageKey[] = "peak_usage_bytes";

// entry_types rows of the memory report (stack_correlation.entry_type).
inline constexpr int kEntryTypeWeight = 1;
inline constexpr int kEntryTypeActivation = 2;

// TrainScope's extra tables (other tools' reports lack them).
inline constexpr char kMetadataTable[] = "trainscope_metadata";
inline constexpr char kLibraryFramesTable[] = "trainscope_library_frames";

// trainscope_metadata keys that the app and the CLI read back.
inline constexpr char kProjectRootKey[] = "project_root";
inline constexpr char kFramesNoteKey[] = "frames_note";

}  // namespace trainscope::report_format
