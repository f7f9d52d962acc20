// The SQL the app runs against reports, in one place: table models, totals, stack frames.
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QVector>
#include <optional>

#include "report/sql_table_model.h"

namespace trainscope::ui {

struct MemorySummary {
    qint64 peak = 0;
    qint64 weights = 0;
    qint64 gradients = 0;
    qint64 activations = 0;
    qint64 other() const { return qMax<qint64>(0, peak - weights - gradients - activations); }
};

struct TimeSummary {
    double forward_ms = 0;
    double backward_ms = 0;
    qint64 operations = 0;
};

struct FrameRow {
    QString file_path;
    int line_number = 0;
};

std::optional<MemorySummary> memorySummary(QSqlDatabase db, QString* error);
std::optional<TimeSummary> timeSummary(QSqlDatabase db, QString* error);

SqlTableModel* weightsModel(QSqlDatabase db, qint64 peak, QObject* parent);
SqlTableModel* activationsModel(QSqlDatabase db, qint64 peak, QObject* parent);
SqlTableModel* operationsModel(QSqlDatabase db, double iteration_ms, QObject* parent);

enum class EntryTable { Weight, Activation, Operation };
// Most specific first.
QVector<FrameRow> stackFrames(QSqlDatabase db, EntryTable table, qint64 entry_id);

}  // namespace trainscope::ui
