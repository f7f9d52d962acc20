// A table of a report, read lazily from SQLite in pages (LIMIT/OFFSET) as the view scrolls to
// them. Sorting, filtering and grouping re-run the query (ORDER BY, WHERE, GROUP BY), so
// SQLite does the work, never a proxy model holding every row. The first page is small and
// pages then double: with a LIMIT, SQLite keeps only the top rows while it scans instead of
// sorting them all, so the first screen of a sorted million-row table comes as fast as
// sqlite3 answers that question (every order ends with the unique column 1, so pages never
// overlap).
#pragma once

#include <QAbstractTableModel>
#include <QSqlDatabase>
#include <QSqlError>
#include <QVector>

namespace trainscope::ui {

enum class CellFormat { Text, Integer, Bytes, Milliseconds, Share };

struct SqlColumn {
    QString header;
    QString expression;  // an SQL expression over the FROM clause
    CellFormat format;
};

struct SqlTableSpec {
    QVector<SqlColumn> columns;  // column 0: the row's entry id (hidden by views)
    QString from;
    QString group_by;           // empty: one row per entry
    QString filter_expression;  // what the filter text is matched against (LIKE)
    QString order_by;           // the first query's order; empty: column 1 (the id)
};

class SqlTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    SqlTableModel(QSqlDatabase db, SqlTableSpec spec, QObject* parent = nullptr);

    static constexpr int SortRole = Qt::UserRole + 1;  // the raw value behind a cell
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    void sort(int column, Qt::SortOrder order) override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    // Keeps the rows whose filter expression contains `text` (case-insensitive for ASCII);
    // an empty text shows every row. The current sort order is kept.
    void setFilter(const QString& text);
    const QString& filter() const { return filter_; }
    // Why the last query or fetch failed (a damaged report, or a query past its time budget);
    // empty when the rows shown are all there is.
    const QString& errorMessage() const { return error_; }
    qint64 entryId(int row) const;
    // The raw value of a cell, without formatting.
    QVariant rawValue(int row, int column) const;
    // The SQL of the first page as it stands (values written in, for the sqlite3 command-line
    // tool): what the benchmarks compare with.
    QString firstPageSql() const;

  signals:
    // The error message changed: set after a failed query or fetch, cleared by a good query.
    void errorChanged(const QString& message);

  private:
    static constexpr int kFirstPage = 256;  // rows: more than a screen

    void runQuery();
    // Reads up to `page_` rows after those held; returns them (they are not added yet).
    QVector<QVector<QVariant>> readPage();
    void noteError(const QSqlError& error);
    QSqlDatabase db_;
    SqlTableSpec spec_;
    QString select_;  // the query, its LIMIT and OFFSET bound per page
    QVector<QVector<QVariant>> rows_;
    int page_ = kFirstPage;
    bool more_ = false;  // the last page came full: there may be more rows
    QString order_by_ = QStringLiteral("1");
    QString filter_;
    QString error_;
};

QString formatBytes(qint64 bytes);

}  // namespace trainscope::ui
