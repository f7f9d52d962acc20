// SPDX-License-Identifier: Apache-2.0
// `trainscope-cli show` and `export --chrome-trace` on our own reports and on databases in the
// format of torch_npu's profiler (made by tests/fixtures/make_ascend_db.py): the figures equal
// what SQL computes from the same file, the trace loads in a JSON parser with every event, the
// files read are left exactly as they were, and bad input gets one line and a non-zero exit.
#include <gtest/gtest.h>

#include <unistd.h>

#include <map>

#include "cli/cli_fixture.h"
#include "support/report_reader.h"

using namespace trainscope::test;

namespace {

class ShowExport : public Cli {
  protected:
    // An Ascend-format database in the working folder (WAL mode, TEXT timestamps, ...).
    void makeAscendDb(const std::string& name, int calls = 300) {
        const Result made = shell(std::string(TRAINSCOPE_PYTHON) + " " + ASCEND_DB_GENERATOR + " " +
                                  name + " --calls " + std::to_string(calls));
        ASSERT_EQ(made.exit_code, 0) << made.err;
    }

    // Counts of a Chrome trace's events by phase ("X", "C", "s", "f", "M"), as Python's json
    // module reads the file; "bad" counts timestamps that are not numbers.
    std::map<std::string, int64_t> traceEvents(const std::string& json) {
        const std::string script =
            "import json, collections, sys\n"
            "events = json.load(open(sys.argv[1]))['traceEvents']\n"
            "counts = collections.Counter(e['ph'] for e in events)\n"
            "counts['bad'] = sum(1 for e in events if 'ts' in e and not isinstance(e['ts'], "
            "(int, float)) or 'dur' in e and not isinstance(e['dur'], (int, float)) or "
            "not isinstance(e['pid'], int))\n"
            "print(' '.join('%s=%d' % kv for kv in sorted(counts.items())))\n";
        std::ofstream(work("count.py")) << script;
        const Result counted = shell(std::string(TRAINSCOPE_PYTHON) + " count.py " + json);
        fs::remove(work("count.py"));
        EXPECT_EQ(counted.exit_code, 0) << counted.err;
        std::map<std::string, int64_t> counts;
        std::istringstream items(counted.out);
        for (std::string item; items >> item;) {
            const size_t eq = item.find('=');
            counts[item.substr(0, eq)] = std::stoll(item.substr(eq + 1));
        }
        return counts;
    }

    static int64_t count(const ReportReader& db, const std::string& sql) {
        return std::stoll(db.scalar(sql));
    }

