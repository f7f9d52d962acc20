// SPDX-License-Identifier: Apache-2.0
#include "run/file_import.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QtConcurrent>

#include "trainscope/error.h"
#include "trainscope/imported_file.h"
#include "trainscope/run_files.h"

namespace trainscope::ui {

FileImport::FileImport(const QStringList& paths, QObject* parent) : QObject(parent), paths_(paths) {
    poll_.setInterval(100);
    connect(&poll_, &QTimer::timeout, this, [this] { emit progressed(percent_->load()); });
    connect(&watcher_, &QFutureWatcher<QString>::finished, this, [this] {
        poll_.stop();
        error_ = watcher_.result();
        if (error_.isEmpty() && !cancel_->load())
            for (const QString& path : paths_)
                reports_ << importedReports(path);
        if (cancel_->load())
            error_.clear();
        emit finished();
    });
}

FileImport::~FileImport() {
    cancel_->store(true);
    watcher_.waitForFinished();
}

QString FileImport::reportsPrefix(const QString& path) {
    const QFileInfo file(path);
    const QString beside = QString::fromStdString(importedReportsPrefix(path.toStdString()));
    if (QFileInfo(file.absolutePath()).isWritable())
        return beside;
    // A folder the user cannot write (a shared trace, a read-only mount): the cache, under a
    // name that the file's whole path decides.
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
                          QStringLiteral("/imports");
    QDir().mkpath(cache);
    const QByteArray key =
        QCryptographicHash::hash(file.absoluteFilePath().toUtf8(), QCryptographicHash::Sha1)
            .toHex()
            .left(12);
    return cache + QLatin1Char('/') + QString::fromLatin1(key) + QLatin1Char('-') +
           file.fileName() + QStringLiteral(".trainscope");
}

QStringList FileImport::importedReports(const QString& path) {
    const std::string prefix = reportsPrefix(path).toStdString();
    QStringList reports;
    const QDateTime made = QFileInfo(path).lastModified();
    for (const std::string& report : existingRunReports(prefix)) {
        const QString name = QString::fromStdString(report);
        if (QFileInfo(name).lastModified() < made)
            return {};  // the file changed since: import it again
        reports << name;
    }
    // Every import writes a timeline: without one, what is there is not an import's.
    const bool timeline = std::any_of(reports.begin(), reports.end(), [](const QString& r) {
        return r.endsWith(QLatin1String(".timeline.sqlite"));
    });
    return timeline ? reports : QStringList();
}

void FileImport::start() {
    poll_.start();
    // Those not imported before, with where their reports go (the cache folder is found here).
    std::vector<std::pair<std::string, std::string>> files;
    for (const QString& path : paths_)
        if (importedReports(path).isEmpty())
            files.emplace_back(path.toStdString(), reportsPrefix(path).toStdString());
    watcher_.setFuture(QtConcurrent::run([files, cancel = cancel_, percent = percent_] {
        const uint64_t count = files.size();
        for (uint64_t i = 0; i < count && !cancel->load(); ++i) {
            try {
                const ImportedRun run = importFile(
                    files[i].first,
                    [percent, i, count](uint64_t done, uint64_t total) {
                        const uint64_t part = total > 0 ? done * 100 / total : 0;
                        percent->store(static_cast<int>((i * 100 + part) / count));
                    },
                    cancel.get());
                if (cancel->load())
                    return QString();
                writeImportedRun(run, files[i].second, Overwrite::Allow);
            } catch (const Cancelled&) {
                return QString();
            } catch (const std::exception& e) {
                return QString::fromStdString(e.what());
            }
        }
        return QString();
    }));
}

void FileImport::cancel() {
    cancel_->store(true);
}

}  // namespace trainscope::ui
