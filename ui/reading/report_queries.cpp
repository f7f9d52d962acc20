// SPDX-License-Identifier: Apache-2.0
#include "reading/report_queries.h"

#include <QSqlError>
#include <QSqlQuery>

#include "reading/untrusted_sqlite.h"
#include "trainscope/import_notes.h"
#include "trainscope/report_format.h"
#include "trainscope/report_reading.h"

namespace trainscope::ui {
namespace {

// The tables these queries read (report_format.h).
const QLatin1String kWeights(report_format::kWeightEntriesTable);
const QLatin1String kActivations(report_format::kActivationEntriesTable);
const QLatin1String kOperations(report_format::kRunTimeEntriesTable);
const QLatin1String kStackFrames(report_format::kStackFramesTable);
const QLatin1String kStackCorrelation(report_format::kStackCorrelationTable);
const QLatin1String kLibraryFrames(report_format::kLibraryFramesTable);

TopEntries topEntries(QSqlDatabase db, const QString& sql, const QVariantList& values = {}) {
    restartQueryClock();
    TopEntries entries;
    QSqlQuery query(db);
    query.setForwardOnly(true);
    bool ran = query.prepare(sql);
    for (const QVariant& value : values)
        query.addBindValue(value);
    if (ran && query.exec()) {
        while (query.next()) {
            entries.rows.push_back({query.value(0).toLongLong(), query.value(1).toString(),
                                    query.value(2).toDouble(), query.value(3).toDouble(),
                                    query.value(4).toString(), query.value(5).toLongLong(),
                                    query.value(6).toDouble(), query.value(7).toDouble()});
        }
    }
    if (query.lastError().isValid())
        entries.error = query.lastError().text();
    return entries;
}

// Whether the report's frames failed their check (ReportFile::framesProblem), which `error`
// (may be null) then says.
bool framesUnusable(const ReportFile& report, QString* error) {
    const QString problem = report.framesProblem();
    if (error && !problem.isEmpty())
        *error = problem;
    return !problem.isEmpty();
}

// "x / total" as an SQL expression, safe for a zero total.
QString shareOf(const QString& expression, double total) {
    return QStringLiteral("(%1) * 1.0 / %2").arg(expression).arg(qMax(total, 1e-9), 0, 'g', 17);
}

// Source-line tables open ranked: the largest share (their last column) first, written as
// SqlTableModel::sort() would write it, so that the view's header agrees without a re-query.
QString largestShareFirst(int columns) {
    return QStringLiteral("%1 DESC, 1").arg(columns);
}

const QString kOperationTotal = QStringLiteral("(forward_ms + IFNULL(backward_ms, 0))");

// The module of each entry of `entry_table` (empty outside any submodule), as an SQL
// expression, when the report has TrainScope's module table (other tools' reports do not:
// empty then). `entry_type` 0: the run time report, whose table is keyed by the entry id alone.
QString moduleOfEntry(const QStringList& tables, const QString& entry_table, int entry_type) {
    if (!tables.contains(QLatin1String(report_format::kEntryModulesTable)))
        return {};
    QString match = QStringLiteral("m.entry_id = %1.id").arg(entry_table);
    if (entry_type)
        match += QStringLiteral(" AND m.entry_type = %1").arg(entry_type);
    return QStringLiteral("(SELECT substr(m.module_path, 1, %1) FROM %2 m WHERE %3)")
        .arg(kMaxShownText)
        .arg(QLatin1String(report_format::kEntryModulesTable), match);
}

// An operation as the app names it: "module · operation" (blocks_0.mlp.lin_0 · aten::linear)
// where the report knows the module, else the operation's name alone.
QString operationLabel(const QStringList& tables, const QString& entry_table, int entry_type) {
    const QString module = moduleOfEntry(tables, entry_table, entry_type);
    if (module.isEmpty())
        return QStringLiteral("operation_name");
    return QStringLiteral("IFNULL(%1 || ' · ', '') || operation_name").arg(module);
}

// The number of the operation that allocated an activation (activation_entries' row), as an
// SQL expression; NULL where the report does not record it.
QString activationNumber(const QStringList& tables) {
    if (!tables.contains(QLatin1String(report_format::kActivationOperationsTable)))
        return QStringLiteral("NULL");
    return QStringLiteral("(SELECT o.operation_number FROM %1 o WHERE o.entry_id = %2.id)")
        .arg(QLatin1String(report_format::kActivationOperationsTable), kActivations);
}

// The part of the step of each entry of the run time report (trainscope_entry_parts' name; NULL:
// a forward operation), as an SQL expression; "NULL" for a report without the table.
QString partOfEntry(const QStringList& tables, const QString& entry_table) {
    if (!tables.contains(QLatin1String(report_format::kEntryPartsTable)))
        return QStringLiteral("NULL");
    return QStringLiteral("(SELECT p.part FROM %1 p WHERE p.entry_id = %2.id)")
        .arg(QLatin1String(report_format::kEntryPartsTable), entry_table);
}

// Whether the run time report has operations outside the forward and backward passes (the
// optimizer's step, clipping after the backward pass): their time is not forward time.
bool hasOtherParts(const PartTimes& times) {
    return times.after_backward_operations > 0 || times.optimizer_operations > 0;
}

// An SQL text literal of `text` (a translation).
QString sqlText(const QString& text) {
    return QLatin1Char('\'') + QString(text).replace(QLatin1Char('\''), QStringLiteral("''")) +
           QLatin1Char('\'');
}

// The entry's part of the step, named in the interface's language.
QString partName(const QString& part) {
    return QStringLiteral(
               "CASE %1 WHEN '%2' THEN %3 WHEN '%4' THEN %5 WHEN '%6' THEN %7 ELSE %8 END")
        .arg(part, QLatin1String(report_format::kPartAfterBackward),
             sqlText(QObject::tr("After backward")), QLatin1String(report_format::kPartOptimizer),
             sqlText(QObject::tr("Optimizer")), QLatin1String(report_format::kPartRecomputed),
             sqlText(QObject::tr("Recomputed")), sqlText(QObject::tr("Forward")));
}

// The time columns: Forward and Backward; where the step ran operations after its backward
// pass, an entry's own time (forward_ms, the time of its part: an optimizer operation's is
// optimizer time) is its Call, beside its Part where `with_part` (one column for each part
// would not fit beside the names). Where the times are the device's (an imported GPU trace:
// trainscope_entry_cpu_times), each header says so, and the CPU's times follow: short headers
// ("Device fwd"), as four time columns beside the names leave them little room. `entry`: the
// run time entries' name in the FROM clause; `summed`: the columns of a grouped table.
QVector<SqlColumn> partTimeColumns(const QStringList& tables, const PartTimes& times,
                                   const QString& entry, bool summed, bool with_part) {
    const auto column = [&](const QString& header, const QString& expression) {
        return SqlColumn{header, summed ? QStringLiteral("SUM(%1)").arg(expression) : expression,
                         CellFormat::Milliseconds};
    };
    const bool device = tables.contains(QLatin1String(report_format::kEntryCpuTimesTable));
    const QString backward = QStringLiteral("%1.backward_ms").arg(entry);
    const QString own = QStringLiteral("%1.forward_ms").arg(entry);
    QVector<SqlColumn> columns;
    const bool parts = hasOtherParts(times);
    if (parts && with_part)
        columns << SqlColumn{QObject::tr("Part"), partName(partOfEntry(tables, entry)),
                             CellFormat::Text};
    if (!device) {
        columns << column(parts ? QObject::tr("Call") : QObject::tr("Forward"), own)
                << column(QObject::tr("Backward"), backward);
        return columns;
    }
    const auto cpu = [&](const char* figure) {
        return QStringLiteral("(SELECT c.%1 FROM %2 c WHERE c.entry_id = %3.id)")
            .arg(QLatin1String(figure), QLatin1String(report_format::kEntryCpuTimesTable), entry);
    };
    columns << column(parts ? QObject::tr("Device call") : QObject::tr("Device fwd"), own)
            << column(QObject::tr("Device bwd"), backward)
            << column(parts ? QObject::tr("CPU call") : QObject::tr("CPU fwd"), cpu("forward_ms"))
            << column(QObject::tr("CPU bwd"), cpu("backward_ms"));
    return columns;
}

// The Total column's header: the device's where the times are (partTimeColumns()).
QString totalHeader(const QStringList& tables) {
    return tables.contains(QLatin1String(report_format::kEntryCpuTimesTable))
               ? QObject::tr("Device total")
               : QObject::tr("Total");
}

// moduleOfEntry() as a query's last column ('' where the report has no modules).
QString moduleColumn(const ReportFile& report, const QString& entry_table, int entry_type) {
    const QString module = moduleOfEntry(report.tables(), entry_table, entry_type);
    return module.isEmpty() ? QStringLiteral("''") : QStringLiteral("IFNULL(%1, '')").arg(module);
}

}  // namespace

// The totals are the core's reading of the file (trainscope/report_reading.h), the one that
// `trainscope-cli show` prints: one reading of a report's totals.
std::optional<ReportFileSummary> totalsOf(const ReportFile& report, QString* error) {
    try {
        return summarizeReportFile(report.path().toStdString());
    } catch (const std::exception& e) {
        *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

std::optional<MemorySummary> memorySummary(const ReportFile& report, QString* error) {
    const std::optional<ReportFileSummary> totals = totalsOf(report, error);
    if (!totals)
        return std::nullopt;
    return MemorySummary{totals->peak_bytes.value_or(0),
                         totals->weight_bytes,
                         totals->gradient_bytes,
                         totals->activation_bytes,
                         totals->at_peak,
                         totals->weights,
                         totals->sharded,
                         totals->names_weights,
                         totals->lists_blocks_at_peak,
                         QString::fromStdString(totals->memory_note)};
}

std::optional<TimeSummary> timeSummary(const ReportFile& report, QString* error) {
    const std::optional<ReportFileSummary> totals = totalsOf(report, error);
    if (!totals)
        return std::nullopt;
    return TimeSummary{totals->times,
                       totals->operations,
                       totals->iteration_wall_ms,
                       totals->compilations,
                       QString::fromStdString(totals->compiled_steps),
                       totals->kernels,
                       QString::fromStdString(totals->backward_not_attributed),
                       totals->time_metadata};
}

QString metadataValue(const ReportFile& report, const QString& key, QString* error) {
    restartQueryClock();
    QSqlQuery query(report.database());
    query.prepare(QStringLiteral("SELECT substr(value, 1, %1) FROM %2 WHERE key = ?")
                      .arg(kMaxShownText)
                      .arg(QLatin1String(report_format::kMetadataTable)));
    query.addBindValue(key);
    if (query.exec() && query.next())
        return query.value(0).toString();
    // A report without the table (Skyline's, DeepView's) simply has no metadata.
    if (error && query.lastError().isValid() && report.hasTable(report_format::kMetadataTable))
        *error = query.lastError().databaseText();
    return {};
}

TopEntries topOperationsByTime(const ReportFile& report, int count, const RowFilter& filter,
                               bool grouped) {
    // The tables' own conditions (SqlTableModel): the name as typed, the run's entry range.
    QStringList conditions;
    QVariantList values;
    if (!filter.text.isEmpty()) {
        conditions << QStringLiteral("operation_name LIKE ? ESCAPE '\\'");
        values << likePattern(filter.text);
    }
    if (filter.entries) {
        conditions << QStringLiteral("id BETWEEN ? AND ?");
        values << filter.entries->first << filter.entries->last;
    }
    const QString where =
        conditions.isEmpty() ? QString()
                             : QStringLiteral(" WHERE ") + conditions.join(QStringLiteral(" AND "));
    // Forward, backward, after backward and optimizer time: forward_ms is the time of the
    // entry's part of the step (no row: a forward operation).
    const bool has_parts = report.tables().contains(QLatin1String(report_format::kEntryPartsTable));
    const QString part = has_parts ? QStringLiteral("p.part") : QStringLiteral("NULL");
    const QString from = has_parts
                             ? QStringLiteral("%1 LEFT JOIN %2 p ON p.entry_id = %1.id")
                                   .arg(kOperations, QLatin1String(report_format::kEntryPartsTable))
                             : QString(kOperations);
    const auto summed = [grouped](const QString& expression) {
        return grouped ? QStringLiteral("SUM(%1)").arg(expression) : expression;
    };
    const auto inPart = [&part](const char* name) {
        return QStringLiteral("CASE WHEN %1 = '%2' THEN forward_ms ELSE 0 END")
            .arg(part, QLatin1String(name));
    };
    // id, name, forward, backward, module, number, after backward, optimizer (topEntries()).
    const QString columns =
        QStringLiteral("%1, %2, %3, %4, %5")
            .arg(
                summed(QStringLiteral("CASE WHEN %1 IS NULL THEN forward_ms ELSE 0 END").arg(part)),
                summed(QStringLiteral("IFNULL(backward_ms, 0)")),
                grouped ? QStringLiteral("'', 0") : moduleColumn(report, kOperations, 0) + ", id",
                summed(inPart(report_format::kPartAfterBackward)),
                summed(inPart(report_format::kPartOptimizer)));
    const QString sql = grouped ? QStringLiteral(
                                      "SELECT MIN(id), substr(operation_name, 1, %1), %2 FROM %3%4 "
                                      "GROUP BY operation_name ORDER BY SUM%5 DESC, 1 LIMIT %6")
                                : QStringLiteral(
                                      "SELECT id, substr(operation_name, 1, %1), %2 FROM %3%4 "
                                      "ORDER BY %5 DESC, id LIMIT %6");
    return topEntries(report.database(),
                      sql.arg(kMaxShownText).arg(columns, from, where, kOperationTotal).arg(count),
                      values);
}

// A memory snapshot's entries are categories, each again at every line: its bars say the line
// too (the file name and line of the entry's most specific frame), as `show` lists them.
static QString lineOfBlocksColumn() {
    return QStringLiteral(
               "IFNULL((SELECT replace(f.file_path, rtrim(f.file_path, replace(f.file_path, '/', "
               "'')), '') || ':' || f.line_number FROM %1 c JOIN %2 f ON f.correlation_id = "
               "c.correlation_id WHERE c.entry_type = %3 AND c.entry_id = %4.id ORDER BY "
               "f.ordering LIMIT 1), '')")
        .arg(kStackCorrelation, kStackFrames)
        .arg(report_format::kEntryTypeActivation)
        .arg(kActivations);
}

TopEntries topActivations(const ReportFile& report, int count, const QString& name_filter) {
    const bool blocks = listsBlocksAtPeak(
        metadataValue(report, QLatin1String(report_format::kImportedFormatKey)).toStdString());
    // The activations table's own filter: the operation's name as typed.
    QString where;
    QVariantList values;
    if (!name_filter.isEmpty()) {
        where = QStringLiteral(" WHERE operation_name LIKE ? ESCAPE '\\'");
        values << likePattern(name_filter);
    }
    return topEntries(
        report.database(),
        QStringLiteral("SELECT id, substr(operation_name, 1, %2), size_bytes, 0, "
                       "%3, %5 FROM %4%6 ORDER BY size_bytes DESC, id "
                       "LIMIT %1")
            .arg(count)
            .arg(kMaxShownText)
            .arg(blocks ? lineOfBlocksColumn()
                        : moduleColumn(report, kActivations, report_format::kEntryTypeActivation),
                 kActivations, activationNumber(report.tables()), where),
        values);
}

TopEntries topModulesAtPeak(const ReportFile& report, int count) {
    if (!report.hasTable(report_format::kPeakByModuleTable))
        return {};
    return topEntries(report.database(),
                      QStringLiteral("SELECT 0, substr(module_path, 1, %2), SUM(size_bytes), 0 "
                                     "FROM %3 WHERE module_path != '' GROUP BY module_path "
                                     "ORDER BY 3 DESC, 2 LIMIT %1")
                          .arg(count)
                          .arg(kMaxShownText)
                          .arg(QLatin1String(report_format::kPeakByModuleTable)));
}

TopEntries topWeights(const ReportFile& report, int count) {
    return topEntries(report.database(),
                      QStringLiteral("SELECT id, substr(name, 1, %2), size_bytes, "
                                     "grad_size_bytes FROM %3 ORDER BY "
                                     "size_bytes DESC, id LIMIT %1")
                          .arg(count)
                          .arg(kMaxShownText)
                          .arg(kWeights));
}

SqlTableSpec weightsTable(const QStringList& tables, qint64 peak) {
    SqlTableSpec spec{
        {{QObject::tr("Id"), QStringLiteral("id"), CellFormat::Integer},
         {QObject::tr("Weight"), QStringLiteral("name"), CellFormat::Text},
         {QObject::tr("Size"), QStringLiteral("size_bytes"), CellFormat::Bytes},
         {QObject::tr("Gradient"), QStringLiteral("grad_size_bytes"), CellFormat::Bytes},
         {QObject::tr("Share of peak"), shareOf(QStringLiteral("size_bytes"), peak),
          CellFormat::Share}},
        kWeights,
        {},
        QStringLiteral("name"),
        {},
        {}};  // no entry ids of the run time report
    // The optimizer's tensors for each weight, and a tied weight's other names, where the
    // report records them: "wte.weight = head.weight", one tensor under both names.
    if (tables.contains(QLatin1String(report_format::kWeightDetailsTable))) {
        const auto detail = [](const char* column) {
            return QStringLiteral("(SELECT d.%1 FROM %2 d WHERE d.entry_id = %3.id)")
                .arg(QLatin1String(column), QLatin1String(report_format::kWeightDetailsTable),
                     kWeights);
        };
        spec.columns[1].expression =
            QStringLiteral("name || IFNULL(' = ' || NULLIF(REPLACE(%1, ', ', ' = '), ''), '')")
                .arg(detail("aliases"));
        spec.columns.insert(4,
                            {QObject::tr("Optimizer"),
                             QStringLiteral("IFNULL(%1, 0)").arg(detail("optimizer_state_bytes")),
                             CellFormat::Bytes});
        spec.filter_expression = spec.columns[1].expression;  // finds either name
    }
    // No Module column: a weight's name is its module's path and its own (lin_0.weight), and
    // the name needs the width.
    return spec;
}

SqlTableSpec activationsTable(const QStringList& tables, qint64 peak, bool blocks_at_peak) {
    // The operation's number (#, as on the Time tab), where the report records it.
    const bool numbered = tables.contains(QLatin1String(report_format::kActivationOperationsTable));
    const QString number = activationNumber(tables);
    return {{{QObject::tr("Id"), QStringLiteral("id"), CellFormat::Integer},
             {QObject::tr("Name"), QStringLiteral("operation_name"), CellFormat::Text},
             {QObject::tr("#"), number, CellFormat::Integer},
             {blocks_at_peak ? QObject::tr("Category") : QObject::tr("Operation"),
              operationLabel(tables, kActivations, report_format::kEntryTypeActivation),
              CellFormat::Text},
             {QObject::tr("Size"), QStringLiteral("size_bytes"), CellFormat::Bytes},
             {QObject::tr("Share of peak"), shareOf(QStringLiteral("size_bytes"), peak),
              CellFormat::Share}},
            kActivations,
            {},
            QStringLiteral("operation_name"),
            {},
            {},
            numbered ? QVector<int>{0, 1} : QVector<int>{0, 1, 2}};
}

SqlTableSpec operationsTable(const QStringList& tables, const PartTimes& times) {
    // The entry id is the operation's number in the iteration: shown, as #.
    QVector<SqlColumn> columns{
        {QObject::tr("#"), QStringLiteral("id"), CellFormat::Integer},
        {QObject::tr("Name"), QStringLiteral("operation_name"), CellFormat::Text},
        {QObject::tr("Operation"), operationLabel(tables, kOperations, 0), CellFormat::Text}};
    columns << partTimeColumns(tables, times, kOperations, false, true);
    columns << SqlColumn{totalHeader(tables), kOperationTotal, CellFormat::Milliseconds}
            << SqlColumn{QObject::tr("Share"), shareOf(kOperationTotal, times.sum()),
                         CellFormat::Share};
    return {columns, kOperations,          {}, QStringLiteral("operation_name"),
            {},      QStringLiteral("id"), {1}};
}

SqlTableSpec groupedOperationsTable(const QStringList& tables, const PartTimes& times) {
    const QString total = QStringLiteral("SUM%1").arg(kOperationTotal);
    QVector<SqlColumn> columns{
        {QObject::tr("Id"), QStringLiteral("MIN(id)"), CellFormat::Integer},
        {QObject::tr("Operation"), QStringLiteral("operation_name"), CellFormat::Text},
        {QObject::tr("Count"), QStringLiteral("COUNT(*)"), CellFormat::Integer}};
    columns << partTimeColumns(tables, times, kOperations, true, true);
    columns << SqlColumn{totalHeader(tables), total, CellFormat::Milliseconds}
            << SqlColumn{QObject::tr("Mean"), QStringLiteral("%1 / COUNT(*)").arg(total),
                         CellFormat::Milliseconds}
            << SqlColumn{QObject::tr("Share"), shareOf(total, times.sum()), CellFormat::Share};
    // The same operation in another part of the step (aten::mul_ in the forward pass and in the
    // optimizer's) is a group of its own.
    const QString group =
        hasOtherParts(times)
            ? QStringLiteral("operation_name, %1").arg(partOfEntry(tables, kOperations))
            : QStringLiteral("operation_name");
    return {columns, kOperations,         group, QStringLiteral("operation_name"),
            {},      QStringLiteral("id")};
}

SqlTableSpec timeBySourceLineTable(const QStringList& tables, const PartTimes& times) {
    // The most specific frame is the one with the lowest ordering (docs/report-formats.md); with
    // MIN(), SQLite takes the bare columns from that row, in one pass over the frames. Entries
    // without a frame make a row of their own, so that the lines add up to the Overview's sum:
    // a RIGHT JOIN (SQLite 3.39), which runs as the inner join and then a pass for the entries
    // left over: cheaper than a LEFT JOIN from the entries.
    const QString from = QStringLiteral(
                             "(SELECT entry_id, file_path, line_number, MIN(ordering) FROM %1 "
                             "GROUP BY entry_id) f RIGHT JOIN %2 e ON e.id = f.entry_id")
                             .arg(kStackFrames, kOperations);
    const QString total = QStringLiteral("SUM(e.forward_ms + IFNULL(e.backward_ms, 0))");
    QVector<SqlColumn> columns{
        {QObject::tr("Id"), QStringLiteral("MIN(e.id)"), CellFormat::Integer},
        {QObject::tr("File"), QStringLiteral("f.file_path"), CellFormat::Text,
         QObject::tr("(no frame)")},
        {QObject::tr("Line"), QStringLiteral("f.line_number"), CellFormat::Integer,
         QStringLiteral(" ")},
        {QObject::tr("Operations"), QStringLiteral("COUNT(*)"), CellFormat::Integer}};
    columns << partTimeColumns(tables, times, QStringLiteral("e"), true, false);
    columns << SqlColumn{totalHeader(tables), total, CellFormat::Milliseconds}
            << SqlColumn{QObject::tr("Share"), shareOf(total, times.sum()), CellFormat::Share};
    return {columns,
            from,
            QStringLiteral("f.file_path, f.line_number"),
            QStringLiteral("f.file_path"),
            largestShareFirst(columns.size()),
            QStringLiteral("e.id")};
}

SqlTableSpec memoryBySourceLineTable(qint64 peak, bool blocks_at_peak) {
    // Every weight and activation, with its most specific frame where it has one: those
    // without make a row of their own.
    const QString from =
        QStringLiteral(
            "(SELECT %4 AS entry_type, id, size_bytes FROM %3 "
            "UNION ALL SELECT %6, id, size_bytes FROM %5) x "
            "LEFT JOIN %2 c ON c.entry_type = x.entry_type AND c.entry_id = x.id "
            "LEFT JOIN (SELECT correlation_id, file_path, line_number, MIN(ordering) FROM %1 "
            "GROUP BY correlation_id) f ON f.correlation_id = c.correlation_id")
            .arg(kStackFrames, kStackCorrelation, kWeights)
            .arg(report_format::kEntryTypeWeight)
            .arg(kActivations)
            .arg(report_format::kEntryTypeActivation);
    const QString weights = QStringLiteral(
                                "SUM(CASE x.entry_type WHEN %1 THEN x.size_bytes "
                                "ELSE 0 END)")
                                .arg(report_format::kEntryTypeWeight);
    const QString activations = QStringLiteral(
                                    "SUM(CASE x.entry_type WHEN %1 THEN x.size_bytes "
                                    "ELSE 0 END)")
                                    .arg(report_format::kEntryTypeActivation);
    const QString total = QStringLiteral("(%1 + %2)").arg(weights, activations);
    // MIN(x.entry_type * 2^32 + x.id) is unique per row (each entry is in one), as every
    // order's last column must be.
    return {{{QObject::tr("Id"), QStringLiteral("MIN(x.entry_type * 4294967296 + x.id)"),
              CellFormat::Integer},
             {QObject::tr("File"), QStringLiteral("f.file_path"), CellFormat::Text,
              QObject::tr("(no frame)")},
             {QObject::tr("Line"), QStringLiteral("f.line_number"), CellFormat::Integer,
              QStringLiteral(" ")},
             {QObject::tr("Weights"), weights, CellFormat::Bytes},
             {blocks_at_peak ? QObject::tr("At the peak") : QObject::tr("Activations"), activations,
              CellFormat::Bytes},
             {QObject::tr("Share of peak"), shareOf(total, peak), CellFormat::Share}},
            from,
            QStringLiteral("f.file_path, f.line_number"),
            QStringLiteral("f.file_path"),
            largestShareFirst(6),
            {}};
}

QVector<FrameRow> stackFrames(const ReportFile& report, EntryTable table, qint64 entry_id,
                              QString* error) {
    QVector<FrameRow> frames;
    if (framesUnusable(report, error))
        return frames;
    restartQueryClock();
    const bool library = report.hasTable(report_format::kLibraryFramesTable);
    // The frames of one entry from a frames table: (ordering, path, line, library root).
    QString project, libraries;
    if (table == EntryTable::Operation) {
        project = QStringLiteral(
            "SELECT ordering, substr(file_path, 1, %1), line_number, '' FROM %2 "
            "WHERE entry_id = :id");
        libraries = QStringLiteral(
            "SELECT ordering, substr(file_path, 1, %1), line_number, substr(library_root, 1, %1) "
            "FROM %2 WHERE entry_id = :id");
    } else {
        const QString correlation = QStringLiteral(
                                        "(SELECT correlation_id FROM %1 WHERE entry_type = :type "
                                        "AND entry_id = :id)")
                                        .arg(kStackCorrelation);
        project = QStringLiteral(
                      "SELECT ordering, substr(file_path, 1, %1), line_number, '' FROM "
                      "%2 WHERE correlation_id IN ") +
                  correlation;
        libraries = QStringLiteral(
                        "SELECT ordering, substr(file_path, 1, %1), line_number, "
                        "substr(library_root, 1, %1) FROM %2 WHERE correlation_id IN ") +
                    correlation;
    }
    QString sql = project.arg(kMaxShownText).arg(kStackFrames);
    if (library)
        sql += QStringLiteral(" UNION ALL ") + libraries.arg(kMaxShownText).arg(kLibraryFrames);
    QSqlQuery query(report.database());
    query.prepare(QStringLiteral("SELECT * FROM (%1) ORDER BY 1").arg(sql));
    query.bindValue(QStringLiteral(":id"), entry_id);
    if (table != EntryTable::Operation)
        query.bindValue(QStringLiteral(":type"), table == EntryTable::Weight
                                                     ? report_format::kEntryTypeWeight
                                                     : report_format::kEntryTypeActivation);
    if (!query.exec()) {
        if (error)
            *error = query.lastError().databaseText();
        return frames;
    }
    while (query.next()) {
        frames.push_back(
            {query.value(1).toString(), query.value(2).toInt(), query.value(3).toString()});
    }
    if (error && query.lastError().isValid())  // a row that could not be read ends the loop
        *error = query.lastError().databaseText();
    return frames;
}

QVector<FrameRow> callSites(const ReportFile& report, const QString& operation, QString* error) {
    QVector<FrameRow> sites;
    if (framesUnusable(report, error))
        return sites;
    restartQueryClock();
    QSqlQuery query(report.database());
    query.prepare(QStringLiteral("SELECT substr(file_path, 1, %1), line_number, COUNT(*) FROM "
                                 "(SELECT entry_id, file_path, line_number, MIN(ordering) FROM %2 "
                                 "WHERE entry_id IN (SELECT id FROM %3 WHERE operation_name = ?) "
                                 "GROUP BY entry_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 100")
                      .arg(kMaxShownText)
                      .arg(kStackFrames, kOperations));
    query.addBindValue(operation);
    if (query.exec()) {
        while (query.next())
            sites.push_back({query.value(0).toString(), query.value(1).toInt(), QString()});
    }
    if (error && query.lastError().isValid())
        *error = query.lastError().databaseText();
    return sites;
}

void addLineCosts(const ReportFile& report, const QString& file, LineCosts* costs) {
    QString problem;
    if (framesUnusable(report, &problem)) {
        if (costs->error.isEmpty())
            costs->error = problem;
        return;
    }
    restartQueryClock();
    QSqlQuery query(report.database());
    query.setForwardOnly(true);
    const bool time = report.kind() == ReportKind::Time;
    // DISTINCT: an entry whose stack passes a line twice (recursion) counts there once.
    if (time) {
        query.prepare(QStringLiteral("SELECT f.line_number, SUM(%1) FROM (SELECT DISTINCT "
                                     "entry_id, line_number FROM %2 WHERE file_path = ?) f "
                                     "JOIN %3 e ON e.id = f.entry_id GROUP BY 1")
                          .arg(QStringLiteral("e.forward_ms + IFNULL(e.backward_ms, 0)"),
                               kStackFrames, kOperations));
    } else {
        query.prepare(
            QStringLiteral(
                "SELECT f.line_number, SUM(x.size_bytes) FROM (SELECT DISTINCT correlation_id, "
                "line_number FROM %1 WHERE file_path = ?) f JOIN %2 c ON c.correlation_id = "
                "f.correlation_id JOIN (SELECT %3 AS entry_type, id, size_bytes FROM %4 UNION "
                "ALL SELECT %5, id, size_bytes FROM %6) x ON x.entry_type = c.entry_type AND "
                "x.id = c.entry_id GROUP BY 1")
                .arg(kStackFrames, kStackCorrelation)
                .arg(report_format::kEntryTypeWeight)
                .arg(kWeights)
                .arg(report_format::kEntryTypeActivation)
                .arg(kActivations));
    }
    query.addBindValue(file);
    if (query.exec()) {
        while (query.next()) {
            const int line = query.value(0).toInt();
            if (time)
                costs->time_ms[line] += query.value(1).toDouble();
            else
                costs->bytes[line] += query.value(1).toLongLong();
        }
    }
    if (query.lastError().isValid() && costs->error.isEmpty())
        costs->error = query.lastError().databaseText();
}

RowPage readReportRows(const ReportFile& report, const RowRequest& request) {
    // The SQL is the views' own (values are bound), so naming the table is reading it.
    RowPage page;
    if (request.sql.contains(kStackFrames) && framesUnusable(report, &page.error))
        return page;
    return readRows(report.database(), request);
}

QStringList libraryRoots(const ReportFile& report, QString* error) {
    QStringList roots;
    if (!report.hasTable(report_format::kLibraryFramesTable))
        return roots;
    restartQueryClock();
    QSqlQuery query(report.database());
    // Text only: the values are checked after the open (ReportFile::framesProblem), and a
    // report whose roots fail it shows no library frame.
    if (query.exec(QStringLiteral("SELECT DISTINCT substr(library_root, 1, %1) FROM %2 "
                                  "WHERE typeof(library_root) = 'text' LIMIT 100")
                       .arg(kMaxShownText)
                       .arg(kLibraryFrames))) {
        while (query.next())
            roots << query.value(0).toString();
    }
    if (error && query.lastError().isValid())
        *error = query.lastError().databaseText();
    return roots;
}

}  // namespace trainscope::ui
