// SPDX-License-Identifier: Apache-2.0
#include "reading/report_file.h"

#include "trainscope/report_format.h"

#include <QAtomicInt>
#include <QCoreApplication>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <algorithm>
#include <atomic>
#include <future>
#include <thread>
#include <vector>

#include "reading/file_read_ahead.h"
#include "reading/rowid_ranges.h"
#include "reading/untrusted_sqlite.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace trainscope::ui {
namespace {

struct TableContract {
    const char* table;
    const char* columns;
};

// The columns each kind's readers rely on (docs/report-formats.md).
const TableContract kMemoryTables[] = {
    {report_format::kWeightEntriesTable, "id, name, size_bytes, grad_size_bytes"},
    {report_format::kActivationEntriesTable, "id, operation_name, size_bytes"},
    {report_format::kStackCorrelationTable, "correlation_id, entry_id, entry_type"},
    {report_format::kStackFramesTable, "correlation_id, ordering, file_path, line_number"},
    {report_format::kMiscSizesTable, "key, size_bytes"},
};
const TableContract kTimeTables[] = {
    {report_format::kRunTimeEntriesTable, "id, operation_name, forward_ms, backward_ms"},
    {report_format::kStackFramesTable, "ordering, file_path, line_number, entry_id"},
};

QString newConnectionName() {
    static QAtomicInt counter;
    return QStringLiteral("trainscope-report-%1").arg(counter.fetchAndAddRelaxed(1));
}

// A value rule: rows of `table` where `condition` fails are refused, with `what` as the reason.
// A table's rules are listed together: they are checked in one scan.
struct ValueRule {
    const char* table;
    const char* condition;
    const char* what;
};

// Sizes and times that the app computes with: integers that fit exactly in a double and are
// not negative, finite times (SQLite stores infinity as a REAL; NaN reads as NULL), line numbers
// that fit in an int. A hostile or damaged report fails here with a message, never later in a
// chart or a table.
#define TS_SIZE(c) "typeof(" c ") = 'integer' AND " c " BETWEEN 0 AND 9007199254740992"
// A time is compared without the column's affinity (the unary +): then a text or a blob sorts
// above every number, and only an integer or a real lies between 0 and 1e15. This is what
// typeof() IN ('integer', 'real') says, at a third of its cost: the run time entries' scan is
// the largest of an open.
#define TS_TIME(c) c " IS NOT NULL AND +" c " BETWEEN 0 AND 1e15"
#define TS_INDEX(c) "typeof(" c ") = 'integer' AND " c " BETWEEN -2147483648 AND 2147483647"
// Paths and roots go to file functions: text, never a blob (whose bytes may hold a NUL).
#define TS_TEXT(c) "typeof(" c ") = 'text'"
const ValueRule kMemoryRules[] = {
    {report_format::kWeightEntriesTable, TS_SIZE("size_bytes") " AND " TS_SIZE("grad_size_bytes"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a size that is not a byte count")},
    {report_format::kActivationEntriesTable, TS_SIZE("size_bytes"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a size that is not a byte count")},
    {report_format::kMiscSizesTable, TS_SIZE("size_bytes"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a size that is not a byte count")},
};
const ValueRule kTimeRules[] = {
    {report_format::kRunTimeEntriesTable,
     TS_TIME("forward_ms") " AND (backward_ms IS NULL OR (" TS_TIME("backward_ms") "))",
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile",
                       "a time that is not a finite, non-negative number of milliseconds")},
};
// The frames of either kind, and TrainScope's library frames when present: checked after the
// report opened (ReportFile::framesProblem), as they are the largest tables (3 frames an entry
// in stack_frames; a model built from a library's modules, a torchvision one, has all of its
// frames, 7 an entry, in trainscope_library_frames) and no total, chart or table of entries
// reads them.
const ValueRule kFrameRules[] = {
    {report_format::kStackFramesTable, TS_INDEX("ordering") " AND " TS_INDEX("line_number"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a line number or ordering out of range")},
    {report_format::kStackFramesTable, TS_TEXT("file_path"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a file path that is not text")},
};
const ValueRule kLibraryFrameRules[] = {
    {report_format::kLibraryFramesTable, TS_INDEX("ordering") " AND " TS_INDEX("line_number"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a line number or ordering out of range")},
    {report_format::kLibraryFramesTable, TS_TEXT("file_path") " AND " TS_TEXT("library_root"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a file path that is not text")},
};
// TrainScope's own tables, checked when present.
const ValueRule kPeakByModuleRules[] = {
    {report_format::kPeakByModuleTable, TS_SIZE("size_bytes"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a size that is not a byte count")},
    {report_format::kPeakByModuleTable, TS_TEXT("module_path") " AND " TS_TEXT("kind"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a value that is not text")},
};
const ValueRule kEntryModuleRules[] = {
    {report_format::kEntryModulesTable, TS_INDEX("entry_id") " AND " TS_TEXT("module_path"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a module path that is not text")},
};
const ValueRule kActivationOperationRules[] = {
    {report_format::kActivationOperationsTable,
     TS_SIZE("entry_id") " AND " TS_SIZE("operation_number"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "an operation number that is not a count")},
};
const ValueRule kWeightDetailRules[] = {
    {report_format::kWeightDetailsTable,
     TS_SIZE("entry_id") " AND " TS_SIZE("optimizer_state_bytes"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a size that is not a byte count")},
    {report_format::kWeightDetailsTable, TS_TEXT("aliases"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a value that is not text")},
};
const ValueRule kMetadataRules[] = {
    {report_format::kMetadataTable, TS_TEXT("key") " AND " TS_TEXT("value"),
     QT_TRANSLATE_NOOP("trainscope::ui::ReportFile", "a value that is not text")},
};
#undef TS_SIZE
#undef TS_TIME
#undef TS_INDEX
#undef TS_TEXT

// Checks every table of the contract: a real table (not a view, whose query could be anything,
// nor a virtual table), with the columns readers rely on.
template <size_t N>
QString checkContract(QSqlDatabase& db, const TableContract (&tables)[N]) {
    for (const TableContract& contract : tables) {
        QSqlQuery kind(db);
        kind.prepare(QStringLiteral("SELECT type, sql FROM sqlite_master WHERE name = ?"));
        kind.addBindValue(QString::fromLatin1(contract.table));
        if (!kind.exec() || !kind.next())
            return QObject::tr("table %1 is missing").arg(QLatin1String(contract.table));
        if (kind.value(0).toString() != QLatin1String("table") ||
            kind.value(1).toString().startsWith(QLatin1String("CREATE VIRTUAL"),
                                                Qt::CaseInsensitive))
            return QObject::tr("%1 is not a plain table (it is a %2)")
                .arg(QLatin1String(contract.table), kind.value(0).toString().left(20));
        QSqlQuery query(db);
        const QString sql =
            QStringLiteral("SELECT %1 FROM %2 LIMIT 1").arg(contract.columns, contract.table);
        if (!query.exec(sql)) {
            return QObject::tr("table %1 lacks the columns %2 (%3)")
                .arg(contract.table, contract.columns, query.lastError().databaseText());
        }
    }
    return {};
}

// The rules of one table, `rules[0, count)`, over the rows with rowid in [first, last]: one
// scan for all of them (a report may hold millions of frames). The first row that breaks any
// of them is refused, with the first rule it breaks as the reason.
struct RuleGroup {
    const ValueRule* rules;
    size_t count;
};
struct RowRange {
    size_t group;
    qint64 first, last;
};

QString checkRange(QSqlDatabase& db, const RuleGroup& group, const RowRange& range) {
    const QLatin1String table(group.rules[0].table);
    QStringList conditions;
    for (size_t i = 0; i < group.count; ++i)
        conditions << QStringLiteral("(%1)").arg(QLatin1String(group.rules[i].condition));
    QSqlQuery query(db);
    query.prepare(
        QStringLiteral("SELECT rowid, %2 FROM %1 WHERE rowid BETWEEN ? AND ? AND NOT (%3) LIMIT 1")
            .arg(table, conditions.join(QStringLiteral(", ")),
                 conditions.join(QStringLiteral(" AND "))));
    query.addBindValue(range.first);
    query.addBindValue(range.last);
    if (!query.exec())
        return QObject::tr("table %1 cannot be read (%2)")
            .arg(table, query.lastError().databaseText());
    if (!query.next())
        return {};
    size_t broken = 0;
    while (broken + 1 < group.count && query.value(int(broken) + 1).toBool())
        ++broken;
    return QObject::tr("table %1 holds %2 (row %3)")
        .arg(table,
             QCoreApplication::translate("trainscope::ui::ReportFile", group.rules[broken].what))
        .arg(query.value(0).toLongLong());
}

// Each table's rowids cut into ranges (splitRowids) for `threads` to scan side by side.
std::vector<RowRange> rowRanges(QSqlDatabase& db, const std::vector<RuleGroup>& groups,
                                size_t threads, QString* problem) {
    std::vector<RowRange> ranges;
    for (size_t g = 0; g < groups.size(); ++g) {
        QSqlQuery bounds(db);
        // Two subqueries: SQLite reads a lone MIN or MAX of the rowid off the b-tree's edge,
        // but scans the whole table for both in one SELECT.
        if (!bounds.exec(QStringLiteral("SELECT (SELECT MIN(rowid) FROM %1), "
                                        "(SELECT MAX(rowid) FROM %1)")
                             .arg(QLatin1String(groups[g].rules[0].table))) ||
            !bounds.next()) {
            *problem = QObject::tr("table %1 cannot be read (%2)")
                           .arg(QLatin1String(groups[g].rules[0].table),
                                bounds.lastError().databaseText());
            return {};
        }
        if (bounds.value(0).isNull())
            continue;  // an empty table
        for (const RowidRange& range :
             splitRowids(bounds.value(0).toLongLong(), bounds.value(1).toLongLong(), threads))
            ranges.push_back({g, range.first, range.last});
    }
    return ranges;
}

// Runs `work(db, failed)` on a connection of the calling thread's own to `path`, opened as an
// untrusted file (`failed`: why it could not be, else empty), and closes it afterwards.
template <typename Work>
void onOwnConnection(const QString& path, Work work) {
    const QString connection = newConnectionName();
    const QString failed = openUntrusted(path, connection);
    {
        QSqlDatabase db = QSqlDatabase::database(connection, false);
        work(db, failed);
        db.close();
    }
    QSqlDatabase::removeDatabase(connection);
}

// The ranges in turn, from a shared counter, on a connection of this thread's own. Each range's
// scan has a time budget of its own (restartQueryClock), as on the caller's thread, whose first
// range is timed from when it opened the report. The caller's cancel flags stop the helpers too.
void checkRangesOnItsOwn(const QString& path, const std::vector<RuleGroup>& groups,
                         const std::vector<RowRange>& ranges, std::atomic<size_t>& next,
                         std::vector<QString>& problems, CancelFlags cancel) {
    watchCancelFlags(cancel);
    onOwnConnection(path, [&](QSqlDatabase& db, const QString& failed) {
        for (size_t i = next++; i < ranges.size(); i = next++) {
            restartQueryClock();
            problems[i] =
                failed.isEmpty() ? checkRange(db, groups[ranges[i].group], ranges[i]) : failed;
        }
    });
}

// The value rules: each table's rules in one scan per range of rows (rules of a table are
// listed together), the ranges checked side by side, up to `threads` at once (this thread's
// included). The first broken rule in table and row order is the reason given, whichever scan
// ends first.
template <size_t M>
QString checkValues(QSqlDatabase& db, const QString& path, const ValueRule (&rules)[M],
                    size_t threads) {
    QString problem;
    std::vector<RuleGroup> groups;
    for (size_t first = 0; first < M;) {
        size_t end = first + 1;
        while (end < M && qstrcmp(rules[end].table, rules[first].table) == 0)
            ++end;
        groups.push_back({rules + first, end - first});
        first = end;
    }
    const std::vector<RowRange> ranges = rowRanges(db, groups, threads, &problem);
    if (!problem.isEmpty() || ranges.empty())
        return problem;
    std::vector<QString> problems(ranges.size());
    std::atomic<size_t> next{0};
    std::vector<std::future<void>> helpers;
    for (size_t t = 1; t < threads && t < ranges.size(); ++t)
        helpers.push_back(std::async(std::launch::async, checkRangesOnItsOwn, std::cref(path),
                                     std::cref(groups), std::cref(ranges), std::ref(next),
                                     std::ref(problems), watchedCancelFlags()));
    for (size_t i = next++; i < ranges.size(); i = next++)
        problems[i] = checkRange(db, groups[ranges[i].group], ranges[i]);
    for (std::future<void>& helper : helpers)
        helper.get();
    for (const QString& found : problems) {
        if (!found.isEmpty())
            return found;
    }
    return {};
}

size_t allCores() {
    return std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 8);
}

// The contract, then the value rules on every core.
template <size_t N, size_t M>
QString checkTables(QSqlDatabase& db, const QString& path, const TableContract (&tables)[N],
                    const ValueRule (&rules)[M]) {
    const QString problem = checkContract(db, tables);
    return problem.isEmpty() ? checkValues(db, path, rules, allCores()) : problem;
}

// The frame rules, on a connection of this thread's own, with half the cores, behind the app.
QString checkFrames(const QString& path, bool library_frames, CancelFlags cancel) {
    runBehindTheApp();
    watchCancelFlags(cancel);
    QString problem;
    onOwnConnection(path, [&](QSqlDatabase& db, const QString& failed) {
        const size_t threads = std::max<size_t>(1, allCores() / 2);
        problem = failed.isEmpty() ? checkValues(db, path, kFrameRules, threads) : failed;
        if (problem.isEmpty() && library_frames)
            problem = checkValues(db, path, kLibraryFrameRules, threads);
    });
    return problem;
}

// `entry_module_columns`: the columns of trainscope_entry_modules that the report's kind has.
template <size_t N, size_t M>
QString checkReport(QSqlDatabase& db, const QString& path, const TableContract (&tables)[N],
                    const ValueRule (&rules)[M], const QStringList& names,
                    const char* entry_module_columns) {
    QString problem = checkTables(db, path, tables, rules);
    // TrainScope's own tables are optional, but the app queries them when they are there: they
    // are held to the same rules (a recursive view in place of the metadata would hang it).
    // The library frames' values are checked with the other frames, after the open.
    if (problem.isEmpty() && names.contains(QLatin1String(report_format::kLibraryFramesTable))) {
        const TableContract library[] = {
            {report_format::kLibraryFramesTable, "ordering, file_path, line_number, library_root"}};
        problem = checkContract(db, library);
    }
    if (problem.isEmpty() && names.contains(QLatin1String(report_format::kMetadataTable))) {
        const TableContract metadata[] = {{report_format::kMetadataTable, "key, value"}};
        problem = checkTables(db, path, metadata, kMetadataRules);
    }
    if (problem.isEmpty() && names.contains(QLatin1String(report_format::kPeakByModuleTable))) {
        const TableContract peak[] = {
            {report_format::kPeakByModuleTable, "module_path, kind, size_bytes"}};
        problem = checkTables(db, path, peak, kPeakByModuleRules);
    }
    if (problem.isEmpty() &&
        names.contains(QLatin1String(report_format::kActivationOperationsTable))) {
        const TableContract numbers[] = {
            {report_format::kActivationOperationsTable, "entry_id, operation_number"}};
        problem = checkTables(db, path, numbers, kActivationOperationRules);
    }
    if (problem.isEmpty() && names.contains(QLatin1String(report_format::kWeightDetailsTable))) {
        const TableContract details[] = {
            {report_format::kWeightDetailsTable, "entry_id, optimizer_state_bytes, aliases"}};
        problem = checkTables(db, path, details, kWeightDetailRules);
    }
    if (problem.isEmpty() && names.contains(QLatin1String(report_format::kEntryModulesTable))) {
        const TableContract modules[] = {{report_format::kEntryModulesTable, entry_module_columns}};
        problem = checkTables(db, path, modules, kEntryModuleRules);
    }
    return problem;
}

}  // namespace

void runBehindTheApp() {
#ifdef __linux__
    setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 10);
#endif
}

std::unique_ptr<ReportFile> ReportFile::open(const QString& path, QString* error) {
    auto fail = [&](const QString& why) {
        *error = QObject::tr("Cannot open %1: %2").arg(path, why);
        return nullptr;
    };
    const QFileInfo info(path);
    if (!info.exists())
        return fail(QObject::tr("the file does not exist"));
    if (info.isDir())
        return fail(QObject::tr("it is a folder, not a report file"));
    if (!info.isFile())
        return fail(QObject::tr("it is not a regular file (a FIFO, a device or a socket)"));
    if (!info.isReadable())
        return fail(QObject::tr("the file is not readable"));
    if (info.size() == 0)
        return fail(QObject::tr("the file is empty"));

    const QString connection = newConnectionName();
    ReportKind kind = ReportKind::Memory;
    QString problem;
    QStringList names;
    std::unique_ptr<FileReadAhead> read_ahead;
    {
        problem = openUntrusted(path, connection);
        QSqlDatabase db = QSqlDatabase::database(connection, false);
        if (problem.isEmpty()) {
            QSqlQuery tables(db);
            // Views too: one standing in for a standard table is refused by name below.
            if (!tables.exec(QStringLiteral(
                    "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"))) {
                problem =
                    QObject::tr("not an SQLite report (%1)").arg(tables.lastError().databaseText());
            } else {
                while (tables.next())
                    names << tables.value(0).toString();
                const bool memory =
                    names.contains(QLatin1String(report_format::kWeightEntriesTable));
                const bool time =
                    names.contains(QLatin1String(report_format::kRunTimeEntriesTable));
                // A report: its file is read on while its tables are checked and read.
                if (memory || time)
                    read_ahead = std::make_unique<FileReadAhead>(path);
                if (memory) {
                    kind = ReportKind::Memory;
                    problem = checkReport(db, path, kMemoryTables, kMemoryRules, names,
                                          "entry_type, entry_id, module_path");
                } else if (time) {
                    kind = ReportKind::Time;
                    problem = checkReport(db, path, kTimeTables, kTimeRules, names,
                                          "entry_id, module_path");
                } else {
                    problem = QObject::tr(
                        "an SQLite database, but not a known report (it has no "
                        "weight_entries, run_time_entries or timeline table)");
                }
            }
        }
        if (!problem.isEmpty())
            db.close();
    }
    if (!problem.isEmpty()) {
        QSqlDatabase::removeDatabase(connection);
        return fail(problem);
    }
    return std::unique_ptr<ReportFile>(new ReportFile(
        path, connection, kind, names, watchedCancelFlags().first, std::move(read_ahead)));
}

std::unique_ptr<ReportFile> ReportFile::reopen(QString* error) const {
    const QString connection = newConnectionName();
    const QString problem = openUntrusted(path_, connection);
    if (!problem.isEmpty()) {
        QSqlDatabase::removeDatabase(connection);
        *error = QObject::tr("Cannot open %1: %2").arg(path_, problem);
        return nullptr;
    }
    return std::unique_ptr<ReportFile>(
        new ReportFile(path_, connection, kind_, tables_, watchedCancelFlags().first, nullptr));
}

ReportFile::ReportFile(QString path, QString connection, ReportKind kind, QStringList tables,
                       const std::atomic<bool>* opener_stop,
                       std::unique_ptr<FileReadAhead> read_ahead)
    : path_(std::move(path)),
      connection_(std::move(connection)),
      kind_(kind),
      tables_(std::move(tables)),
      opener_stop_(opener_stop),
      read_ahead_(std::move(read_ahead)) {}

ReportFile::~ReportFile() {
    closing_ = true;  // stops the frames check within milliseconds
    std::shared_future<QString> check;
    {
        std::lock_guard<std::mutex> lock(frames_mutex_);
        check = frames_check_;
    }
    if (check.valid())
        check.wait();
    {
        QSqlDatabase db = QSqlDatabase::database(connection_, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(connection_);
}

QSqlDatabase ReportFile::database() const {
    return QSqlDatabase::database(connection_, false);
}

std::shared_future<QString> ReportFile::framesCheck() const {
    std::lock_guard<std::mutex> lock(frames_mutex_);
    if (!frames_check_.valid()) {
        frames_check_ = std::async(std::launch::async, checkFrames, path_,
                                   hasTable(report_format::kLibraryFramesTable),
                                   CancelFlags{&closing_, opener_stop_})
                            .share();
    }
    return frames_check_;
}

void ReportFile::startFramesCheck() const {
    (void)framesCheck();
}

QString ReportFile::framesProblem() const {
    return framesCheck().get();
}

}  // namespace trainscope::ui
