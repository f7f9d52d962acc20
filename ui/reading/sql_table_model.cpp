// SPDX-License-Identifier: Apache-2.0
#include "reading/sql_table_model.h"

#include <QLocale>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <algorithm>

#include "reading/report_queries.h"
#include "reading/untrusted_sqlite.h"

namespace trainscope::ui {

QString formatNumber(double value, int decimals) {
    return QLocale().toString(value, 'f', decimals);
}

QString formatBytes(qint64 bytes) {
    const double b = static_cast<double>(bytes);
    if (bytes >= (qint64{1} << 30))
        return QStringLiteral("%1 GiB").arg(formatNumber(b / (1 << 30), 2));
    if (bytes >= (qint64{1} << 20))
        return QStringLiteral("%1 MiB").arg(formatNumber(b / (1 << 20), 1));
    if (bytes >= (qint64{1} << 10))
        return QStringLiteral("%1 KiB").arg(formatNumber(b / (1 << 10), 1));
    return QStringLiteral("%1 B").arg(QLocale().toString(bytes));
}

QString likePattern(QString text) {
    text.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('%'), QStringLiteral("\\%"))
        .replace(QLatin1Char('_'), QStringLiteral("\\_"));
    return QLatin1Char('%') + text + QLatin1Char('%');
}

RowPage readRows(QSqlDatabase db, const RowRequest& request) {
    restartQueryClock();
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(request.sql);
    for (const QVariant& value : request.values)
        query.addBindValue(value);
    RowPage page;
    if (query.exec()) {
        while (query.next()) {
            QVector<QVariant>& row = page.rows.emplace_back(request.columns);
            for (int c = 0; c < request.columns; ++c)
                row[c] = query.value(c);
        }
    }
    // A row that cannot be read (a damaged file, the time budget) ends the table early; the
    // error says so, or it would just look shorter than it is.
    if (query.lastError().isValid())
        page.error = query.lastError().text();
    return page;
}

SqlTableModel::SqlTableModel(RowSource* source, SqlTableSpec spec, QObject* parent,
                             RowFilter filter)
    : QAbstractTableModel(parent),
      source_(source),
      spec_(std::move(spec)),
      filter_(std::move(filter.text)),
      entries_(filter.entries) {
    if (!spec_.order_by.isEmpty())
        order_by_ = spec_.order_by;
    runQuery();
}

SqlTableModel::~SqlTableModel() {
    if (pending_)
        *pending_ = true;  // stops its query, if it runs
}

void SqlTableModel::runQuery() {
    QStringList select;
    for (const SqlColumn& column : spec_.columns) {
        // A report may hold megabytes in one name: only the start is read and shown.
        select
            << (column.format == CellFormat::Text
                    ? QStringLiteral("substr(%1, 1, %2)").arg(column.expression).arg(kMaxShownText)
                    : column.expression);
    }
    select_ =
        QStringLiteral("SELECT %1 FROM %2").arg(select.join(QStringLiteral(", ")), spec_.from);
    QStringList conditions;
    where_values_.clear();
    if (!filter_.isEmpty() && !spec_.filter_expression.isEmpty()) {
        conditions << QStringLiteral("%1 LIKE ? ESCAPE '\\'").arg(spec_.filter_expression);
        where_values_ << likePattern(filter_);
    }
    if (entries_ && !spec_.entry_id_expression.isEmpty()) {
        conditions << QStringLiteral("%1 BETWEEN ? AND ?").arg(spec_.entry_id_expression);
        where_values_ << entries_->first << entries_->last;
    }
    if (!conditions.isEmpty())
        select_ += QStringLiteral(" WHERE ") + conditions.join(QStringLiteral(" AND "));
    if (!spec_.group_by.isEmpty())
        select_ += QStringLiteral(" GROUP BY ") + spec_.group_by;
    select_ += QStringLiteral(" ORDER BY ") + order_by_ + QStringLiteral(" LIMIT ? OFFSET ?");

    page_ = kFirstPage;
    // A units query still on its way would hold up this query's pages: it is stopped, and
    // asked again once this query's first page has come.
    if (units_pending_) {
        *units_pending_ = true;
        units_pending_.reset();
    }
    requestPage(0, [this](RowPage&& page) {
        beginResetModel();
        rows_ = std::move(page.rows);
        endResetModel();
        // Queued behind what was asked meanwhile (the charts' entries when a run opens): the
        // first screen never waits for a scan of the whole table.
        if (units_.isEmpty() && !units_pending_)
            readColumnUnits();
    });
}

