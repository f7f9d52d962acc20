// libFuzzer target for the code that opens, checks and queries reports that anyone may have
// made (ui/report). Each input is written to a file and read as the app reads a report: open
// and check it, then run every query the views run (summaries, charts, every table sorted by
// each column and filtered, stack frames, metadata). Besides the sanitizers' findings, the
// target aborts when viewing created or changed a file in the input's folder.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "report/report_file.h"
#include "report/report_queries.h"
#include "report/sql_table_model.h"
#include "support/folder_snapshot.h"

using namespace trainscope::ui;

namespace {

QTemporaryDir* scratch = nullptr;

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

void exerciseFrames(QSqlDatabase db, EntryTable table, SqlTableModel* model) {
    for (int row = 0; row < qMin(model->rowCount(), 8); ++row)
        (void)stackFrames(db, table, model->entryId(row));
}

void exerciseReport(const ReportFile& report) {
    QSqlDatabase db = report.database();
    QString error;
    (void)metadataValue(db, QStringLiteral("project_root"));
    (void)metadataValue(db, QStringLiteral("frames_note"));
    (void)libraryRoots(db);
    if (report.kind() == ReportKind::Memory) {
        const auto summary = memorySummary(db, &error);
        if (!summary)
            return;
        (void)topModulesAtPeak(db, 10);
        (void)topWeights(db, 10);
        (void)topActivations(db, 10);
        std::unique_ptr<SqlTableModel> weights(weightsModel(db, summary->peak, nullptr));
        std::unique_ptr<SqlTableModel> activations(activationsModel(db, summary->peak, nullptr));
        std::unique_ptr<SqlTableModel> lines(memoryBySourceLineModel(db, summary->peak, nullptr));
        for (SqlTableModel* model : {weights.get(), activations.get(), lines.get()})
            exerciseModel(model);
        exerciseFrames(db, EntryTable::Weight, weights.get());
        exerciseFrames(db, EntryTable::Activation, activations.get());
    } else {
        const auto summary = timeSummary(db, &error);
        if (!summary)
            return;
        (void)topOperationsByTime(db, 10);
        const double iteration_ms = summary->iteration_ms();
        std::unique_ptr<SqlTableModel> operations(operationsModel(db, iteration_ms, nullptr));
        std::unique_ptr<SqlTableModel> groups(groupedOperationsModel(db, iteration_ms, nullptr));
        std::unique_ptr<SqlTableModel> lines(timeBySourceLineModel(db, iteration_ms, nullptr));
        for (SqlTableModel* model : {operations.get(), groups.get(), lines.get()})
            exerciseModel(model);
        exerciseFrames(db, EntryTable::Operation, operations.get());
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    static QCoreApplication app(*argc, *argv);  // QtSql finds its SQLite driver through it
    scratch = new QTemporaryDir;
    return scratch->isValid() ? 0 : 1;
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
    if (trainscope::test::folderSnapshot(scratch->path()) != before) {
        std::fprintf(stderr, "viewing a report created or changed a file\n");
        std::abort();
    }
    return 0;
}