    static bool contains(const std::string& text, const std::string& needle) {
        return text.find(needle) != std::string::npos;
    }
};

TEST_F(ShowExport, AnAscendDatabaseShowsWhatSqlComputesAndIsLeftAsItWas) {
    makeAscendDb("rank1.db");
    const std::vector<std::string> before = workFiles();
    const std::string header = slurp(work("rank1.db")).substr(0, 20);
    ASSERT_EQ(header[18], 2) << "the generator did not leave the file in WAL mode";

    const Result shown = run("show rank1.db");
    ASSERT_EQ(shown.exit_code, 0) << shown.err;
    const Result exported = run("export --chrome-trace trace.json rank1.db");
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    // Reading created nothing beside the file (no -wal, no -shm) and changed nothing in it.
    std::vector<std::string> expected = before;
    expected.push_back("trace.json");
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(workFiles(), expected);
    EXPECT_EQ(slurp(work("rank1.db")).substr(0, 20), header);

    // The same figures, from SQL on a copy (the test's reader may write beside its file).
    fs::copy_file(work("rank1.db"), dir_ + "/copy.db");
    const ReportReader db(dir_ + "/copy.db");
    const std::string out = shown.out;
    EXPECT_TRUE(contains(
        out, "framework calls: " + db.scalar("SELECT COUNT(*) FROM PYTORCH_API") + " on " +
                 db.scalar("SELECT COUNT(DISTINCT globalTid) FROM PYTORCH_API") + " thread(s)"))
        << out;
    EXPECT_TRUE(contains(out, "op: " + db.scalar("SELECT COUNT(*) FROM PYTORCH_API "
                                                 "WHERE type = 50001")))
        << out;
    for (const std::string component : {"PTA", "GE", "PTA+GE"}) {
        const std::string of =
            "FROM MEMORY_RECORD WHERE component = (SELECT id FROM STRING_IDS "
            "WHERE value = '" +
            component + "')";
        EXPECT_TRUE(contains(out, "memory " + component + " (" +
                                      db.scalar("SELECT COUNT(*) " + of) +
                                      " records): peak allocated " +
                                      db.scalar("SELECT MAX(totalAllocated) " + of) + " B ("))
            << out;
        EXPECT_TRUE(
            contains(out, "peak reserved " + db.scalar("SELECT MAX(totalReserved) " + of) + " B ("))
            << out;
    }
    EXPECT_TRUE(contains(out, "blocks: " + db.scalar("SELECT COUNT(*) FROM OP_MEMORY") + " (" +
                                  db.scalar("SELECT COUNT(*) FROM OP_MEMORY WHERE releaseTime "
                                            "IS NULL") +
                                  " never freed"))
        << out;
    EXPECT_GT(count(db, "SELECT COUNT(*) FROM OP_MEMORY WHERE releaseTime IS NULL"), 0);
    // Every operation in the top list, with its calls and summed time, as GROUP BY gives them.
    const auto top = db.rows(
        "SELECT printf('%.3f ms  %d x ', SUM(CAST(endNs AS INTEGER) - CAST(startNs AS INTEGER)) / "
        "1e6, COUNT(*)) || (SELECT value FROM STRING_IDS WHERE id = name) FROM PYTORCH_API "
        "WHERE type = 50001 GROUP BY name ORDER BY SUM(CAST(endNs AS INTEGER) - "
        "CAST(startNs AS INTEGER)) DESC LIMIT 10");
    ASSERT_GE(top.size(), 3u);
    for (const auto& row : top)
        EXPECT_TRUE(contains(out, "\n    " + row.at(0) + "\n")) << row.at(0) << "\n" << out;
    EXPECT_TRUE(contains(out, "step 50: ")) << out;
    EXPECT_TRUE(contains(out, "device: " + db.scalar("SELECT COUNT(*) FROM TASK") + " tasks, " +
                                  db.scalar("SELECT COUNT(*) FROM CANN_API") + " CANN calls"))
        << out;
    EXPECT_TRUE(contains(
        out, "largest allocations:\n    " + db.scalar("SELECT MAX(size) FROM OP_MEMORY") + " B"))
        << out;

    // Every call, CANN call and device task is one complete event; every memory record one
    // counter; every connection to a CANN call or a task one flow.
    const auto events = traceEvents("trace.json");
    EXPECT_EQ(events.at("X"), count(db,
                                    "SELECT (SELECT COUNT(*) FROM PYTORCH_API) + (SELECT "
                                    "COUNT(*) FROM CANN_API) + (SELECT COUNT(*) FROM TASK)"));
    EXPECT_EQ(events.at("C"), count(db, "SELECT COUNT(*) FROM MEMORY_RECORD"));
    const int64_t flows =
        count(db,
              "SELECT (SELECT COUNT(*) FROM CONNECTION_IDS c JOIN PYTORCH_API a ON a.connectionId "
              "= c.id JOIN CANN_API n ON n.connectionId = c.connectionId) + (SELECT COUNT(*) FROM "
              "CONNECTION_IDS c JOIN PYTORCH_API a ON a.connectionId = c.id JOIN TASK t ON "
              "t.connectionId = c.connectionId)");
    EXPECT_GT(flows, 0);
    EXPECT_EQ(events.at("s"), flows);
    EXPECT_EQ(events.at("f"), flows);
    EXPECT_EQ(events.count("bad") ? events.at("bad") : 0, 0);
    EXPECT_TRUE(contains(exported.out, std::to_string(flows) + " links")) << exported.out;
}

TEST_F(ShowExport, OurOwnReportsShowAndOurTimelineExports) {
    ASSERT_EQ(
        run("profile --model builtin:mlp --param d_model=32 --input 2x8x32 -q -o run").exit_code,
        0);
    const Result shown = run("show run.memory.sqlite run.time.sqlite run.timeline.sqlite");
    ASSERT_EQ(shown.exit_code, 0) << shown.err;
    const ReportReader memory(work("run.memory.sqlite"));
    EXPECT_TRUE(contains(shown.out, "peak: " +
                                        memory.scalar("SELECT size_bytes FROM misc_sizes "
                                                      "WHERE key = 'peak_usage_bytes'") +
                                        " B"))
        << shown.out;
    const ReportReader time(work("run.time.sqlite"));
    EXPECT_TRUE(
        contains(shown.out, "operations: " + time.scalar("SELECT COUNT(*) FROM run_time_entries")))
        << shown.out;

    ASSERT_EQ(run("export --chrome-trace t.json run.timeline.sqlite").exit_code, 0);
    const ReportReader timeline(work("run.timeline.sqlite"));
    const auto events = traceEvents("t.json");
    EXPECT_EQ(events.at("X"), count(timeline, "SELECT COUNT(*) FROM PYTORCH_API"));
    EXPECT_EQ(events.at("C"), count(timeline, "SELECT COUNT(*) FROM MEMORY_RECORD"));
    // Forward calls linked to their backward calls.
    EXPECT_EQ(events.at("s"), count(timeline, "SELECT COUNT(*) FROM CONNECTION_IDS"));
    EXPECT_GT(events.at("s"), 0);
}

TEST_F(ShowExport, BadInputGetsOneLineAndANonZeroExit) {
    // SQLite, but no known report: a database holding only sqlite_sequence.
    ASSERT_EQ(shell(std::string(TRAINSCOPE_PYTHON) +
                    " -c \"import sqlite3; d = sqlite3.connect('seq.db'); d.execute('CREATE "
                    "TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT)'); d.execute('INSERT INTO t "
                    "DEFAULT VALUES'); d.execute('DROP TABLE t'); d.commit()\"")
                  .exit_code,
              0);
    expectCleanFailure("show seq.db", "not a known report", {"seq.db"});
    std::ofstream(work("notes.txt")) << "not a database, just text that is long enough to read";
    expectCleanFailure("show notes.txt", "not an SQLite database", {"notes.txt", "seq.db"});
    expectCleanFailure("show missing.db", "missing.db: no such file", {"notes.txt", "seq.db"});
    expectCleanFailure("export --chrome-trace t.json missing.db", "no such file",
                       {"notes.txt", "seq.db"});
    expectCleanFailure("export seq.db", "--chrome-trace", {"notes.txt", "seq.db"});
    // An empty file (SQLite would take it for an empty database), and one cut off after its
    // first page: each said for what it is.
    std::ofstream(work("empty.sqlite"));
    expectCleanFailure("show empty.sqlite", "empty.sqlite is empty (0 bytes), not a report",
                       {"empty.sqlite", "notes.txt", "seq.db"});
    ASSERT_EQ(
        run("profile --model builtin:mlp --param d_model=32 --input 2x8x32 -q -o cut").exit_code,
        0);
    const std::string whole = slurp(work("cut.timeline.sqlite"));
    ASSERT_GT(whole.size(), 8192u);
    std::ofstream(work("cut.timeline.sqlite"), std::ios::binary | std::ios::trunc)
        << whole.substr(0, whole.size() / 2);
    expectCleanFailure("show cut.timeline.sqlite", "a damaged or cut-off SQLite database",
                       {"cut.memory.sqlite", "cut.time.sqlite", "cut.timeline.sqlite",
                        "empty.sqlite", "notes.txt", "seq.db"});
    for (const char* file :
         {"cut.memory.sqlite", "cut.time.sqlite", "cut.timeline.sqlite", "empty.sqlite"})
        fs::remove(work(file));

    // A memory report has nothing over time; an existing output is kept without --force.
    ASSERT_EQ(run("memory --model builtin:mlp --param d_model=32 --input 2x8x32 -q -o m.sqlite")
                  .exit_code,
              0);
    expectCleanFailure("export --chrome-trace t.json m.sqlite", "not a timeline",
                       {"m.sqlite", "notes.txt", "seq.db"});
    makeAscendDb("a.db", 20);
    std::ofstream(work("t.json")) << "precious";
    expectCleanFailure("export --chrome-trace t.json a.db", "t.json",
                       {"a.db", "m.sqlite", "notes.txt", "seq.db", "t.json"});
    EXPECT_EQ(slurp(work("t.json")), "precious");
    EXPECT_EQ(run("export --force --chrome-trace t.json a.db").exit_code, 0);
    EXPECT_NE(slurp(work("t.json")), "precious");
}

// A path that is there but is no file says what it is, in show, export and compare.
TEST_F(ShowExport, PathsThatAreNotFilesSayWhatTheyAre) {
    fs::create_directory(work("r.timeline.sqlite"));
    ASSERT_EQ(shell("mkfifo pipe.db && ln -s /dev/zero zero.db").exit_code, 0);
    const std::vector<std::string> files = {"pipe.db", "r.timeline.sqlite", "zero.db"};
    expectCleanFailure("show r.timeline.sqlite", "r.timeline.sqlite: a folder, not a file", files);
    expectCleanFailure("show pipe.db", "pipe.db: a FIFO (named pipe), not a file", files);
    expectCleanFailure("show zero.db", "zero.db: a device, not a file", files);
    expectCleanFailure("export --chrome-trace t.json zero.db", "zero.db: a device", files);
    expectCleanFailure("export --chrome-trace t.json r.timeline.sqlite", "a folder", files);
    expectCleanFailure("compare pipe.db zero.db", "pipe.db: a FIFO", files);
}

// A run killed by a signal it cannot catch leaves its temporary file: the next run that
// writes into the folder removes it, whatever report it belonged to, and leaves the files of
// processes that still run.
TEST_F(ShowExport, AStaleTemporaryFileIsSweptByTheNextRun) {
    ASSERT_EQ(
        run("profile --model builtin:mlp --param d_model=32 --input 2x8x32 -q -o run").exit_code,
        0);
    const Result dead = shell("sh -c 'echo $$' ");  // a process that has ended
    ASSERT_EQ(dead.exit_code, 0);
    const std::string pid = dead.out.substr(0, dead.out.find('\n'));
    const std::string stale = ".trainscope-0123456789abcdef-" + pid + "-0.tmp";
    const std::string alive =
        ".trainscope-0123456789abcdef-" + std::to_string(::getpid()) + "-0.tmp";
    // Another machine's (the ranks of a job on several machines sharing the folder): its pid
    // says nothing here, so it is that machine's to sweep.
    const std::string elsewhere = ".trainscope-0123456789abcdef-" + pid + "-0badc0de-0.tmp";
    std::ofstream(work(stale)).flush();
    std::ofstream(work(alive)).flush();
    std::ofstream(work(elsewhere)).flush();
    ASSERT_EQ(run("export --chrome-trace t.json run.timeline.sqlite").exit_code, 0);
    EXPECT_FALSE(fs::exists(work(stale)));
    EXPECT_TRUE(fs::exists(work(alive)));
    EXPECT_TRUE(fs::exists(work(elsewhere)));
}

// The timelines of the corpus that budgets hold against (200,000 steps, megabyte type names,
// every call on one connection id, a 100,000-entry shape list named by every call): `show`
// lists a few steps and summarizes the rest, and an export writes each text cut and each
// linked target once, in proportion to the file.
TEST_F(ShowExport, HostileTimelinesAreReadInProportionToTheirSize) {
    const std::string corpus = std::string(HOSTILE_CORPUS) + "/";
    // Each ends within minutes, not never (as the export of two of them once did): a hang
    // fails here rather than holding the suite.
    auto run = [this](const std::string& args) {
        Result result = shell("timeout 300 " + std::string(TRAINSCOPE_CLI) + " " + args);
        EXPECT_NE(result.exit_code, 124) << args << ": still running after 5 min";
        return result;
    };
    const Result many = run("show '" + corpus + "mlp-timeline-steps-200000.sqlite'");
    ASSERT_EQ(many.exit_code, 0) << many.err;
    EXPECT_NE(many.out.find("  step 10: "), std::string::npos) << many.out;
    EXPECT_EQ(many.out.find("  step 11: "), std::string::npos) << many.out;
    // Step x lasts 500 + x % 7 µs (make_corpus.py): 500 to 506 µs, the middle one 503 µs.
    EXPECT_NE(many.out.find("  ... and 199990 more steps; all 200000: shortest 0.500 ms, median "
                            "0.503 ms, longest 0.506 ms"),
              std::string::npos)
        << many.out;

    for (const char* name :
         {"mlp-timeline-megabyte-type-names", "ascend-timeline-megabyte-type-names",
          "mlp-timeline-one-connection-id", "ascend-timeline-one-connection-id",
          "mlp-timeline-shapes-100000", "ascend-timeline-shapes-100000"}) {
        const std::string file = corpus + name + ".sqlite";
        const Result shown = run("show '" + file + "'");
        EXPECT_EQ(shown.exit_code, 0) << name << ": " << shown.err;
        EXPECT_LT(shown.out.size(), 64u * 1024) << name;  // type names cut to 4,096 characters
        const Result exported = run("export --chrome-trace t.json '" + file + "'");
        ASSERT_EQ(exported.exit_code, 0) << name << ": " << exported.err;
        // Every text at most 4,096 characters, every target linked once: the trace is a few
        // times the file, not a megabyte per call or a link per pair of calls.
        EXPECT_LT(fs::file_size(work("t.json")), 8 * fs::file_size(file) + (1 << 20)) << name;
        const ReportReader db(file);
        const auto events = traceEvents("t.json");
        EXPECT_EQ(events.count("bad") ? events.at("bad") : 0, 0) << name;
        const int64_t linkable =
            count(db,
                  "SELECT (SELECT COUNT(*) FROM PYTORCH_API WHERE connectionId IN (SELECT "
                  "connectionId FROM CONNECTION_IDS))" +
                      std::string(db.scalar("SELECT COUNT(*) FROM sqlite_master WHERE name = "
                                            "'CANN_API'") == "1"
                                      ? " + (SELECT COUNT(*) FROM CANN_API WHERE connectionId IN "
                                        "(SELECT connectionId FROM CONNECTION_IDS)) + (SELECT "
                                        "COUNT(*) FROM TASK WHERE connectionId IN (SELECT "
                                        "connectionId FROM CONNECTION_IDS))"
                                      : ""));
        EXPECT_LE(events.count("s") ? events.at("s") : 0, linkable) << name;
        fs::remove(work("t.json"));
    }
}

}  // namespace

