// SPDX-License-Identifier: Apache-2.0
// exportChromeTrace(): the Ascend timeline's tables as Chrome Trace Event JSON, streamed row by row
// (a timeline of millions of calls is never held in memory).
#include <cinttypes>
#include <cstdio>
#include <set>

#include "report/readonly_db.h"
#include "report/staged_file.h"
#include "report/timeline_reading.h"
#include "trainscope/error.h"
#include "trainscope/json_text.h"
#include "trainscope/report_format.h"
#include "trainscope/report_reading.h"

namespace trainscope {
namespace {

// Device rows get process ids of their own, above any real pid (Linux pids stay below 2^22)
// and within the 32 bits that trace viewers read.
constexpr int64_t kDevicePidBase = 0x7f000000;

class JsonWriter {
  public:
    // Writes `path`, which becomes `shown_path` (named in errors).
    JsonWriter(const std::string& path, std::string shown_path)
        : file_(std::fopen(path.c_str(), "wb")), shown_path_(std::move(shown_path)) {
        if (!file_) {
            throw Error("cannot write " + shown_path_);
        }
    }
    ~JsonWriter() {
        if (file_) {
            std::fclose(file_);
        }
    }
    JsonWriter(const JsonWriter&) = delete;
    JsonWriter& operator=(const JsonWriter&) = delete;

    JsonWriter& raw(std::string_view text) {
        buffer_.append(text);
        if (buffer_.size() > (1 << 20)) {
            flush();
        }
        return *this;
    }
    // Every text of the file, as readers show it (shownText()).
    JsonWriter& string(const std::string& text) {
        appendJsonString(buffer_, shownText(text));
        return *this;
    }
    JsonWriter& integer(int64_t value) {
        char text[24];
        std::snprintf(text, sizeof text, "%" PRId64, value);
        return raw(text);
    }
    // ns as µs with all three decimals: exact text, never a rounded double.
    JsonWriter& micros(int64_t ns) {
        char text[32];
        const char* sign = ns < 0 ? "-" : "";
        const uint64_t magnitude = ns < 0 ? 0 - static_cast<uint64_t>(ns) : ns;
        std::snprintf(text, sizeof text, "%s%" PRIu64 ".%03" PRIu64, sign, magnitude / 1000,
                      magnitude % 1000);
        return raw(text);
    }
    void finish() {
        flush();
        if (std::fflush(file_) != 0 || std::ferror(file_)) {
            throw Error("cannot write " + shown_path_ + " (disk full?)");
        }
    }

  private:
    void flush() {
        if (!buffer_.empty() &&
            std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
            throw Error("cannot write " + shown_path_ + " (disk full?)");
        }
        buffer_.clear();
    }
    std::FILE* file_;
    std::string shown_path_;
    std::string buffer_;
};

class TraceExport {
  public:
    TraceExport(const ReadOnlyDb& db, JsonWriter& out) : db_(db), out_(out), strings_(db) {}

    ChromeTraceCounts run() {
        origin_ = earliestTimestamp();
        out_.raw("{\"traceEvents\":[\n");
        if (db_.hasTable("PYTORCH_API")) {
            frameworkCalls();
        }
        if (db_.hasTable("CANN_API")) {
            cannCalls();
        }
        if (db_.hasTable("TASK")) {
            deviceTasks();
        }
        if (db_.hasTable("MEMORY_RECORD")) {
            memoryCounters();
        }
        if (db_.hasTable("CONNECTION_IDS") && db_.hasTable("PYTORCH_API")) {
            flows();
        }
        names();
        out_.raw("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"origin_ns\":");
        out_.string(std::to_string(origin_)).raw(",\"source\":\"TrainScope\"}}\n");
        out_.finish();
        return counts_;
    }

  private:
    // The earliest timestamp of any table (empty tables' NULL minima skipped).
    int64_t earliestTimestamp() const {
        std::string minima;
        auto add = [&](const char* table, const char* column) {
            if (db_.hasTable(table) && db_.columns(table).count(column)) {
                minima += std::string(minima.empty() ? "" : " UNION ALL ") + "SELECT (SELECT MIN(" +
                          nanosecondsOf(column) + ") FROM " + table + ") AS v";
            }
        };
        add("PYTORCH_API", "startNs");
        add("CANN_API", "startNs");
        add("TASK", "startNs");
        add("MEMORY_RECORD", "timestamp");
        if (minima.empty()) {
            return 0;
        }
        ReadQuery query(db_, "SELECT MIN(v) FROM (" + minima + ") WHERE v IS NOT NULL");
        return query.step() && !query.isNull(0) ? query.integer(0) : 0;
    }

    void separator() {
        if (!first_) {
            out_.raw(",\n");
        }
        first_ = false;
    }

