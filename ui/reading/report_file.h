// SPDX-License-Identifier: Apache-2.0
// A report opened read-only through QtSql: a memory or a run time report, written by
// TrainScope, Skyline or DeepView.Profile. The kind is recognised from the tables and columns;
// anything else (not SQLite, a foreign database, a truncated file) is refused with a message.
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <atomic>
#include <future>
#include <memory>
#include <mutex>

namespace trainscope::ui {

class FileReadAhead;
enum class ReportKind { Memory, Time };

// Lowers the calling thread's priority (nice 10; the threads it starts inherit it), for reading
// done after the first screens: the GUI and the run's reader are never kept waiting by it (at
// the same priority, the frames check made the GUI stall several times longer on 2 cores).
void runBehindTheApp();

class ReportFile {
  public:
    // Returns nullptr and sets `error` (naming the file and the problem) when the file cannot
    // be used. The connection belongs to the calling thread. The checks stop early when the
    // calling thread's cancel flags are set (watchCancelFlags); so does the frames check, when
    // the first of them is.
    static std::unique_ptr<ReportFile> open(const QString& path, QString* error);
    // The same report, checked already, on a new connection of the calling thread (another
    // thread's reader); its frames are checked on their own if it asks for them. Returns
    // nullptr and sets `error` when the file cannot be opened again.
    std::unique_ptr<ReportFile> reopen(QString* error) const;
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

    // The values of stack_frames are checked after the report opened, on connections and
    // threads of their own, so that a large report shows its totals and entries first: a
    // report with damaged frames still shows them. Every query that reads the frames asks
    // framesProblem() first: it waits for the check (starting it if nobody did) and returns
    // why the frames cannot be used, or an empty string.
    void startFramesCheck() const;
    QString framesProblem() const;

  private:
    ReportFile(QString path, QString connection, ReportKind kind, QStringList tables,
               const std::atomic<bool>* opener_stop, std::unique_ptr<FileReadAhead> read_ahead);
    std::shared_future<QString> framesCheck() const;  // started on the first call
    QString path_;
    QString connection_;
    ReportKind kind_;
    QStringList tables_;
    const std::atomic<bool>* opener_stop_;  // the opener's cancel flag (the run's closing)
    std::atomic<bool> closing_{false};
    mutable std::mutex frames_mutex_;
    mutable std::shared_future<QString> frames_check_;
    // The opened report's file, read on while it is open (the frames check reads it next); a
    // report opened again for another thread has none.
    std::unique_ptr<FileReadAhead> read_ahead_;
};

}  // namespace trainscope::ui
