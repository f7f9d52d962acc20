// The SQL the app runs against reports, in one place: table models, totals, top entries,
// stack frames. Everything here runs on the thread that owns the report's connection.
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QVector>
#include <optional>

#include "report/sql_table_model.h"

namespace trainscope::ui {

// Longest name or path shown: a report may hold megabytes in one (it is untrusted input).
constexpr int kMaxShownText = 1000;

// What was allocated at the instant of the peak (TrainScope's misc_sizes keys; other tools'
// reports lack them).
struct PeakParts {
    qint64 weights = 0;
    qint64 gradients = 0;
    qint64 optimizer_state = 0;
    qint64 activations = 0;
    qint64 other = 0;
    qint64 total() const { return weights + gradients + optimizer_state + activations + other; }
};

struct MemorySummary {
    qint64 peak = 0;
    // Totals over the iteration: all weights, all gradients, all activation entries. They are
    // not all allocated at once, so they need not fit in the peak.
    qint64 weights = 0;
    qint64 gradients = 0;
    qint64 activations = 0;
    std::optional<PeakParts> at_peak;
};

struct TimeSummary {
    double forward_ms = 0;
    double backward_ms = 0;
    qint64 operations = 0;
    double iteration_ms() const { return forward_ms + backward_ms; }
};

struct FrameRow {
    QString file_path;
    int line_number = 0;
    // Empty for a project frame; for a library frame (TrainScope's extra table), the folder on
    // the recording machine that file_path is relative to.
    QString library_root;
    bool isLibrary() const { return !library_root.isEmpty(); }
    bool operator==(const FrameRow& other) const {
        return file_path == other.file_path && line_number == other.line_number &&
               library_root == other.library_root;
    }
};

// One bar of a "largest entries" chart.
struct TopEntry {
    qint64 id = 0;
    QString name;
    double first = 0;   // bytes, or forward ms
    double second = 0;  // backward ms (time only)
    QString module;     // the module path of the entry's operation (TrainScope reports only)
};

std::optional<MemorySummary> memorySummary(QSqlDatabase db, QString* error);
std::optional<TimeSummary> timeSummary(QSqlDatabase db, QString* error);
// TrainScope's own metadata (absent from Skyline and DeepView reports: empty then).
// Sets `error` when the report has the table but it cannot be read.
QString metadataValue(QSqlDatabase db, const QString& key, QString* error = nullptr);

// The largest entries of a table, for a chart, largest first. When the query fails, `error`
// says why, so that an empty chart is never mistaken for an empty table.
struct TopEntries {
    QVector<TopEntry> rows;
    QString error;
    TopEntries first(int count) const { return {rows.mid(0, count), error}; }
};

TopEntries topOperationsByTime(QSqlDatabase db, int count);
TopEntries topActivations(QSqlDatabase db, int count);
TopEntries topWeights(QSqlDatabase db, int count);
// The modules that held most at the instant of the peak (TrainScope's own table; none in
// other tools' reports).
TopEntries topModulesAtPeak(QSqlDatabase db, int count);

SqlTableModel* weightsModel(QSqlDatabase db, qint64 peak, QObject* parent);
SqlTableModel* activationsModel(QSqlDatabase db, qint64 peak, QObject* parent);
SqlTableModel* operationsModel(QSqlDatabase db, double iteration_ms, QObject* parent);
// One row per operation name: count, totals and mean.
SqlTableModel* groupedOperationsModel(QSqlDatabase db, double iteration_ms, QObject* parent);

// "By source line": entries summed per file:line of their most specific frame. Columns 1 and
// 2 are the file and the line.
SqlTableModel* timeBySourceLineModel(QSqlDatabase db, double iteration_ms, QObject* parent);
SqlTableModel* memoryBySourceLineModel(QSqlDatabase db, qint64 peak, QObject* parent);

enum class EntryTable { Weight, Activation, Operation };
// Project and library frames merged, most specific first. Sets `error` when the report's frames
// cannot be read.
QVector<FrameRow> stackFrames(QSqlDatabase db, EntryTable table, qint64 entry_id,
                              QString* error = nullptr);
// The library roots that a TrainScope report recorded (none for other reports).
QStringList libraryRoots(QSqlDatabase db, QString* error = nullptr);

}  // namespace trainscope::ui
