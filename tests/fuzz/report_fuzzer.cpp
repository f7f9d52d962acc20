// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the code that opens, checks and queries reports that anyone may have
// made: the app's report reader (ui/reading), the core's readers of any report file
// (summaries, timelines, the Chrome export), and the import of other tools' files
// (torch.profiler traces, gzipped or not, and memory snapshots' pickles). Each input is written to
// a file and read as the app reads a report: open and check it, then run every query the views run
// (summaries, charts, every table sorted by each column and filtered, stack frames, metadata); then
// as `show`, `export` and the timeline read it. Besides the sanitizers' findings, the target aborts
// when viewing created or changed a file in the input's folder.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "reading/report_file.h"
#include "reading/report_queries.h"
#include "reading/sql_table_model.h"
#include "reading/untrusted_sqlite.h"
#include "support/folder_snapshot.h"
#include "trainscope/cluster.h"
#include "trainscope/error.h"
#include "trainscope/imported_file.h"
#include "trainscope/report_reading.h"
#include "trainscope/timeline_data.h"

using namespace trainscope::ui;

namespace {

QTemporaryDir* scratch = nullptr;
QTemporaryDir* exports = nullptr;  // where the Chrome export of a timeline goes

// Reads each page at once, on this thread: the fuzzer exercises the SQL on hostile files; the
// app's worker thread only carries the same requests to the same readRows().
class DirectRows : public RowSource {
  public:
    explicit DirectRows(const ReportFile& report) : report_(report) {}
    void read(RowRequest request, QObject*, std::function<void(const RowPage&)> done) override {
        done(readReportRows(report_, request));
    }

  private:
    const ReportFile& report_;
};

// What a view does with a table: read every cell in every role, sort by each column both ways,
// filter, and read it again.
void exerciseModel(SqlTableModel* model) {
    auto readAll = [model] {
        while (model->canFetchMore({}))
            model->fetchMore({});
        for (int row = 0; row < model->rowCount(); ++row) {
            (void)model->entryId(row);
            for (int column = 0; column < model->columnCount(); ++column) {
                for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole),
                                 int(Qt::TextAlignmentRole), int(SqlTableModel::SortRole)})
                    (void)model->data(model->index(row, column), role);
            }
        }
        (void)model->errorMessage();
    };
    readAll();
    for (int column = 1; column < model->columnCount(); ++column) {
        model->sort(column, Qt::DescendingOrder);
        readAll();
        model->sort(column, Qt::AscendingOrder);
    }
    model->setFilter(QStringLiteral("a%_\\"));
    readAll();
    model->setFilter({});
}

void exerciseFrames(const ReportFile& report, EntryTable table, SqlTableModel* model) {
    for (int row = 0; row < qMin(model->rowCount(), 8); ++row) {
        (void)stackFrames(report, table, model->entryId(row));
        if (table == EntryTable::Operation)  // a grouped row's call sites
            (void)callSites(report, model->rawValue(row, 1).toString());
    }
}

void exerciseReport(const ReportFile& report) {
    QString error;
    (void)metadataValue(report, QStringLiteral("project_root"));
    (void)metadataValue(report, QStringLiteral("frames_note"));
    (void)libraryRoots(report);
    DirectRows rows(report);
    const QStringList& tables = report.tables();
    if (report.kind() == ReportKind::Memory) {
        const auto summary = memorySummary(report, &error);
        if (!summary)
            return;
        (void)topModulesAtPeak(report, 10);
        (void)topWeights(report, 10);
        (void)topActivations(report, 10);
        const qint64 peak = summary->peak;
        SqlTableModel weights(&rows, weightsTable(tables, peak));
        SqlTableModel activations(&rows, activationsTable(tables, peak));
        SqlTableModel lines(&rows, memoryBySourceLineTable(peak));
        for (SqlTableModel* model : {&weights, &activations, &lines})
            exerciseModel(model);
        exerciseFrames(report, EntryTable::Weight, &weights);
        exerciseFrames(report, EntryTable::Activation, &activations);
    } else {
        const auto summary = timeSummary(report, &error);
        if (!summary)
            return;
        (void)topOperationsByTime(report, 10);
        const trainscope::PartTimes& times = summary->times;
        SqlTableModel operations(&rows, operationsTable(tables, times));
        SqlTableModel groups(&rows, groupedOperationsTable(tables, times));
        SqlTableModel lines(&rows, timeBySourceLineTable(tables, times));
        for (SqlTableModel* model : {&operations, &groups, &lines})
            exerciseModel(model);
        exerciseFrames(report, EntryTable::Operation, &operations);
    }
}

// The core's readers, as `show`, `export --chrome-trace` and the app's timeline use them: the
// summary, the ranks' reading of a timeline, the timeline read whole (with its links followed and
// its steps summed up), and the Chrome export, written beside the input's folder so that the check
// below sees no change. A refusal is a trainscope::Error; anything else escapes and fails.
void exerciseTimelineReaders(const std::string& path) {
    try {
        (void)trainscope::summarizeReportFile(path, 20);
    } catch (const trainscope::Error&) {
    }
    try {  // as the ranks' summary reads a timeline
        (void)trainscope::rankFactsOf(
            trainscope::loadTimelineData(path, trainscope::TimelineParts::CallsAndSteps));
    } catch (const trainscope::Error&) {
    }
    try {
        const trainscope::TimelineData data = trainscope::loadTimelineData(path);
        (void)trainscope::digestSteps(data.steps);
        for (size_t lane = 0; lane < data.lanes.size() && lane < 4; ++lane) {
            for (size_t i = 0; i < data.lanes[lane].spans.size() && i < 16; ++i)
                (void)trainscope::linkedSpans(data, {int32_t(lane), int32_t(i)});
        }
        (void)trainscope::exportChromeTrace(path, exports->filePath("trace.json").toStdString(),
                                            trainscope::Overwrite::Allow);
    } catch (const trainscope::Error&) {
    }
}

// The import, as `import` and `show` read a trace or a snapshot: read from memory, it writes
// nothing. A refusal is a trainscope::Error.
void exerciseImport(const uint8_t* data, size_t size) {
    try {
        (void)trainscope::importBytes(std::string_view(reinterpret_cast<const char*>(data), size),
                                      "input");
    } catch (const trainscope::Error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    static QCoreApplication app(*argc, *argv);  // QtSql finds its SQLite driver through it
    // Well under libFuzzer's -timeout (10 s): a query that runs long is stopped by its budget,
    // which is what the app does with it too (after longer).
    setQueryBudget(3000);
    scratch = new QTemporaryDir;
    exports = new QTemporaryDir;
    return scratch->isValid() && exports->isValid() ? 0 : 1;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // A report is recognised by its tables, not its name; the name only has to be plausible.
    const QString path = scratch->filePath(QStringLiteral("input.sqlite"));
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        file.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    }
    const QStringList before = trainscope::test::folderSnapshot(scratch->path());
    {
        QString error;
        const std::unique_ptr<ReportFile> report = ReportFile::open(path, &error);
        if (report)
            exerciseReport(*report);
        else if (error.isEmpty())
            std::abort();  // a refused file always says why
    }
    exerciseTimelineReaders(path.toStdString());
    exerciseImport(data, size);
    if (trainscope::test::folderSnapshot(scratch->path()) != before) {
        std::fprintf(stderr, "viewing a report created or changed a file\n");
        std::abort();
    }
    return 0;
}
