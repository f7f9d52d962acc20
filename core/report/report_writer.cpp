#include "trainscope/report_writer.h"

#include <memory>

#include "report/schema.h"
#include "report/sqlite_db.h"
#include "report/staged_file.h"
#include "trainscope/error.h"
#include "trainscope/report_format.h"

namespace trainscope {
namespace {

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

// An entry's frames: project frames in the standard stack_frames table, library frames in
// trainscope_library_frames, numbered in one sequence. Both tables start with the key column
// (correlation_id or entry_id), then ordering, file_path and line_number.
class FrameWriter {
  public:
    FrameWriter(SqliteDb& db, const std::string& key_column)
        : project_(db, "INSERT INTO stack_frames (" + key_column +
                           ", ordering, file_path, line_number) VALUES (?, ?, ?, ?)"),
          library_(db, "INSERT INTO trainscope_library_frames (" + key_column +
                           ", ordering, file_path, line_number, library_root) "
                           "VALUES (?, ?, ?, ?, ?)") {}

    void add(int64_t key, const StackTrace& frames) {
        for (size_t i = 0; i < frames.size(); ++i) {
            const StackFrame& frame = frames[i];
            SqliteStatement& insert = frame.isLibrary() ? library_ : project_;
            insert.bind(1, key).bind(2, static_cast<int64_t>(i)).bind(3, frame.file_path);
            insert.bind(4, int64_t{frame.line_number});
            if (frame.isLibrary()) {
                insert.bind(5, frame.library_root);
            }
            insert.step();
        }
    }

  private:
    SqliteStatement project_;
    SqliteStatement library_;
};

// Memory report frames hang off stack_correlation: one correlation id per entry.
class MemoryFrameWriter {
  public:
    explicit MemoryFrameWriter(SqliteDb& db)
        : correlation_(db,
                       "INSERT INTO stack_correlation (correlation_id, entry_id, entry_type) "
                       "VALUES (?, ?, ?)"),
          frames_(db, "correlation_id") {}

    void add(int64_t entry_id, int entry_type, const StackTrace& frames) {
        const int64_t correlation_id = next_correlation_id_++;
        correlation_.bind(1, correlation_id).bind(2, entry_id).bind(3, int64_t{entry_type});
        correlation_.step();
        frames_.add(correlation_id, frames);
    }

  private:
    SqliteStatement correlation_;
    FrameWriter frames_;
    int64_t next_correlation_id_ = 1;
};

void fillMemoryReport(SqliteDb& db, const MemoryReport& report) {
    createTables(db, std::begin(schema::kMemoryTables), std::end(schema::kMemoryTables));
    db.exec(schema::kMemoryLibraryFramesTable);
    SqliteStatement entry_type(db, "INSERT INTO entry_types (entry_type, name) VALUES (?, ?)");
    entry_type.bind(1, int64_t{report_format::kEntryTypeWeight})
        .bind(2, std::string("weight"))
        .step();
    entry_type.bind(1, int64_t{report_format::kEntryTypeActivation})
        .bind(2, std::string("activation"))
        .step();

    MemoryFrameWriter frames(db);
    SqliteStatement weight(db,
                           "INSERT INTO weight_entries (id, name, size_bytes, grad_size_bytes) "
                           "VALUES (?, ?, ?, ?)");
    int64_t id = 1;
    for (const WeightEntry& entry : report.weights) {
        weight.bind(1, id).bind(2, entry.name).bind(3, entry.size_bytes);
        weight.bind(4, entry.grad_size_bytes).step();
        frames.add(id++, report_format::kEntryTypeWeight, entry.frames);
    }
    SqliteStatement activation(
        db, "INSERT INTO activation_entries (id, operation_name, size_bytes) VALUES (?, ?, ?)");
    id = 1;
    for (const ActivationEntry& entry : report.activations) {
        activation.bind(1, id).bind(2, entry.operation_name).bind(3, entry.size_bytes).step();
        frames.add(id++, report_format::kEntryTypeActivation, entry.frames);
    }
    SqliteStatement misc(db, "INSERT INTO misc_sizes (key, size_bytes) VALUES (?, ?)");
    misc.bind(1, std::string(report_format::kPeakUsageKey)).bind(2, report.peak_usage_bytes).step();
    for (const auto& [key, bytes] : report.misc_sizes) {
        misc.bind(1, key).bind(2, bytes).step();
    }
    insertMetadata(db, report.metadata);
}

void fillTimeReport(SqliteDb& db, const TimeReport& report) {
    createTables(db, std::begin(schema::kTimeTables), std::end(schema::kTimeTables));
    db.exec(schema::kTimeLibraryFramesTable);
    SqliteStatement entry(db,
                          "INSERT INTO run_time_entries (id, operation_name, forward_ms, "
                          "backward_ms) VALUES (?, ?, ?, ?)");
    FrameWriter frames(db, "entry_id");
    int64_t id = 1;
    for (const RunTimeEntry& e : report.entries) {
        entry.bind(1, id).bind(2, e.operation_name).bind(3, e.forward_ms);
        if (e.backward_ms) {
            entry.bind(4, *e.backward_ms);
        } else {
            entry.bindNull(4);
        }
        entry.step();
        frames.add(id++, e.frames);
    }
    RunMetadata metadata = report.metadata;
    metadata["iteration_ms"] = std::to_string(report.iteration_ms);
    insertMetadata(db, metadata);
}

// Writes one report into a staged file; the caller commits it.
template <typename Report, typename Fill>
std::unique_ptr<StagedFile> stage(const Report& report, const std::string& path, Fill fill) {
    auto staged = std::make_unique<StagedFile>(path);
    try {
        SqliteDb db(staged->tempPath());
        db.exec("PRAGMA journal_mode = OFF");  // a staged file needs no rollback journal
        db.exec("BEGIN");
        fill(db, report);
        db.exec("COMMIT");
        db.close();
    } catch (const Error& e) {
        throw Error("cannot write '" + path + "': " + e.what());
    }
    return staged;
}

}  // namespace

void writeMemoryReport(const MemoryReport& report, const std::string& path, Overwrite overwrite) {
    checkOutputPath(path, overwrite);
    auto file = stage(report, path, fillMemoryReport);
    commitTogether({file.get()}, overwrite);
}

void writeTimeReport(const TimeReport& report, const std::string& path, Overwrite overwrite) {
    checkOutputPath(path, overwrite);
    auto file = stage(report, path, fillTimeReport);
    commitTogether({file.get()}, overwrite);
}

void writeReports(const MemoryReport& memory, const std::string& memory_path,
                  const TimeReport& time, const std::string& time_path, Overwrite overwrite) {
    checkOutputPath(memory_path, overwrite);
    checkOutputPath(time_path, overwrite);
    auto memory_file = stage(memory, memory_path, fillMemoryReport);
    auto time_file = stage(time, time_path, fillTimeReport);
    commitTogether({memory_file.get(), time_file.get()}, overwrite);
}

}  // namespace trainscope
