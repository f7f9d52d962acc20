// SPDX-License-Identifier: Apache-2.0
// A report opened read-only through QtSql: a memory or a run time report, written by
// TrainScope, Skyline or DeepView.Profile. The kind is recognised from the tables and columns;
// anything else (not SQLite, a foreign database, a truncated file) is refused with a message.
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <memory>

namespace trainscope::ui {

enum class ReportKind { Memory, Time };

class ReportFile {
  public:
    // Returns nullptr and sets `error` (naming the file and the problem) when the file cannot
    // be used. The connection belongs to the calling thread. The checks stop early when the
    // calling thread's cancel flags are set (watchCancelFlags).
    static std::unique_ptr<ReportFile> open(const QString& path, QString* error);
    ~ReportFile();
    ReportFile(const ReportFile&) = delete;
    ReportFile& operator=(const ReportFile&) = delete;

    ReportKind kind() const { return kind_; }
    const QString& path() const { return path_; }
    QSqlDatabase database() const;
    // The report's tables and views, as listed when it was opened (an opened report is
    // immutable): TrainScope's own tables are optional, and queries ask for them here.
    const QStringList& tables() const { return tables_; }
    bool hasTable(const char* name) const { return tables_.contains(QLatin1String(name)); }

  private:
    ReportFile(QString path, QString connection, ReportKind kind, QStringList tables);
    QString path_;
    QString connection_;
    ReportKind kind_;
    QStringList tables_;
};

}  // namespace trainscope::ui