namespace {

// Damaged and hostile reports (the corpus the app's tests open) and damaged timelines: `show`
// and `export` read each to the end or refuse it with one line, in one process (a crash or a
// sanitizer report fails the test).
TEST_F(ShowExport, HostileFilesAreReadOrRefusedWithOneLineEach) {
    const std::vector<std::string> corpus = fileNames(HOSTILE_CORPUS);
    ASSERT_GT(corpus.size(), 100u);
    long refused = 0;
    // In batches: one shell command line may not exceed 128 KiB.
    for (size_t first = 0; first < corpus.size(); first += 200) {
        std::string files;
        for (size_t i = first; i < std::min(corpus.size(), first + 200); ++i) {
            files += " '" + std::string(HOSTILE_CORPUS) + "/" + corpus[i] + "'";
        }
        const Result shown = run("show" + files);
        EXPECT_TRUE(shown.exit_code == 0 || shown.exit_code == 1) << shown.exit_code;
        refused += std::count(shown.err.begin(), shown.err.end(), '\n');
    }
    EXPECT_GT(refused, 0);  // the corpus has unreadable files
    EXPECT_LT(refused, static_cast<long>(corpus.size()));

    // Timelines damaged in the ways a reader meets: text where numbers belong, names without
    // strings, a view in a table's place, missing columns and tables.
    makeAscendDb("seed.db", 40);
    const std::vector<std::pair<std::string, std::string>> damage = {
        {"garbage-times", "UPDATE PYTORCH_API SET startNs = 'soon', endNs = x'00ff'"},
        {"no-strings", "DROP TABLE STRING_IDS"},
        {"huge-values", "UPDATE MEMORY_RECORD SET totalAllocated = 1e308, timestamp = -1"},
        {"view-in-place",
         "DROP TABLE PYTORCH_API; CREATE VIEW PYTORCH_API AS WITH RECURSIVE "
         "r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS startNs "
         "FROM r"},
        {"no-columns",
         "ALTER TABLE TASK DROP COLUMN streamId; ALTER TABLE MEMORY_RECORD DROP "
         "COLUMN totalActive"},
        {"no-calls", "DROP TABLE PYTORCH_API"},
    };
    std::string damaged;
    for (const auto& [name, sql] : damage) {
        fs::copy_file(work("seed.db"), work(name + ".db"));
        std::ofstream(work(name + ".sql")) << sql;
        const Result changed =
            shell(std::string(TRAINSCOPE_PYTHON) +
                  " -c \"import sqlite3, sys; d = "
                  "sqlite3.connect(sys.argv[1]); d.executescript(open(sys.argv[2]).read()); "
                  "d.commit()\" " +
                  name + ".db " + name + ".sql");
        ASSERT_EQ(changed.exit_code, 0) << name << ": " << changed.err;
        damaged += " " + name + ".db";
    }
    const Result timelines = run("show" + damaged);
    EXPECT_TRUE(timelines.exit_code == 0 || timelines.exit_code == 1) << timelines.err;
    EXPECT_LE(std::count(timelines.err.begin(), timelines.err.end(), '\n'),
              static_cast<long>(damage.size()));
    for (const auto& [name, sql] : damage) {
        const Result exported = run("export --chrome-trace " + name + ".json " + name + ".db");
        EXPECT_TRUE(exported.exit_code == 0 || exported.exit_code == 1) << name;
        if (exported.exit_code == 0) {
            EXPECT_EQ(traceEvents(name + ".json").at("bad"), 0) << name;
        } else {
            EXPECT_EQ(std::count(exported.err.begin(), exported.err.end(), '\n'), 1) << name;
            EXPECT_FALSE(fs::exists(work(name + ".json"))) << name;
        }
    }
}

}  // namespace
