// SPDX-License-Identifier: Apache-2.0
// Opening files that another tool wrote (torch.profiler traces, memory snapshots; several: a
// job's ranks): each file's reports are made once, on a worker thread, and kept beside it
// (PATH.trainscope.*.sqlite; in the user's cache folder when the file's folder cannot be
// written), so that opening it again is opening those reports. The files are imported one after
// the other, with their progress as one, and can be cancelled; a cancelled or failed import
// leaves no report of its file behind (the reports are written as one set).
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <atomic>
#include <memory>

namespace trainscope::ui {

class FileImport : public QObject {
    Q_OBJECT
  public:
    explicit FileImport(const QStringList& paths, QObject* parent = nullptr);
    ~FileImport() override;  // cancels the import and waits for its worker

    // The reports of `path` made before, if they are newer than the file; empty otherwise.
    static QStringList importedReports(const QString& path);
    // Where the reports of `path` are kept: PATH.trainscope beside it, or in the cache folder.
    static QString reportsPrefix(const QString& path);

    void start();
    void cancel();
    const QStringList& paths() const { return paths_; }
    // When finished: each file's reports (in the files' order), or why there are none (empty
    // reports, and "" when cancelled).
    const QList<QStringList>& reports() const { return reports_; }
    const QString& error() const { return error_; }
    bool cancelled() const { return cancel_->load(); }

  signals:
    void progressed(int percent);
    void finished();

  private:
    QStringList paths_;
    std::shared_ptr<std::atomic<bool>> cancel_ = std::make_shared<std::atomic<bool>>(false);
    std::shared_ptr<std::atomic<int>> percent_ = std::make_shared<std::atomic<int>>(0);
    QFutureWatcher<QString> watcher_;  // the worker's error, or ""
    QTimer poll_;                      // hands the worker's progress to the GUI thread
    QList<QStringList> reports_;
    QString error_;
};

}  // namespace trainscope::ui
