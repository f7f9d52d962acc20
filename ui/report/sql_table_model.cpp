#include "report/sql_table_model.h"

#include <QLocale>
#include <QSqlQuery>
#include <QStringList>

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

SqlTableModel::SqlTableModel(QSqlDatabase db, QVector<SqlColumn> columns, QString from,
                             QObject* parent)
    : QSqlQueryModel(parent), db_(db), columns_(std::move(columns)), from_(std::move(from)) {
    runQuery(QStringLiteral("1"));
}

void SqlTableModel::runQuery(const QString& order_by) {
    QStringList select;
    for (const SqlColumn& column : columns_)
        select << column.expression;
    QSqlQuery query(db_);
    query.setForwardOnly(false);
    query.exec(QStringLiteral("SELECT %1 FROM %2 ORDER BY %3")
                   .arg(select.join(QStringLiteral(", ")), from_, order_by));
    setQuery(std::move(query));
    for (int i = 0; i < columns_.size(); ++i) {
        setHeaderData(i, Qt::Horizontal, columns_[i].header);
    }
}

void SqlTableModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= columns_.size())
        return;
    runQuery(
        QStringLiteral("%1 %2, 1")
            .arg(column + 1)
            .arg(order == Qt::AscendingOrder ? QStringLiteral("ASC") : QStringLiteral("DESC")));
}

qint64 SqlTableModel::entryId(int row) const {
    return QSqlQueryModel::data(index(row, 0), Qt::DisplayRole).toLongLong();
}

QVariant SqlTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.column() >= columns_.size())
        return {};
    const QVariant raw = QSqlQueryModel::data(index, Qt::DisplayRole);
    const CellFormat format = columns_[index.column()].format;
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
