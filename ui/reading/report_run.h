// SPDX-License-Identifier: Apache-2.0
// A run: the reports that belong together (PREFIX.memory.sqlite, PREFIX.time.sqlite and
// PREFIX.timeline.sqlite, or foreign databases, or several ranks' timelines), opened and
// queried on a worker thread of the run's own, so that no SQL ever runs on the GUI thread
// (heaptrack's Parser is the model). What is read comes back in stages, each as a signal on
// the thread that made the run: first what the files are with their totals (opened()), then
// the charts' top entries (chartsRead()); table pages and stack frames come when asked for.
#pragma once

#include <QObject>
#include <QStringList>
#include <QThread>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "reading/report_file.h"
#include "reading/report_queries.h"
#include "reading/sql_table_model.h"

class QFontMetrics;

namespace trainscope::ui {

// What the views need to know of one opened memory or run time report.
struct ReportContents {
    QString path;
    QStringList tables;
    // TrainScope's metadata (empty in other tools' reports): where the sources were.
    QString project_root;
    QString frames_note;
    // The folders of the library frames on the recording machine: read after the first
    // screens (a scan of trainscope_library_frames, millions of rows in a large report), so
    // unknown until libraryRootsRead(); empty in a report without library frames.
    std::optional<QStringList> library_roots;
    QString metadata_error;  // why the above could not be read, if it could not
};

struct RunContents {
    std::optional<ReportContents> memory;
    std::optional<ReportContents> time;
    // Empty when the report is missing or its totals could not be read (summary_error).
    std::optional<MemorySummary> memory_summary;
    std::optional<TimeSummary> time_summary;
    QString summary_error;
    QStringList timelines;  // Ascend timeline databases: ours or torch_npu's, one per rank
    QStringList errors;     // one line per file that could not be opened, saying why
    bool isEmpty() const { return !memory && !time && timelines.isEmpty(); }
    // Whether every report's library roots are read (ReportRun::libraryRootsRead).
    bool libraryRootsKnown() const {
        return (!memory || memory->library_roots) && (!time || time->library_roots);
    }
    QStringList reportPaths() const;  // the memory and run time reports, in that order
    QStringList paths() const;        // ... then the timelines
};

// The suffix of a run's report (".memory.sqlite", ".time.sqlite", ".timeline.sqlite") that
// `path` ends with; empty for another tool's file.
QString runReportSuffix(const QString& path);
// What the app calls a run: its reports' common name (run for run.memory.sqlite and its
// siblings), or a foreign file's name.
QString runName(const QString& path);
// A recent run as File › Open Recent and the welcome screen list it: "name — folder", the
// folder elided in its middle to `folder_width` pixels of `metrics`.
QString recentRunTitle(const QString& path, const QFontMetrics& metrics, int folder_width = 400);

// Bars in the memory and time tabs' charts (the overview shows fewer of them): the run reads
// as many, and a tab that reads its chart again for a filter asks for as many too.
constexpr int kActivationBars = 10;
constexpr int kOperationBars = 15;

// The largest entries that the charts show, read once for all pages.
struct RunCharts {
    TopEntries activations, operations, modules, weights;
};

class ReportRun : public QObject {
    Q_OBJECT
  public:
    // Starts opening `paths` at once, with the other reports of each one's run (its siblings).
    explicit ReportRun(const QStringList& paths, QObject* parent = nullptr);
    // Stops the query that runs (within milliseconds) and waits for the worker to end.
    ~ReportRun() override;

    bool isOpened() const { return opened_; }
    // Whether work was asked of the worker whose answer has not come back yet.
    bool busy() const { return in_flight_ > 0; }
    const RunContents& contents() const { return contents_; }
    const std::optional<RunCharts>& charts() const { return charts_; }
    // Calls `show` with the charts' entries once they are read: now, if they are.
    void whenChartsRead(QObject* receiver, std::function<void(const RunCharts&)> show);
    // Reads the pages of a memory or run time report's tables (the report must be open).
    RowSource* rows(ReportKind kind);
    // Runs a frames query (stackFrames(), callSites() of report_queries) on the report of
    // `kind`; `done` gets the frames, or why they cannot be read.
    using FramesQuery = std::function<QVector<FrameRow>(const ReportFile&, QString* error)>;
    void readFrames(ReportKind kind, FramesQuery query, QObject* receiver,
                    std::function<void(const QVector<FrameRow>&, const QString&)> done);

    // Runs `query` on the worker thread with the run's memory and run time reports (either may
    // be null: not in the run); `done` gets its result on this thread, unless `receiver` is gone.
    template <typename Result>
    void readReports(std::function<Result(const ReportFile* memory, const ReportFile* time)> query,
                     QObject* receiver, std::function<void(const Result&)> done) {
        postToReports(receiver, [query = std::move(query), done = std::move(done)](
                                    const ReportFile* memory, const ReportFile* time) {
            Result result = query(memory, time);
            return std::function<void()>([done, result = std::move(result)] { done(result); });
        });
    }

  signals:
    void opened();
    void chartsRead();
    void libraryRootsRead();  // in contents(): every report's library_roots is known

  private:
    class Source;
    struct Files;  // the worker's: opened reports and their connections
    void startReadingLibraryRoots(Files& files);

    // Runs `work` on the worker thread with the files; the function it returns is then run on
    // this object's thread, unless `receiver` is gone by then. Work is skipped, or its query
    // stopped, once the run closes or `abandoned` (may be null) is set.
    void post(QObject* receiver, const std::atomic<bool>* abandoned,
              std::function<std::function<void()>(Files&)> work);
    void postToReports(
        QObject* receiver,
        std::function<std::function<void()>(const ReportFile* memory, const ReportFile* time)>
            work);

    QThread thread_;
    QObject* worker_;  // lives in thread_: the target of posted work
    std::unique_ptr<Files> files_;
    std::atomic<bool> closing_{false};
    bool opened_ = false;
    int in_flight_ = 0;  // posted work not answered yet (answered when skipped, too)
    RunContents contents_;
    std::optional<RunCharts> charts_;
    std::unique_ptr<Source> memory_rows_, time_rows_;
};

}  // namespace trainscope::ui