    void complete(const std::string& name, const std::string& category, int64_t start, int64_t end,
                  int64_t pid, int64_t tid) {
        separator();
        out_.raw("{\"ph\":\"X\",\"name\":").string(name).raw(",\"cat\":").string(category);
        out_.raw(",\"ts\":").micros(start - origin_).raw(",\"dur\":").micros(end - start);
        out_.raw(",\"pid\":").integer(pid).raw(",\"tid\":").integer(tid);
        ++counts_.complete;
        pids_.insert(pid);
    }

    void frameworkCalls() {
        requireColumns(db_, "PYTORCH_API", {"startNs", "endNs", "globalTid", "name"});
        const std::set<std::string> columns = db_.columns("PYTORCH_API");
        auto optional = [&](const char* column, const std::string& expression) {
            return columns.count(column) ? expression : std::string("NULL");
        };
        const bool types = columns.count("type") && db_.hasTable("ENUM_API_TYPE");
        // Texts come cut (FileStrings, substr): the sort holds each row once.
        const std::string cut = ", 1, " + std::to_string(kShownTextChars + 1) + ")";
        ReadQuery calls(
            db_,
            "SELECT a.name, " + nanosecondsOf("a.startNs") + ", " + nanosecondsOf("a.endNs") +
                ", a.globalTid, " +
                (types ? "IFNULL(substr((SELECT name FROM ENUM_API_TYPE e WHERE e.id = a.type)" +
                             cut + ", 'op')"
                       : std::string("'op'")) +
                ", " + optional("sequenceNumber", "a.sequenceNumber") + ", " +
                optional("inputShapes", "a.inputShapes") + ", " +
                optional("inputDtypes", "a.inputDtypes") + ", " +
                (db_.hasTable(report_format::kApiModulesTable) && columns.count("connectionId")
                     ? std::string("substr((SELECT module_path FROM ") +
                           report_format::kApiModulesTable +
                           " m WHERE m.connection_id = a.connectionId)" + cut
                     : std::string("NULL")) +
                " FROM PYTORCH_API a ORDER BY 2");
        while (calls.step()) {
            const int64_t tid = calls.integer(3);
            main_pid_ = main_pid_ ? main_pid_ : tid >> 32;
            complete(strings_.text(calls, 0), calls.text(4), calls.integer(1), calls.integer(2),
                     tid >> 32, tid & 0xffffffff);
            out_.raw(",\"args\":{");
            bool any = false;
            auto arg = [&](const char* key, const std::string& value) {
                if (!value.empty()) {
                    out_.raw(any ? "," : "").string(key).raw(":").string(value);
                    any = true;
                }
            };
            arg("sequence number", calls.isNull(5) ? std::string() : calls.text(5));
            arg("input shapes", strings_.text(calls, 6));
            arg("input dtypes", strings_.text(calls, 7));
            arg("module", calls.isNull(8) ? std::string() : calls.text(8));
            out_.raw("}}");
        }
    }

    void cannCalls() {
        requireColumns(db_, "CANN_API", {"startNs", "endNs", "globalTid", "name"});
        ReadQuery calls(db_, "SELECT name, " + nanosecondsOf("startNs") + ", " +
                                 nanosecondsOf("endNs") + ", globalTid FROM CANN_API");
        while (calls.step()) {
            const int64_t tid = calls.integer(3);
            complete(strings_.text(calls, 0), "cann", calls.integer(1), calls.integer(2), tid >> 32,
                     tid & 0xffffffff);
            out_.raw("}");
        }
    }

    void deviceTasks() {
        requireColumns(db_, "TASK", {"startNs", "endNs", "deviceId", "streamId"});
        ReadQuery tasks(db_, "SELECT " + deviceTaskName(db_, "t") + ", " +
                                 nanosecondsOf("t.startNs") + ", " + nanosecondsOf("t.endNs") +
                                 ", t.deviceId, t.streamId FROM TASK t ORDER BY 2");
        while (tasks.step()) {
            const int64_t device = tasks.integer(3);
            std::string task = tasks.text(0);
            complete(task.empty() ? std::string("task") : task, "device", tasks.integer(1),
                     tasks.integer(2), kDevicePidBase + device, tasks.integer(4));
            out_.raw("}");
        }
    }

    void memoryCounters() {
        requireColumns(
            db_, "MEMORY_RECORD",
            {"component", "timestamp", "totalAllocated", "totalReserved", "totalActive"});
        ReadQuery samples(db_, "SELECT component, " + nanosecondsOf("timestamp") +
                                   ", totalAllocated, totalReserved, totalActive "
                                   "FROM MEMORY_RECORD ORDER BY 2");
        while (samples.step()) {
            separator();
            out_.raw("{\"ph\":\"C\",\"name\":").string("Memory " + strings_.text(samples, 0));
            out_.raw(",\"ts\":").micros(samples.integer(1) - origin_);
            out_.raw(",\"pid\":").integer(main_pid_).raw(",\"args\":{\"allocated\":");
            out_.integer(samples.integer(2)).raw(",\"reserved\":").integer(samples.integer(3));
            out_.raw(",\"active\":").integer(samples.integer(4)).raw("}}");
            ++counts_.counters;
        }
    }

