#include "report/report_file.h"

#include <QAtomicInt>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>

namespace trainscope::ui {
namespace {

struct TableContract {
    const char* table;
    const char* columns;
};

// The columns each kind's readers rely on (shared/REFERENCE.md section 1).
const TableContract kMemoryTables[] = {
    {"weight_entries", "id, name, size_bytes, grad_size_bytes"},
    {"activation_entries", "id, operation_name, size_bytes"},
    {"stack_correlation", "correlation_id, entry_id, entry_type"},
    {"stack_frames", "correlation_id, ordering, file_path, line_number"},
    {"misc_sizes", "key, size_bytes"},
};
const TableContract kTimeTables[] = {
    {"run_time_entries", "id, operation_name, forward_ms, backward_ms"},
    {"stack_frames", "ordering, file_path, line_number, entry_id"},
};

QString newConnectionName() {
    static QAtomicInt counter;
    return QStringLiteral("trainscope-report-%1").arg(counter.fetchAndAddRelaxed(1));
}

// Checks every table of the contract by querying its columns; returns the problem, if any.
template <size_t N>
QString checkContract(QSqlDatabase& db, const TableContract (&tables)[N]) {
    for (const TableContract& contract : tables) {
        QSqlQuery query(db);
        const QString sql =
            QStringLiteral("SELECT %1 FROM %2 LIMIT 1").arg(contract.columns, contract.table);
        if (!query.exec(sql)) {
            return QStringLiteral("table %1 lacks the columns %2 (%3)")
                .arg(contract.table, contract.columns, query.lastError().databaseText());
        }
    }
    return {};
}

}  // namespace

std::unique_ptr<ReportFile> ReportFile::open(const QString& path, QString* error) {
    auto fail = [&](const QString& why) {
        *error = QObject::tr("Cannot open %1: %2").arg(path, why);
        return nullptr;
    };
    const QFileInfo info(path);
    if (!info.exists())
        return fail(QObject::tr("the file does not exist"));
    if (!info.isFile() || !info.isReadable())
        return fail(QObject::tr("the file is not readable"));
    if (info.size() == 0)
        return fail(QObject::tr("the file is empty"));

    const QString connection = newConnectionName();
    ReportKind kind = ReportKind::Memory;
    QString problem;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
        db.setDatabaseName(path);
        // Read-only: viewing never changes a byte or the modification time of a report.
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (!db.open()) {
            problem = db.lastError().text();
        } else {
            QSqlQuery tables(db);
            if (!tables.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type='table'"))) {
                problem =
                    QObject::tr("not an SQLite report (%1)").arg(tables.lastError().databaseText());
            } else {
                QStringList names;
                while (tables.next())
                    names << tables.value(0).toString();
                if (names.contains(QStringLiteral("weight_entries"))) {
                    kind = ReportKind::Memory;
                    problem = checkContract(db, kMemoryTables);
                } else if (names.contains(QStringLiteral("run_time_entries"))) {
                    kind = ReportKind::Time;
                    problem = checkContract(db, kTimeTables);
                } else {
                    problem = QObject::tr(
                        "an SQLite database, but not a memory or run time report (it has no "
                        "weight_entries or run_time_entries table)");
                }
            }
        }
        if (!problem.isEmpty())
            db.close();
    }
    if (!problem.isEmpty()) {
        QSqlDatabase::removeDatabase(connection);
        return fail(problem);
    }
    return std::unique_ptr<ReportFile>(new ReportFile(path, connection, kind));
}

ReportFile::ReportFile(QString path, QString connection, ReportKind kind)
    : path_(std::move(path)), connection_(std::move(connection)), kind_(kind) {}

ReportFile::~ReportFile() {
    {
        QSqlDatabase db = QSqlDatabase::database(connection_, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(connection_);
}

QSqlDatabase ReportFile::database() const {
    return QSqlDatabase::database(connection_, false);
}

}  // namespace trainscope::ui
