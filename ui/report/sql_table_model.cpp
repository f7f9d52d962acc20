#include "report/sql_table_model.h"

#include <QLocale>
#include <QSqlQuery>
#include <QStringList>

#include "report/report_queries.h"
#include "report/untrusted_sqlite.h"

namespace trainscope::ui {

QString formatBytes(qint64 bytes) {
    const double b = static_cast<double>(bytes);
    if (bytes >= (qint64{1} << 30))
        return QStringLiteral("%1 GiB").arg(b / (1 << 30), 0, 'f', 2);
    if (bytes >= (qint64{1} << 20))
        return QStringLiteral("%1 MiB").arg(b / (1 << 20), 0, 'f', 1);
    if (bytes >= (qint64{1} << 10))
        return QStringLiteral("%1 KiB").arg(b / (1 << 10), 0, 'f', 1);
    return QStringLiteral("%1 B").arg(bytes);
}

SqlTableModel::SqlTableModel(QSqlDatabase db, SqlTableSpec spec, QObject* parent)
    : QSqlQueryModel(parent), db_(db), spec_(std::move(spec)) {
    if (!spec_.order_by.isEmpty())
        order_by_ = spec_.order_by;
    runQuery();
}

void SqlTableModel::runQuery() {
    restartQueryClock();
    QStringList select;
    for (const SqlColumn& column : spec_.columns) {
        // A report may hold megabytes in one name: only the start is read and shown.
        select
            << (column.format == CellFormat::Text
                    ? QStringLiteral("substr(%1, 1, %2)").arg(column.expression).arg(kMaxShownText)
                    : column.expression);
    }
    QString sql =
        QStringLiteral("SELECT %1 FROM %2").arg(select.join(QStringLiteral(", ")), spec_.from);
    const bool filtered = !filter_.isEmpty() && !spec_.filter_expression.isEmpty();
    if (filtered)
        sql += QStringLiteral(" WHERE %1 LIKE ? ESCAPE '\\'").arg(spec_.filter_expression);
    if (!spec_.group_by.isEmpty())
        sql += QStringLiteral(" GROUP BY ") + spec_.group_by;
    sql += QStringLiteral(" ORDER BY ") + order_by_;

    QSqlQuery query(db_);
    query.setForwardOnly(false);
    query.prepare(sql);
    if (filtered) {
        // The user's text is matched literally: LIKE's wildcards are escaped.
        QString pattern = filter_;
        pattern.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
            .replace(QLatin1Char('%'), QStringLiteral("\\%"))
            .replace(QLatin1Char('_'), QStringLiteral("\\_"));
        query.addBindValue(QLatin1Char('%') + pattern + QLatin1Char('%'));
    }
    query.exec();
    const QSqlError error = query.lastError();
    setQuery(std::move(query));
    noteError(error);
    for (int i = 0; i < spec_.columns.size(); ++i)
        setHeaderData(i, Qt::Horizontal, spec_.columns[i].header);
}

void SqlTableModel::fetchMore(const QModelIndex& parent) {
    restartQueryClock();
    QSqlQueryModel::fetchMore(parent);
    // A row that cannot be read ends the fetch early; without this the table would just look
    // shorter than it is.
    noteError(query().lastError());
}

void SqlTableModel::noteError(const QSqlError& error) {
    const QString message = error.isValid()
                                ? tr("This table could not be read in full: %1").arg(error.text())
                                : QString();
    if (message == error_)
        return;
    error_ = message;
    emit errorChanged(error_);
}

void SqlTableModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= spec_.columns.size())
        return;
    const QString order_by =
        QStringLiteral("%1 %2, 1")
            .arg(column + 1)
            .arg(order == Qt::AscendingOrder ? QStringLiteral("ASC") : QStringLiteral("DESC"));
    // QTableView may ask twice for the same order (header indicator, then sortByColumn): a
    // large report's query is not re-run for nothing.
    if (order_by == order_by_)
        return;
    order_by_ = order_by;
    runQuery();
}

void SqlTableModel::setFilter(const QString& text) {
    if (text == filter_)
        return;
    filter_ = text;
    runQuery();
}

qint64 SqlTableModel::entryId(int row) const {
    return rawValue(row, 0).toLongLong();
}

QVariant SqlTableModel::rawValue(int row, int column) const {
    return QSqlQueryModel::data(index(row, column), Qt::DisplayRole);
}

QVariant SqlTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.column() >= spec_.columns.size())
        return {};
    const QVariant raw = QSqlQueryModel::data(index, Qt::DisplayRole);
    const CellFormat format = spec_.columns[index.column()].format;
    switch (role) {
        case SortRole:
            return raw;
        case Qt::TextAlignmentRole:
            return format == CellFormat::Text ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                              : QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::ToolTipRole:
            if (format == CellFormat::Bytes)
                return tr("%1 bytes").arg(QLocale().toString(raw.toLongLong()));
            if (format == CellFormat::Milliseconds && !raw.isNull())
                return tr("%1 ms").arg(raw.toDouble(), 0, 'f', 6);
            return {};
        case Qt::DisplayRole:
            if (raw.isNull())
                return QStringLiteral("–");
            switch (format) {
                case CellFormat::Bytes:
                    return formatBytes(raw.toLongLong());
                case CellFormat::Milliseconds:
                    return QString::number(raw.toDouble(), 'f', 3);
                case CellFormat::Integer:
                    return QLocale().toString(raw.toLongLong());
                case CellFormat::Share:
                    return QStringLiteral("%1 %").arg(raw.toDouble() * 100.0, 0, 'f', 1);
                default:
                    return raw;
            }
        default:
            return QSqlQueryModel::data(index, role);
    }
}

}  // namespace trainscope::ui