void SqlTableModel::readColumnUnits() {
    // The largest figure of each column of times or sizes, over the whole table.
    QStringList inner, maxima;
    QVector<int> measured;
    for (int column = 0; column < spec_.columns.size(); ++column) {
        const CellFormat format = spec_.columns[column].format;
        if (format != CellFormat::Bytes && format != CellFormat::Milliseconds)
            continue;
        inner << QStringLiteral("%1 AS c%2").arg(spec_.columns[column].expression).arg(column);
        maxima << QStringLiteral("MAX(c%1)").arg(column);
        measured << column;
    }
    if (measured.isEmpty())
        return;
    RowRequest request;
    request.sql =
        QStringLiteral("SELECT %1 FROM (SELECT %2 FROM %3%4)")
            .arg(maxima.join(QStringLiteral(", ")), inner.join(QStringLiteral(", ")), spec_.from,
                 spec_.group_by.isEmpty() ? QString()
                                          : QStringLiteral(" GROUP BY ") + spec_.group_by);
    request.columns = int(measured.size());
    units_pending_ = request.abandoned;
    source_->read(
        std::move(request), this, [this, measured, flag = units_pending_](const RowPage& page) {
            if (flag != units_pending_)
                return;  // stopped for a newer query: asked again after it
            units_pending_.reset();
            units_.resize(spec_.columns.size());  // asked once: not again after each query
            if (page.rows.isEmpty() || !page.error.isEmpty())
                return;  // an empty or unreadable table: the default units stay
            // One unit for the table's times and one for its sizes, that of the largest
            // figure: forward and backward side by side read in the same unit.
            double largest_ms = 0, largest_bytes = 0;
            for (int i = 0; i < measured.size(); ++i) {
                const double largest = page.rows[0].value(i).toDouble();
                double& kind = spec_.columns[measured[i]].format == CellFormat::Bytes
                                   ? largest_bytes
                                   : largest_ms;
                kind = std::max(kind, largest);
            }
            for (const int column : measured)
                units_[column] = spec_.columns[column].format == CellFormat::Bytes
                                     ? byteUnit(largest_bytes)
                                     : timeUnit(largest_ms);
            emit headerDataChanged(Qt::Horizontal, 0, int(spec_.columns.size()) - 1);
            if (!rows_.isEmpty())
                emit dataChanged(index(0, 0),
                                 index(int(rows_.size()) - 1, int(spec_.columns.size()) - 1));
        });
}

std::optional<Unit> SqlTableModel::columnUnit(int column) const {
    if (column >= 0 && column < units_.size() && units_[column])
        return units_[column];
    if (column >= 0 && column < spec_.columns.size() &&
        spec_.columns[column].format == CellFormat::Milliseconds)
        return timeUnit(1);  // ms until the largest figure is known
    return std::nullopt;
}

RowRequest SqlTableModel::pageRequest(int limit, int offset) const {
    RowRequest request;
    request.sql = select_;
    request.values = where_values_;
    request.values << limit << offset;
    request.columns = int(spec_.columns.size());
    return request;
}

void SqlTableModel::readAllRows(QObject* receiver, std::function<void(const RowPage&)> done) const {
    source_->read(pageRequest(-1, 0), receiver, std::move(done));  // LIMIT -1: no limit
}

void SqlTableModel::requestPage(int offset, std::function<void(RowPage&&)> shown) {
    if (pending_)
        *pending_ = true;  // its rows would belong to a query no longer shown
    const int limit = page_;
    RowRequest request = pageRequest(limit, offset);
    const std::shared_ptr<std::atomic<bool>> flag = request.abandoned;
    setBusy(flag);
    source_->read(std::move(request), this,
                  [this, flag, limit, shown = std::move(shown)](const RowPage& page) {
                      if (flag != pending_)
                          return;  // abandoned while it was on its way
                      more_ = page.error.isEmpty() && page.rows.size() == limit;
                      page_ = std::min(limit * 2, 1 << 16);
                      RowPage rows = page;
                      shown(std::move(rows));
                      noteError(page.error);
                      setBusy(nullptr);
                      emit rowsRead();
                  });
}

void SqlTableModel::setBusy(std::shared_ptr<std::atomic<bool>> pending) {
    const bool was = busy();
    pending_ = std::move(pending);
    if (busy() != was)
        emit busyChanged(busy());
}

