// SPDX-License-Identifier: Apache-2.0
#include "reading/report_run.h"

#include <QDir>
#include <QFileInfo>
#include <QFontMetrics>
#include <QPointer>
#include <future>

#include "reading/untrusted_sqlite.h"
#include "trainscope/report_format.h"
#include "trainscope/report_reading.h"
#include "trainscope/run_files.h"

namespace trainscope::ui {
namespace {

constexpr int kModuleBars = 8;
constexpr int kWeightBars = 10;

// Whether a file is a timeline (the Ascend timeline's tables), from its table names; for a file
// that cannot be read, ReportFile's message says why.
bool isTimeline(const QString& path) {
    try {
        return reportFileKind(path.toStdString()) == ReportFileKind::Timeline;
    } catch (const std::exception&) {
        return false;
    }
}

// The paths with the other reports of their run that exist: PREFIX.memory.sqlite,
// PREFIX.time.sqlite and PREFIX.timeline.sqlite come together, whichever of them is opened.
// Files of several prefixes (the timelines of a job's ranks, PREFIX.rank0.timeline.sqlite,
// PREFIX.rank1...) are opened as given: a window shows one run, and no rank is the run.
QStringList withSiblings(const QStringList& paths) {
    QStringList prefixes;
    for (const QString& path : paths) {
        const QString suffix = runReportSuffix(path);
        if (!suffix.isEmpty())
            prefixes << path.chopped(suffix.size());
    }
    prefixes.removeDuplicates();
    QStringList wanted = paths;
    if (prefixes.size() == 1) {
        for (const std::string& sibling : existingRunReports(prefixes.front().toStdString()))
            wanted << QString::fromStdString(sibling);
    }
    wanted.removeDuplicates();  // a run's reports given together, or a path given twice
    return wanted;
}

ReportContents contentsOf(const ReportFile& report) {
    ReportContents contents;
    contents.path = report.path();
    contents.tables = report.tables();
    QString& error = contents.metadata_error;
    contents.project_root =
        metadataValue(report, QLatin1String(report_format::kProjectRootKey), &error);
    contents.frames_note =
        metadataValue(report, QLatin1String(report_format::kFramesNoteKey), &error);
    // Read later (readLibraryRoots) where the report has library frames.
    if (!report.hasTable(report_format::kLibraryFramesTable))
        contents.library_roots = QStringList();
    return contents;
}

}  // namespace

QString runName(const QString& path) {
    const QString name = QFileInfo(path).fileName();
    const QString suffix = runReportSuffix(name);
    return name.size() > suffix.size() ? name.chopped(suffix.size()) : name;
}

QString recentRunTitle(const QString& path, const QFontMetrics& metrics, int folder_width) {
    // Each run by its name and folder: every exported project's report may be "profile".
    const QString folder = metrics.elidedText(
        QDir::toNativeSeparators(QFileInfo(path).absolutePath()), Qt::ElideMiddle, folder_width);
    return QObject::tr("%1 — %2").arg(runName(path), folder);
}

QString runReportSuffix(const QString& path) {
    return QString::fromStdString(trainscope::runReportSuffix(path.toStdString()));
}

QStringList RunContents::reportPaths() const {
    QStringList paths;
    for (const std::optional<ReportContents>* report : {&memory, &time}) {
        if (*report)
            paths << (*report)->path;
    }
    return paths;
}

QStringList RunContents::paths() const {
    return reportPaths() + timelines;
}

struct ReportRun::Files {
    std::unique_ptr<ReportFile> memory, time;
    std::future<RunCharts> charts;    // read beside the totals (stage 1), taken in stage 2
    std::future<void> library_roots;  // read after the first screens (stage 2)
    const ReportFile* of(ReportKind kind) const {
        return kind == ReportKind::Memory ? memory.get() : time.get();
    }
};

namespace {

// The charts' entries: each is a scan of its table on a large report, so they are read on a
// thread and connections of their own while the worker reads the totals: the scans do not
// wait for the totals.
RunCharts readCharts(const ReportFile* memory, const ReportFile* time, CancelFlags cancel) {
    watchCancelFlags(cancel);
    RunCharts charts;
    QString error;
    if (memory) {
        if (const std::unique_ptr<ReportFile> report = memory->reopen(&error)) {
            charts.activations = topActivations(*report, kActivationBars);
            charts.modules = topModulesAtPeak(*report, kModuleBars);
            charts.weights = topWeights(*report, kWeightBars);
        } else {
            charts.activations.error = charts.modules.error = charts.weights.error = error;
        }
    }
    if (time) {
        if (const std::unique_ptr<ReportFile> report = time->reopen(&error))
            charts.operations = topOperationsByTime(*report, kOperationBars);
        else
            charts.operations.error = error;
    }
    return charts;
}

// A report's library roots, read on a connection of the calling thread's own. None (nullopt)
// for a report without library frames; a report whose roots cannot be read has none, and the
// error says why.
struct LibraryRootsRead {
    std::optional<QStringList> roots;
    QString error;
};
LibraryRootsRead readLibraryRoots(const ReportFile* report) {
    LibraryRootsRead read;
    if (!report || !report->hasTable(report_format::kLibraryFramesTable))
        return read;
    const std::unique_ptr<ReportFile> own = report->reopen(&read.error);
    read.roots = own ? libraryRoots(*own, &read.error) : QStringList();
    return read;
}

}  // namespace

// The pages of one report's tables, read on the worker thread.
class ReportRun::Source : public RowSource {
  public:
    Source(ReportRun* run, ReportKind kind) : run_(run), kind_(kind) {}
    void read(RowRequest request, QObject* receiver,
              std::function<void(const RowPage&)> done) override {
        const std::shared_ptr<std::atomic<bool>> abandoned = request.abandoned;
        run_->post(receiver, abandoned.get(),
                   [kind = kind_, request = std::move(request), done = std::move(done),
                    abandoned](Files& files) -> std::function<void()> {
                       const ReportFile* report = files.of(kind);
                       RowPage page = report ? readReportRows(*report, request)
                                             : RowPage{{}, tr("the report is not open")};
                       return [done, page = std::move(page)] { done(page); };
                   });
    }

