// SPDX-License-Identifier: Apache-2.0
// The SQL the app runs against reports, in one place: totals, top entries, stack frames (run
// on the thread that owns the report's connection) and the tables' specifications.
#pragma once

#include <QHash>
#include <QSqlDatabase>
#include <QString>
#include <QVector>
#include <optional>
#include <vector>

#include "reading/report_file.h"
#include "reading/sql_table_model.h"
#include "trainscope/report_reading.h"
#include "trainscope/reports.h"

namespace trainscope::ui {

// Longest name or path shown: a report may hold megabytes in one (it is untrusted input).
constexpr int kMaxShownText = 1000;

// The Overview's figures, from the core's reading of a report's totals (summarizeReportFile).
struct MemorySummary {
    qint64 peak = 0;
    // Totals over the iteration: all weights, all gradients, all activation entries. They are
    // not all allocated at once, so they need not fit in the peak.
    qint64 weights = 0;
    qint64 gradients = 0;
    qint64 activations = 0;
    // What was allocated at the instant of the peak (TrainScope's misc_sizes keys; other tools'
    // reports lack them).
    std::optional<PeakBreakdown> at_peak;
    int64_t parameters = 0;              // weight entries
    std::vector<ShardedLayout> sharded;  // those sharded over the ranks (FSDP2), by layout
    bool names_weights = true;           // false: an imported file, which names no parameter
    // True: the activation entries are a memory snapshot's blocks alive at the peak, by
    // category and line; their sum is the peak's, not the activations'.
    bool lists_blocks_at_peak = false;
    QString note;  // why the report lacks allocations, or what it cannot say (the CLI's same)
};

// "Iteration time" means two things, each named: the measured iteration (wall time, the
// median over the measured iterations; TrainScope's metadata, absent from other tools'
// reports) and the sum of the operations' times, usually less (the work between them is
// nobody's).
struct TimeSummary {
    PartTimes times;  // the operations' times by part of the step
    qint64 operations = 0;
    std::optional<double> wall_ms;
    // What torch.compile compiled, and the compiled regions' kernels in figures.
    std::vector<Compilation> compilations;
    QString compiled_steps;  // the engine's note on observed steps that compiled
    KernelTotals kernels;
    QString backward_not_attributed;  // an imported trace's: why no operation has backward time
    RunMetadata time_metadata;        // what its times are the time of (ReportFileSummary's)
    double operations_ms() const { return times.sum(); }
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
    qint64 number = 0;  // the operation's number in the iteration (#); 0: none or not known
    // Time only: the operations' time after the backward pass and in the optimizer's step (not
    // in `first`).
    double after_backward = 0;
    double optimizer = 0;
};

// What the lines of one source file cost, for the source viewer's gutter: every entry whose
// stack passes through a line counts there once (inclusive, as the line's share of the run).
struct LineCosts {
    QHash<int, double> time_ms;  // the entries' forward + backward time (run time report)
    QHash<int, qint64> bytes;    // their weights' and activations' bytes (memory report)
    QString error;
    bool isEmpty() const { return time_ms.isEmpty() && bytes.isEmpty(); }
};

// The queries below run on the thread that opened the report (the run's worker thread).
std::optional<MemorySummary> memorySummary(const ReportFile& report, QString* error);
std::optional<TimeSummary> timeSummary(const ReportFile& report, QString* error);
// TrainScope's own metadata (absent from Skyline and DeepView reports: empty then).
// Sets `error` when the report has the table but it cannot be read.
QString metadataValue(const ReportFile& report, const QString& key, QString* error = nullptr);

// The largest entries of a table, for a chart, largest first. When the query fails, `error`
// says why, so that an empty chart is never mistaken for an empty table.
struct TopEntries {
    QVector<TopEntry> rows;
    QString error;
    TopEntries first(int count) const { return {rows.mid(0, count), error}; }
};

// The operations with the most time, as the Time table shows them: those that `filter` keeps
// (by name, and the run's entry range), per invocation or, `grouped`, summed per operation.
TopEntries topOperationsByTime(const ReportFile& report, int count, const RowFilter& filter = {},
                               bool grouped = false);
// The largest activations, of the operations whose name contains `name_filter` (the
// activations table's filter).
TopEntries topActivations(const ReportFile& report, int count, const QString& name_filter = {});
TopEntries topWeights(const ReportFile& report, int count);
// The modules that held most at the instant of the peak (TrainScope's own table; none in
// other tools' reports).
TopEntries topModulesAtPeak(const ReportFile& report, int count);

enum class EntryTable { Weight, Activation, Operation };
// Project and library frames merged, most specific first. Sets `error` when the report's frames
// cannot be read.
QVector<FrameRow> stackFrames(const ReportFile& report, EntryTable table, qint64 entry_id,
                              QString* error = nullptr);
// Where the run time entries named `operation` were called: the most specific project frame of
// each, one per distinct line, the line with the most calls first (at most 100 lines).
QVector<FrameRow> callSites(const ReportFile& report, const QString& operation,
                            QString* error = nullptr);
// The library roots that a TrainScope report recorded (none for other reports).
// Adds the lines of project file `file` (a stack_frames path) to `costs`: times from a run time
// report, bytes from a memory report.
void addLineCosts(const ReportFile& report, const QString& file, LineCosts* costs);
QStringList libraryRoots(const ReportFile& report, QString* error = nullptr);

// readRows() on the report's connection, for the views' tables; one that reads the frames
// gets their problem instead, if they have one (ReportFile::framesProblem).
RowPage readReportRows(const ReportFile& report, const RowRequest& request);

// The tables the views show, as SQL for SqlTableModel; `tables`: the report's tables
// (ReportFile::tables()), for TrainScope's optional module column.
SqlTableSpec weightsTable(const QStringList& tables, qint64 peak);
// `blocks_at_peak`: the entries are a snapshot's blocks at the peak, named by category.
SqlTableSpec activationsTable(const QStringList& tables, qint64 peak, bool blocks_at_peak = false);
// `times`: the report's (TimeSummary's), for each part of the step's column and the shares.
SqlTableSpec operationsTable(const QStringList& tables, const PartTimes& times);
// One row per operation name: count, totals and mean.
SqlTableSpec groupedOperationsTable(const QStringList& tables, const PartTimes& times);
// "By source line": entries summed per file:line of their most specific frame. Columns 1 and
// 2 are the file and the line.
SqlTableSpec timeBySourceLineTable(const QStringList& tables, const PartTimes& times);
// `blocks_at_peak`: the entries are a snapshot's blocks at the peak, not activations.
SqlTableSpec memoryBySourceLineTable(qint64 peak, bool blocks_at_peak = false);

}  // namespace trainscope::ui