    // CONNECTION_IDS maps a framework call's connectionId to one or more global ids: those of
    // its backward calls (TrainScope's files) or of the CANN calls and device tasks it
    // launched (torch_npu's). Each link is a flow from the call's start to the target's.
    //
    // A target has one launcher, so each target gets one flow, from the first call with the
    // first id that names it and has a call: what a file repeats (ids, pairs, calls with one
    // connectionId) costs nothing more, and the flows are never more than the targets.
    void flows() {
        requireColumns(db_, "CONNECTION_IDS", {"id", "connectionId"});
        if (!db_.columns("PYTORCH_API").count("connectionId")) {
            return;
        }
        std::string targets = "SELECT connectionId AS link, " + nanosecondsOf("startNs") +
                              " AS start, globalTid >> 32 AS pid, globalTid & 4294967295 AS tid "
                              "FROM PYTORCH_API";
        if (db_.hasTable("CANN_API") && db_.columns("CANN_API").count("connectionId")) {
            targets += " UNION ALL SELECT connectionId, " + nanosecondsOf("startNs") +
                       ", globalTid >> 32, globalTid & 4294967295 FROM CANN_API";
        }
        if (db_.hasTable("TASK") && db_.columns("TASK").count("connectionId")) {
            targets += " UNION ALL SELECT connectionId, " + nanosecondsOf("startNs") + ", " +
                       std::to_string(kDevicePidBase) + " + deviceId, streamId FROM TASK";
        }
        // MIN() picks its row's other columns (SQLite's bare columns): the first call.
        ReadQuery links(
            db_,
            "WITH launcher AS (SELECT connectionId AS link, MIN(id) AS id FROM CONNECTION_IDS "
            "WHERE id IN (SELECT connectionId FROM PYTORCH_API) GROUP BY connectionId), "
            "source AS (SELECT connectionId AS id, MIN(" +
                nanosecondsOf("startNs") +
                ") AS start, globalTid >> 32 AS pid, globalTid & 4294967295 AS tid "
                "FROM PYTORCH_API GROUP BY connectionId) "
                "SELECT s.start, s.pid, s.tid, t.start, t.pid, t.tid FROM (" +
                targets +
                ") t JOIN launcher l ON l.link = t.link JOIN source s ON s.id = l.id ORDER BY 1");
        while (links.step()) {
            const int64_t id = ++counts_.flows;
            separator();
            out_.raw("{\"ph\":\"s\",\"name\":\"link\",\"cat\":\"flow\",\"id\":").integer(id);
            out_.raw(",\"ts\":").micros(links.integer(0) - origin_);
            out_.raw(",\"pid\":").integer(links.integer(1)).raw(",\"tid\":");
            out_.integer(links.integer(2)).raw("},\n");
            out_.raw("{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"link\",\"cat\":\"flow\",\"id\":");
            out_.integer(id).raw(",\"ts\":").micros(links.integer(3) - origin_);
            out_.raw(",\"pid\":").integer(links.integer(4)).raw(",\"tid\":");
            out_.integer(links.integer(5)).raw("}");
        }
    }

    // Metadata events: readable process names (threads keep their numbers).
    void names() {
        for (const int64_t pid : pids_) {
            separator();
            const bool device = pid >= kDevicePidBase;
            out_.raw("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":").integer(pid);
            out_.raw(",\"args\":{\"name\":");
            out_.string(device ? "Device " + std::to_string(pid - kDevicePidBase)
                               : "Process " + std::to_string(pid));
            out_.raw("}}");
        }
    }

    const ReadOnlyDb& db_;
    JsonWriter& out_;
    const FileStrings strings_;
    int64_t origin_ = 0;
    int64_t main_pid_ = 0;
    bool first_ = true;
    ChromeTraceCounts counts_;
    std::set<int64_t> pids_;  // of the complete events, to name
};

}  // namespace

ChromeTraceCounts exportChromeTrace(const std::string& timeline_path, const std::string& json_path,
                                    Overwrite overwrite) {
    if (const std::string why = notAReportFile(timeline_path); !why.empty()) {
        throw Error(timeline_path + ": " + why);
    }
    const ReadOnlyDb db(timeline_path);
    if (reportKindOf(db) != ReportFileKind::Timeline) {
        throw Error(timeline_path +
                    ": not a timeline (a memory or run time report has no events over time)");
    }
    checkOutputPath(json_path, overwrite);
    StagedFile staged(json_path);
    ChromeTraceCounts counts;
    {
        JsonWriter out(staged.tempPath(), json_path);
        counts = TraceExport(db, out).run();  // errors name the file they concern
    }
    staged.sync();
    commitTogether({&staged}, overwrite);
    return counts;
}

}  // namespace trainscope