  private:
    ReportRun* run_;
    ReportKind kind_;
};

ReportRun::ReportRun(const QStringList& paths, QObject* parent)
    : QObject(parent),
      worker_(new QObject),
      files_(std::make_unique<Files>()),
      memory_rows_(std::make_unique<Source>(this, ReportKind::Memory)),
      time_rows_(std::make_unique<Source>(this, ReportKind::Time)) {
    thread_.setObjectName(QStringLiteral("trainscope-report-run"));
    worker_->moveToThread(&thread_);
    thread_.start();

    // Stage 1: what each file is, then the totals and source folders of the reports.
    post(this, nullptr, [this, wanted = withSiblings(paths)](Files& files) {
        RunContents contents;
        for (const QString& path : wanted) {
            QString error;
            std::unique_ptr<ReportFile> report = ReportFile::open(path, &error);
            if (report) {
                std::unique_ptr<ReportFile>& slot =
                    report->kind() == ReportKind::Memory ? files.memory : files.time;
                if (slot)
                    contents.errors << tr("Not opened %1: a window shows one run, and %2 is "
                                          "already its report of that kind.")
                                           .arg(path, slot->path());
                else
                    slot = std::move(report);
            } else if (isTimeline(path)) {  // ReportFile reads memory and run time reports only
                contents.timelines << path;
            } else {
                contents.errors << error;
            }
        }
        files.charts = std::async(std::launch::async, readCharts, files.memory.get(),
                                  files.time.get(), watchedCancelFlags());
        if (files.memory) {
            contents.memory = contentsOf(*files.memory);
            contents.memory_summary = memorySummary(*files.memory, &contents.summary_error);
        }
        if (files.time) {
            contents.time = contentsOf(*files.time);
            contents.time_summary = timeSummary(*files.time, &contents.summary_error);
        }
        const bool memory_read = contents.memory_summary.has_value();
        const bool time_read = contents.time_summary.has_value();
        return [this, contents = std::move(contents), memory_read, time_read] {
            contents_ = contents;
            opened_ = true;
            emit opened();
            // Stage 2, once the pages exist: their first rows are asked for by now and come
            // first. A report whose totals could not be read shows no charts either.
            post(this, nullptr, [this, memory_read, time_read](Files& files) {
                RunCharts charts = files.charts.valid() ? files.charts.get() : RunCharts{};
                if (!memory_read)
                    charts.activations = charts.modules = charts.weights = {};
                if (!time_read)
                    charts.operations = {};
                // Once the first screens are read, the frames are checked and the library
                // roots read, for what comes next.
                for (const ReportFile* report : {files.memory.get(), files.time.get()}) {
                    if (report)
                        report->startFramesCheck();
                }
                startReadingLibraryRoots(files);
                return [this, charts] {
                    charts_ = charts;
                    emit chartsRead();
                };
            });
        };
    });
}

// On the worker thread, in stage 2: the roots are read on their own thread and handed to this
// one (the worker stays free for the pages). ~ReportRun waits for that thread (files_.reset())
// before this object goes, and a result that comes after it went is dropped with it.
void ReportRun::startReadingLibraryRoots(Files& files) {
    const ReportFile* memory = files.memory.get();
    const ReportFile* time = files.time.get();
    files.library_roots =
        std::async(std::launch::async, [this, memory, time, cancel = watchedCancelFlags()] {
            runBehindTheApp();
            watchCancelFlags(cancel);
            LibraryRootsRead memory_read = readLibraryRoots(memory);
            LibraryRootsRead time_read = readLibraryRoots(time);
            QMetaObject::invokeMethod(
                this,
                [this, memory_read = std::move(memory_read), time_read = std::move(time_read)] {
                    auto apply = [](std::optional<ReportContents>& report,
                                    const LibraryRootsRead& read) {
                        if (!report || !read.roots)
                            return;
                        report->library_roots = read.roots;
                        if (report->metadata_error.isEmpty())
                            report->metadata_error = read.error;
                    };
                    apply(contents_.memory, memory_read);
                    apply(contents_.time, time_read);
                    emit libraryRootsRead();
                },
                Qt::QueuedConnection);
        });
}

ReportRun::~ReportRun() {
    closing_ = true;  // what is queued is skipped, and a running query stops
    // The connections close on the thread that opened them; the worker's last job.
    QMetaObject::invokeMethod(
        worker_,
        [this] {
            files_.reset();
            QThread::currentThread()->quit();
        },
        Qt::QueuedConnection);
    thread_.wait();
    delete worker_;
}

RowSource* ReportRun::rows(ReportKind kind) {
    return kind == ReportKind::Memory ? memory_rows_.get() : time_rows_.get();
}

void ReportRun::whenChartsRead(QObject* receiver, std::function<void(const RunCharts&)> show) {
    if (charts_)
        show(*charts_);
    else
        connect(this, &ReportRun::chartsRead, receiver, [this, show] { show(*charts_); });
}

void ReportRun::readFrames(ReportKind kind, FramesQuery query, QObject* receiver,
                           std::function<void(const QVector<FrameRow>&, const QString&)> done) {
    post(receiver, nullptr,
         [kind, query = std::move(query),
          done = std::move(done)](Files& files) -> std::function<void()> {
             QString error;
             const ReportFile* report = files.of(kind);
             QVector<FrameRow> frames;
             if (report)
                 frames = query(*report, &error);
             else
                 error = tr("the report is not open");
             return [done, frames, error] { done(frames, error); };
         });
}

void ReportRun::postToReports(
    QObject* receiver,
    std::function<std::function<void()>(const ReportFile* memory, const ReportFile* time)> work) {
    post(receiver, nullptr, [work = std::move(work)](Files& files) {
        return work(files.memory.get(), files.time.get());
    });
}

void ReportRun::post(QObject* receiver, const std::atomic<bool>* abandoned,
                     std::function<std::function<void()>(Files&)> work) {
    ++in_flight_;
    QMetaObject::invokeMethod(
        worker_,
        [this, receiver = QPointer<QObject>(receiver), abandoned, work = std::move(work)] {
            std::function<void()> deliver;
            if (!closing_ && !(abandoned && *abandoned)) {
                const CancelFlags previous = watchCancelFlags({&closing_, abandoned});
                deliver = work(*files_);
                watchCancelFlags(previous);
            }
            // Back on the run's thread, where the receiver lives.
            QMetaObject::invokeMethod(
                this,
                [this, receiver, deliver = std::move(deliver)] {
                    --in_flight_;
                    if (receiver && deliver)
                        deliver();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

}  // namespace trainscope::ui
