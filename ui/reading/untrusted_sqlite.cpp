// SPDX-License-Identifier: Apache-2.0
#include "reading/untrusted_sqlite.h"

#include <sqlite3.h>

#include <chrono>

#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QUrlQuery>

namespace trainscope::ui {
namespace {

qint64 steadyMilliseconds() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Connections are used only by the thread that opened them, so one budget's start per thread.
thread_local qint64 t_query_started = -1;
thread_local CancelFlags t_cancel_flags;
std::atomic<int> g_query_budget_ms{kQueryBudgetMs};
std::atomic<QueryClock> g_query_clock{&steadyMilliseconds};

bool isSet(const std::atomic<bool>* flag) {
    return flag && flag->load(std::memory_order_relaxed);
}

int stopQuery(void*) {
    if (isSet(t_cancel_flags.first) || isSet(t_cancel_flags.second))
        return 1;
    return t_query_started >= 0 &&
                   g_query_clock.load()() - t_query_started > g_query_budget_ms.load()
               ? 1
               : 0;
}

sqlite3* handleOf(const QSqlDatabase& db) {
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3* const*>(handle.data());
}

}  // namespace

void restartQueryClock() {
    t_query_started = g_query_clock.load()();
}

QueryClock setQueryClock(QueryClock clock) {
    return g_query_clock.exchange(clock ? clock : &steadyMilliseconds);
}

void setQueryBudget(int milliseconds) {
    g_query_budget_ms = milliseconds;
}

int queryBudget() {
    return g_query_budget_ms;
}

CancelFlags watchCancelFlags(CancelFlags flags) {
    std::swap(flags, t_cancel_flags);
    return flags;
}

CancelFlags watchedCancelFlags() {
    return t_cancel_flags;
}

QString openUntrusted(const QString& path, const QString& connection) {
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
    // immutable=1: SQLite reads the file as a constant, so a WAL-mode report gets no -wal or
    // -shm file and a locked one is read without waiting.
    QUrl uri = QUrl::fromLocalFile(path);
    QUrlQuery options;
    options.addQueryItem(QStringLiteral("mode"), QStringLiteral("ro"));
    options.addQueryItem(QStringLiteral("immutable"), QStringLiteral("1"));
    uri.setQuery(options);
    db.setDatabaseName(uri.toString(QUrl::FullyEncoded));
    db.setConnectOptions(
        QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI;QSQLITE_BUSY_TIMEOUT=0"));
    if (!db.open())
        return db.lastError().text();
    sqlite3* handle = handleOf(db);
    if (!handle)
        return QObject::tr("the SQLite driver gives no handle to secure the connection");
    sqlite3_db_config(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(handle, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(handle, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
    sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, kMaxValueBytes);
    sqlite3_limit(handle, SQLITE_LIMIT_SQL_LENGTH, 100000);
    // Every 100,000 virtual-machine steps (a few milliseconds): often enough to stop a query
    // within its budget or soon after it was cancelled, rare enough to cost nothing measurable
    // (every 1,000 steps made sorting and grouping a 1M-row report 30-50 % slower,
    // bench/report_open).
    sqlite3_progress_handler(handle, 100000, stopQuery, nullptr);
    restartQueryClock();
    return {};
}

}  // namespace trainscope::ui
