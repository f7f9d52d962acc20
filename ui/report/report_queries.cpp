#include "report/report_queries.h"

#include <QSqlError>
#include <QSqlQuery>

namespace trainscope::ui {
namespace {

std::optional<QSqlQuery> single(QSqlDatabase db, const QString& sql, QString* error) {
    QSqlQuery query(db);
    if (!query.exec(sql) || !query.next()) {
        *error = query.lastError().isValid() ? query.lastError().databaseText()
                                             : QObject::tr("no result for %1").arg(sql);
        return std::nullopt;
    }
    return query;
}

}  // namespace

std::optional<MemorySummary> memorySummary(QSqlDatabase db, QString* error) {
    auto row =
        single(db,
               QStringLiteral("SELECT (SELECT IFNULL(MAX(size_bytes), 0) FROM misc_sizes "
                              "WHERE key = 'peak_usage_bytes'), "
                              "(SELECT IFNULL(SUM(size_bytes), 0) FROM weight_entries), "
                              "(SELECT IFNULL(SUM(grad_size_bytes), 0) FROM weight_entries), "
                              "(SELECT IFNULL(SUM(size_bytes), 0) FROM activation_entries)"),
               error);
    if (!row)
        return std::nullopt;
    return MemorySummary{row->value(0).toLongLong(), row->value(1).toLongLong(),
                         row->value(2).toLongLong(), row->value(3).toLongLong()};
}

std::optional<TimeSummary> timeSummary(QSqlDatabase db, QString* error) {
    auto row = single(db,
                      QStringLiteral("SELECT IFNULL(SUM(forward_ms), 0), "
                                     "IFNULL(SUM(backward_ms), 0), COUNT(*) FROM run_time_entries"),
                      error);
    if (!row)
        return std::nullopt;
    return TimeSummary{row->value(0).toDouble(), row->value(1).toDouble(),
                       row->value(2).toLongLong()};
}

SqlTableModel* weightsModel(QSqlDatabase db, qint64 peak, QObject* parent) {
    const QString share = QStringLiteral("size_bytes * 1.0 / %1").arg(qMax<qint64>(peak, 1));
    return new SqlTableModel(
        db,
        {{QObject::tr("Id"), QStringLiteral("id"), CellFormat::Integer},
         {QObject::tr("Weight"), QStringLiteral("name"), CellFormat::Text},
         {QObject::tr("Size"), QStringLiteral("size_bytes"), CellFormat::Bytes},
         {QObject::tr("Gradient"), QStringLiteral("grad_size_bytes"), CellFormat::Bytes},
         {QObject::tr("Share of peak"), share, CellFormat::Share}},
        QStringLiteral("weight_entries"), parent);
}

SqlTableModel* activationsModel(QSqlDatabase db, qint64 peak, QObject* parent) {
    const QString share = QStringLiteral("size_bytes * 1.0 / %1").arg(qMax<qint64>(peak, 1));
    return new SqlTableModel(
        db,
        {{QObject::tr("Id"), QStringLiteral("id"), CellFormat::Integer},
         {QObject::tr("Operation"), QStringLiteral("operation_name"), CellFormat::Text},
         {QObject::tr("Size"), QStringLiteral("size_bytes"), CellFormat::Bytes},
         {QObject::tr("Share of peak"), share, CellFormat::Share}},
        QStringLiteral("activation_entries"), parent);
}

SqlTableModel* operationsModel(QSqlDatabase db, double iteration_ms, QObject* parent) {
    const QString total = QStringLiteral("(forward_ms + IFNULL(backward_ms, 0))");
    return new SqlTableModel(
        db,
        {{QObject::tr("Id"), QStringLiteral("id"), CellFormat::Integer},
         {QObject::tr("Operation"), QStringLiteral("operation_name"), CellFormat::Text},
         {QObject::tr("Forward (ms)"), QStringLiteral("forward_ms"), CellFormat::Milliseconds},
         {QObject::tr("Backward (ms)"), QStringLiteral("backward_ms"), CellFormat::Milliseconds},
         {QObject::tr("Total (ms)"), total, CellFormat::Milliseconds},
         {QObject::tr("Share"), QStringLiteral("%1 / %2").arg(total).arg(qMax(iteration_ms, 1e-9)),
          CellFormat::Share}},
        QStringLiteral("run_time_entries"), parent);
}

QVector<FrameRow> stackFrames(QSqlDatabase db, EntryTable table, qint64 entry_id) {
    QSqlQuery query(db);
    if (table == EntryTable::Operation) {
        query.prepare(
            QStringLiteral("SELECT file_path, line_number FROM stack_frames "
                           "WHERE entry_id = ? ORDER BY ordering"));
        query.addBindValue(entry_id);
    } else {
        query.prepare(QStringLiteral(
            "SELECT f.file_path, f.line_number FROM stack_correlation c JOIN stack_frames f "
            "ON f.correlation_id = c.correlation_id WHERE c.entry_type = ? AND c.entry_id = ? "
            "ORDER BY f.ordering"));
        query.addBindValue(table == EntryTable::Weight ? 1 : 2);
        query.addBindValue(entry_id);
    }
    QVector<FrameRow> frames;
    if (query.exec()) {
        while (query.next())
            frames.push_back({query.value(0).toString(), query.value(1).toInt()});
    }
    return frames;
}

}  // namespace trainscope::ui
