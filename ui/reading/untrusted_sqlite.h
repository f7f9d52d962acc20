// SPDX-License-Identifier: Apache-2.0
// Opening a database that anyone may have made, as SQLite advises for untrusted files
// (sqlite.org/security.html): read-only and immutable (viewing never creates or changes a
// file, and never waits on a lock), defensive mode, no trusted schema, a cap on the length of
// any value, and a progress handler that stops any query running past its time budget.
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <atomic>

namespace trainscope::ui {

// Queries on report connections are interrupted after this long (by default: see
// setQueryBudget). The budget stops what would run forever (a hostile file's recursion), not
// what is merely large: the views' queries run on the run's own thread, so a long one keeps no
// window waiting (By Source Line over millions of entries takes seconds), and a newer sort or
// closing the report stops it at once.
constexpr int kQueryBudgetMs = 30000;
// Longest text or blob a query may return; longer values fail the query ("string or blob
// too big"), which the caller reports.
constexpr int kMaxValueBytes = 1 << 20;

// Adds a connection named `connection` to `path`, opened as described above. Returns an
// empty string on success, otherwise why it could not be opened.
QString openUntrusted(const QString& path, const QString& connection);

// Starts a new time budget for the queries that the calling thread runs next. Every entry
// point that runs SQL calls it.
void restartQueryClock();

// Changes the budget of every query started from now on, on any thread (kQueryBudgetMs until
// then). The tests shorten it to see what a user sees when a query over a large report is
// stopped.
void setQueryBudget(int milliseconds);
int queryBudget();

// What the budget is measured with: milliseconds on a steady clock, unless the tests give a
// clock of their own (null: the steady clock again). Returns the clock used until then.
using QueryClock = qint64 (*)();
QueryClock setQueryClock(QueryClock clock);

// The queries that the calling thread runs next also stop as soon as one of these flags is set
// (a null flag is never set): the app sets them when nobody waits for the answer any more (the
// table was sorted again, the report was closed). Returns the flags watched until then.
struct CancelFlags {
    const std::atomic<bool>* first = nullptr;
    const std::atomic<bool>* second = nullptr;
};
CancelFlags watchCancelFlags(CancelFlags flags);
CancelFlags watchedCancelFlags();  // the calling thread's

}  // namespace trainscope::ui
