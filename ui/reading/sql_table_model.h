// SPDX-License-Identifier: Apache-2.0
// A table of a report, read lazily from SQLite in pages (LIMIT/OFFSET) as the view scrolls to
// them, each page read where the report's connection lives (a RowSource: the run's worker
// thread in the app) and shown when it arrives, so that the GUI thread never runs SQL. Sorting,
// filtering and grouping re-run the query (ORDER BY, WHERE, GROUP BY), so SQLite does the work,
// never a proxy model holding every row. The first page is small and pages then double: with a
// LIMIT, SQLite keeps only the top rows while it scans instead of sorting them all, so the first
// screen of a sorted million-row table comes as fast as sqlite3 answers that question (every order
// ends with the unique column 1, so pages never overlap).
#pragma once

#include <QAbstractTableModel>
#include <QSqlDatabase>
#include <QVariantList>
#include <QVector>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "reading/units.h"

namespace trainscope::ui {

// Run time entry ids, both ends included.
struct EntryRange {
    qint64 first = 0;
    qint64 last = 0;
    bool operator==(const EntryRange& o) const { return first == o.first && last == o.last; }
    bool operator!=(const EntryRange& o) const { return !(*this == o); }
};

// The rows a table keeps: those whose filter expression contains `text` (case-insensitive
// for ASCII; empty: every row), of the entries in `entries` (where the spec names an entry id).
struct RowFilter {
    QString text;
    std::optional<EntryRange> entries;
};

// A LIKE pattern (ESCAPE '\\') that matches the user's text literally, anywhere: the rule of
// every filter of the tables and of the charts that follow them.
QString likePattern(QString text);

enum class CellFormat { Text, Integer, Bytes, Milliseconds, Share };

struct SqlColumn {
    QString header;
    QString expression;  // an SQL expression over the FROM clause
    CellFormat format;
    QString null_text = QStringLiteral("–");  // what a NULL shows (a missing backward time)
};

struct SqlTableSpec {
    QVector<SqlColumn> columns;  // column 0: the row's entry id
    QString from;
    QString group_by;           // empty: one row per entry
    QString filter_expression;  // what the filter text is matched against (LIKE)
    QString order_by;           // the first query's order; empty: column 1 (the id)
    // The run time entry id of a row, for a range filter (RowFilter); empty: none applies.
    QString entry_id_expression;
    // Columns that views do not show: the entry id, unless it is the operation's number (#),
    // and raw values that other columns show formatted.
    QVector<int> hidden_columns = {0};
};

// One page of a table: its SQL with `?` placeholders, and their values.
struct RowRequest {
    QString sql;
    QVariantList values;
    int columns = 0;
    // Set once nobody waits for the answer (the table was sorted or filtered again, or closed):
    // a request not started yet is skipped, and a running query stops (watchCancelFlags).
    std::shared_ptr<std::atomic<bool>> abandoned = std::make_shared<std::atomic<bool>>(false);
};

struct RowPage {
    QVector<QVector<QVariant>> rows;
    // Why the page ended early or is empty (a damaged report, the time budget); empty when the
    // rows read are all there is.
    QString error;
};

// Runs `request` on `db`, on the thread that opened it.
RowPage readRows(QSqlDatabase db, const RowRequest& request);

// Where a table's pages are read. `done` runs on the thread of `receiver` (the GUI thread),
// unless `receiver` is gone by then.
class RowSource {
  public:
    virtual ~RowSource() = default;
    virtual void read(RowRequest request, QObject* receiver,
                      std::function<void(const RowPage&)> done) = 0;
};

class SqlTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    // Asks `source` for the first page at once, of the rows `filter` keeps; the rows come in
    // later (rowsRead()).
    SqlTableModel(RowSource* source, SqlTableSpec spec, QObject* parent = nullptr,
                  RowFilter filter = {});
    ~SqlTableModel() override;

    static constexpr int SortRole = Qt::UserRole + 1;  // the raw value behind a cell
    // A header with the unit of the raw values ("Forward (ms)", "Size (bytes)"): a CSV's.
    static constexpr int RawHeaderRole = Qt::UserRole + 2;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    void sort(int column, Qt::SortOrder order) override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    // Keeps the rows `filter` keeps, in one query; the current sort order is kept.
    void setRowFilter(const RowFilter& filter);
    // The filter's text alone (its entries kept).
    void setFilter(const QString& text) { setRowFilter({text, entries_}); }
    const QString& filter() const { return filter_; }
    // Whether a page was asked for and has not come yet. Until the first page of a new query
    // comes, the rows of the previous one are shown.
    bool busy() const { return pending_ != nullptr; }
    // Why the last query or fetch failed (a damaged report, or a query past its time budget);
    // empty when the rows shown are all there is.
    const QString& errorMessage() const { return error_; }
    bool isColumnHidden(int column) const { return spec_.hidden_columns.contains(column); }
    // The unit a column of times or sizes is shown in: the one that suits its largest figure
    // (read once, after the first page), so that a column compares at a glance. Until it is
    // read, times are in ms and sizes each in its own unit. None for other columns.
    std::optional<Unit> columnUnit(int column) const;
    qint64 entryId(int row) const;
    // The row of the rows read so far that shows entry `id`, or -1.
    int rowOfEntry(qint64 id) const;
    // The raw value of a cell, without formatting.
    QVariant rawValue(int row, int column) const;
    // Reads every row of the table in its current order and filter (not only the pages read so
    // far), for an export: raw values, as rawValue() gives them, or why they could not be read.
    void readAllRows(QObject* receiver, std::function<void(const RowPage&)> done) const;
    // The SQL of the first page as it stands (values written in, for the sqlite3 command-line
    // tool): what the benchmarks compare with.
    QString firstPageSql() const;

  signals:
    // The error message changed: set after a failed query or fetch, cleared by a good query.
    void errorChanged(const QString& message);
    void busyChanged(bool busy);
    // A page came and is shown (the first of a query, or one more).
    void rowsRead();

  private:
    static constexpr int kFirstPage = 256;  // rows: more than a screen

    void runQuery();
    void readColumnUnits();
    // The current query's rows from `offset` on, at most `limit` (-1: all of them).
    RowRequest pageRequest(int limit, int offset) const;
    // Asks for up to `page_` rows after the first `offset`; `shown` takes them when they come.
    void requestPage(int offset, std::function<void(RowPage&&)> shown);
    void setBusy(std::shared_ptr<std::atomic<bool>> pending);
    void noteError(const QString& error);
    RowSource* source_;
    SqlTableSpec spec_;
    QString select_;  // the query, its LIMIT and OFFSET bound per page
    QVector<QVector<QVariant>> rows_;
    int page_ = kFirstPage;
    bool more_ = false;  // the last page came full: there may be more rows
    QString order_by_ = QStringLiteral("1");
    QString filter_;
    std::optional<EntryRange> entries_;
    QVariantList where_values_;  // the values of the query's WHERE, in order
    QString error_;
    std::shared_ptr<std::atomic<bool>> pending_;        // the outstanding request's abandon flag
    QVector<std::optional<Unit>> units_;                // per column, once read
    std::shared_ptr<std::atomic<bool>> units_pending_;  // the units query's abandon flag
};

// Numbers as the interface language writes them (QLocale's default: thousands separators,
// decimal mark), with `decimals` digits after the mark.
QString formatNumber(double value, int decimals);
QString formatBytes(qint64 bytes);

}  // namespace trainscope::ui
