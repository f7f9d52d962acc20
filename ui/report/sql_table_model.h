// A table of a report, read lazily from SQLite (QSqlQueryModel fetches rows as the view
// scrolls to them). Sorting re-runs the query with ORDER BY, so SQLite sorts, never a proxy.
#pragma once

#include <QSqlDatabase>
#include <QSqlQueryModel>
#include <QVector>

namespace trainscope::ui {

enum class CellFormat { Text, Integer, Bytes, Milliseconds, Share };

struct SqlColumn {
    QString header;
    QString expression;  // an SQL expression over the FROM clause
    CellFormat format;
};

class SqlTableModel : public QSqlQueryModel {
    Q_OBJECT
  public:
    // Column 0 is the entry id (hidden by views, used to look up stack frames).
    SqlTableModel(QSqlDatabase db, QVector<SqlColumn> columns, QString from,
                  QObject* parent = nullptr);

    static constexpr int SortRole = Qt::UserRole + 1;  // the raw number behind a cell
    QVariant data(const QModelIndex& index, int role) const override;
    void sort(int column, Qt::SortOrder order) override;
    qint64 entryId(int row) const;

  private:
    void runQuery(const QString& order_by);
    QSqlDatabase db_;
    QVector<SqlColumn> columns_;
    QString from_;
};

QString formatBytes(qint64 bytes);

}  // namespace trainscope::ui