QString SqlTableModel::firstPageSql() const {
    QString sql = select_;
    auto bind = [&sql](const QString& value) {
        const int at = int(sql.indexOf(QLatin1Char('?')));
        if (at >= 0)
            sql.replace(at, 1, value);
    };
    for (const QVariant& value : where_values_) {
        bind(value.typeId() == QMetaType::QString
                 ? QLatin1Char('\'') +
                       value.toString().replace(QLatin1Char('\''), QStringLiteral("''")) +
                       QLatin1Char('\'')
                 : value.toString());
    }
    bind(QString::number(kFirstPage));
    bind(QStringLiteral("0"));
    return sql;
}

bool SqlTableModel::canFetchMore(const QModelIndex& parent) const {
    return !parent.isValid() && more_ && !busy();
}

void SqlTableModel::fetchMore(const QModelIndex& parent) {
    if (!canFetchMore(parent))
        return;
    requestPage(int(rows_.size()), [this](RowPage&& page) {
        if (page.rows.isEmpty())
            return;
        beginInsertRows({}, int(rows_.size()), int(rows_.size() + page.rows.size()) - 1);
        rows_ += std::move(page.rows);
        endInsertRows();
    });
}

int SqlTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int SqlTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(spec_.columns.size());
}

QVariant SqlTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && section >= 0 && section < spec_.columns.size()) {
        const SqlColumn& column = spec_.columns[section];
        if (role == Qt::DisplayRole) {
            const std::optional<Unit> unit = columnUnit(section);
            return unit ? tr("%1 (%2)").arg(column.header, unit->name) : column.header;
        }
        if (role == RawHeaderRole) {
            if (column.format == CellFormat::Milliseconds)
                return tr("%1 (ms)").arg(column.header);
            if (column.format == CellFormat::Bytes)
                return tr("%1 (bytes)").arg(column.header);
            return column.header;
        }
        // The first click on a figure's column shows the largest first (the header asks).
        if (role == Qt::InitialSortOrderRole)
            return spec_.columns[section].format == CellFormat::Text ? Qt::AscendingOrder
                                                                     : Qt::DescendingOrder;
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

void SqlTableModel::noteError(const QString& error) {
    const QString message =
        error.isEmpty() ? QString() : tr("This table could not be read in full: %1").arg(error);
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

void SqlTableModel::setRowFilter(const RowFilter& filter) {
    if (filter.text == filter_ && filter.entries == entries_)
        return;
    filter_ = filter.text;
    entries_ = filter.entries;
    runQuery();
}

qint64 SqlTableModel::entryId(int row) const {
    return rawValue(row, 0).toLongLong();
}

int SqlTableModel::rowOfEntry(qint64 id) const {
    for (int row = 0; row < rows_.size(); ++row) {
        if (rows_[row][0].toLongLong() == id)
            return row;
    }
    return -1;
}

QVariant SqlTableModel::rawValue(int row, int column) const {
    if (row < 0 || row >= rows_.size() || column < 0 || column >= spec_.columns.size())
        return {};
    return rows_[row][column];
}

QVariant SqlTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.column() >= spec_.columns.size())
        return {};
    const QVariant raw = rawValue(index.row(), index.column());
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
                return tr("%1 ms").arg(formatNumber(raw.toDouble(), 6));
            if (format == CellFormat::Text)
                return raw;  // in full where the column elides it
            return {};
        case Qt::DisplayRole:
            if (raw.isNull())
                return spec_.columns[index.column()].null_text;
            switch (format) {
                case CellFormat::Bytes: {
                    const std::optional<Unit> unit = columnUnit(index.column());
                    if (unit)
                        return inColumn(raw.toDouble(), *unit);
                    return formatBytes(raw.toLongLong());  // in its own unit, named
                }
                case CellFormat::Milliseconds:
                    return inColumn(raw.toDouble(), *columnUnit(index.column()));
                case CellFormat::Integer:
                    return QLocale().toString(raw.toLongLong());
                case CellFormat::Share: {
                    const double percent = raw.toDouble() * 100.0;
                    if (percent > 0 && percent < 0.05)
                        return QStringLiteral("< %1 %").arg(formatNumber(0.1, 1));  // not 0.0 %
                    return QStringLiteral("%1 %").arg(formatNumber(percent, 1));
                }
                default:
                    return raw;
            }
        default:
            return {};
    }
}

}  // namespace trainscope::ui
