// SPDX-License-Identifier: Apache-2.0
#include "report/kept_scans.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <optional>
#include <set>

#include "report/readonly_db.h"
#include "report/sqlite_db.h"
#include "trainscope/error.h"

namespace trainscope {
namespace {

constexpr char kTable[] = "trainscope_summary";
constexpr char kKey[] = "timeline_scans";
constexpr int kVersion = 1;

// The header's change counter (offset 24) where the file is in rollback-journal mode (bytes
// 18 and 19 are 1; 2 is WAL, in which SQLite need not raise the counter); none otherwise.
std::optional<uint32_t> changeCounter(const std::string& path) {
    unsigned char header[28];
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) {
        return std::nullopt;
    }
    const bool read = std::fread(header, 1, sizeof header, file) == sizeof header;
    std::fclose(file);
    if (!read || header[18] != 1 || header[19] != 1) {
        return std::nullopt;
    }
    return uint32_t(header[24]) << 24 | uint32_t(header[25]) << 16 | uint32_t(header[26]) << 8 |
           uint32_t(header[27]);
}

uint32_t crcOf(const std::string& text) {
    return static_cast<uint32_t>(
        crc32(0L, reinterpret_cast<const Bytef*>(text.data()), static_cast<uInt>(text.size())));
}

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void putString(Writer& w, const std::string& text) {
    w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

std::string scansJson(const ReportFileSummary& s, uint32_t counter) {
    rapidjson::StringBuffer buffer;
    Writer w(buffer);
    w.StartObject();
    w.Key("version");
    w.Int(kVersion);
    w.Key("change_counter");
    w.Uint(counter);
    w.Key("api_calls");
    w.Int64(s.api_calls);
    w.Key("threads");
    w.Int64(s.threads);
    w.Key("first_ns");
    w.Int64(s.first_ns);
    w.Key("last_ns");
    w.Int64(s.last_ns);
    w.Key("calls_by_type");
    w.StartArray();
    for (const NamedCount& c : s.calls_by_type) {
        w.StartArray();
        putString(w, c.name);
        w.Int64(c.count);
        w.EndArray();
    }
    w.EndArray();
    w.Key("operations");
    w.StartArray();
    for (const OperationTotal& o : s.top_operations) {
        w.StartArray();
        putString(w, o.name);
        w.Int64(o.calls);
        w.Int64(o.total_ns);
        w.EndArray();
    }
    w.EndArray();
    w.Key("memory");
    w.StartArray();
    for (const ComponentPeak& p : s.memory) {
        w.StartArray();
        putString(w, p.component);
        w.Int64(p.records);
        w.Int64(p.peak_allocated);
        w.Int64(p.peak_reserved);
        w.Int64(p.peak_active);
        w.EndArray();
    }
    w.EndArray();
    w.Key("blocks");
    w.Int64(s.blocks);
    w.Key("blocks_never_freed");
    w.Int64(s.blocks_never_freed);
    w.Key("largest_allocations");
    w.StartArray();
    for (const LargeAllocation& a : s.largest_allocations) {
        w.StartArray();
        putString(w, a.operation);
        w.Int64(a.size_bytes);
        w.Int64(a.allocated_ns);
        if (a.released_ns) {
            w.Int64(*a.released_ns);
        } else {
            w.Null();
        }
        w.EndArray();
    }
    w.EndArray();
    w.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize());
}

// Reading the kept text back: anything not as written makes it untrusted (a damaged file).
class Fields {
  public:
    explicit Fields(const rapidjson::Value& v) : v_(v) {}
    bool ok() const { return ok_; }
    int64_t integer(const char* key) { return integer(member(key)); }
    // An array member (an empty one, failing, where it is none).
    const rapidjson::Value& array(const char* key) {
        const rapidjson::Value& a = member(key);
        if (a.IsArray()) {
            return a;
        }
        fail();
        return empty_;
    }
    // Element `i` of a row (an array of `size`).
    int64_t integer(const rapidjson::Value& row, rapidjson::SizeType i) {
        return i < row.Size() ? integer(row[i]) : (fail(), 0);
    }
    std::string text(const rapidjson::Value& row, rapidjson::SizeType i) {
        if (i >= row.Size() || !row[i].IsString()) {
            fail();
            return {};
        }
        return std::string(row[i].GetString(), row[i].GetStringLength());
    }
    bool isRow(const rapidjson::Value& row, rapidjson::SizeType size) {
        return row.IsArray() && row.Size() == size ? true : (fail(), false);
    }

  private:
    const rapidjson::Value& member(const char* key) {
        const auto it = v_.FindMember(key);
        return it != v_.MemberEnd() ? it->value : fail();
    }
    int64_t integer(const rapidjson::Value& value) {
        return value.IsInt64() ? value.GetInt64() : (fail(), 0);
    }
    const rapidjson::Value& fail() {
        ok_ = false;
        return null_;
    }
    const rapidjson::Value& v_;
    rapidjson::Value null_;
    const rapidjson::Value empty_{rapidjson::kArrayType};
    bool ok_ = true;
};

bool parseScans(const std::string& text, uint32_t counter, ReportFileSummary& out, int top) {
    rapidjson::Document doc;
    if (doc.Parse(text.data(), text.size()).HasParseError() || !doc.IsObject()) {
        return false;
    }
    Fields f(doc);
    if (f.integer("version") != kVersion || f.integer("change_counter") != int64_t(counter)) {
        return false;
    }
    ReportFileSummary s;
    s.api_calls = f.integer("api_calls");
    s.threads = f.integer("threads");
    s.first_ns = f.integer("first_ns");
    s.last_ns = f.integer("last_ns");
    for (const rapidjson::Value& row : f.array("calls_by_type").GetArray()) {
        if (f.isRow(row, 2)) {
            s.calls_by_type.push_back({f.text(row, 0), f.integer(row, 1)});
        }
    }
    for (const rapidjson::Value& row : f.array("operations").GetArray()) {
        if (f.isRow(row, 3) && s.top_operations.size() < size_t(top)) {
            s.top_operations.push_back({f.text(row, 0), f.integer(row, 1), f.integer(row, 2)});
        }
    }
    for (const rapidjson::Value& row : f.array("memory").GetArray()) {
        if (f.isRow(row, 5)) {
            s.memory.push_back({f.text(row, 0), f.integer(row, 1), f.integer(row, 2),
                                f.integer(row, 3), f.integer(row, 4)});
        }
    }
    s.blocks = f.integer("blocks");
    s.blocks_never_freed = f.integer("blocks_never_freed");
    for (const rapidjson::Value& row : f.array("largest_allocations").GetArray()) {
        if (f.isRow(row, 4) && s.largest_allocations.size() < size_t(top)) {
            LargeAllocation a{f.text(row, 0), f.integer(row, 1), f.integer(row, 2), {}};
            if (!row[3].IsNull()) {
                a.released_ns = f.integer(row, 3);
            }
            s.largest_allocations.push_back(a);
        }
    }
    if (!f.ok()) {
        return false;
    }
    out.api_calls = s.api_calls;
    out.threads = s.threads;
    out.first_ns = s.first_ns;
    out.last_ns = s.last_ns;
    out.calls_by_type = std::move(s.calls_by_type);
    out.top_operations = std::move(s.top_operations);
    out.memory = std::move(s.memory);
    out.blocks = s.blocks;
    out.blocks_never_freed = s.blocks_never_freed;
    out.largest_allocations = std::move(s.largest_allocations);
    return true;
}

}  // namespace

void keepTimelineScans(const std::string& path) {
    ReportFileSummary scans;
    {
        const ReadOnlyDb db(path);
        scanTimelineTables(db, scans, INT_MAX, kKeptLargestAllocations);
    }
    SqliteDb db(path);
    db.exec("PRAGMA journal_mode = OFF");  // as the file was written (staged, thrown away whole)
    const std::optional<uint32_t> before = changeCounter(path);
    if (!before) {
        return;  // not a file SQLite keeps a change counter of: nothing to trust later
    }
    // This transaction raises the counter by one as it commits.
    const std::string text = scansJson(scans, *before + 1);
    db.exec("BEGIN");
    db.exec(std::string("CREATE TABLE IF NOT EXISTS ") + kTable +
            " (key TEXT PRIMARY KEY, value TEXT NOT NULL, crc32 INTEGER NOT NULL)");
    {
        SqliteStatement insert(db, std::string("INSERT OR REPLACE INTO ") + kTable +
                                       " (key, value, crc32) VALUES (?, ?, ?)");
        insert.bind(1, std::string_view(kKey)).bind(2, std::string_view(text));
        insert.bind(3, int64_t{crcOf(text)}).step();
    }
    db.exec("COMMIT");
    db.close();
}

bool readKeptScans(const ReadOnlyDb& db, ReportFileSummary& summary, int top) {
    if (top > kKeptLargestAllocations || !db.hasTable(kTable) ||
        db.columns(kTable) != std::set<std::string>{"key", "value", "crc32"}) {
        return false;
    }
    const std::optional<uint32_t> counter = changeCounter(db.path());
    if (!counter) {
        return false;
    }
    try {
        ReadQuery row(db, std::string("SELECT value, crc32 FROM ") + kTable + " WHERE key = ?");
        row.bind(1, std::string(kKey));
        if (!row.step() || !row.isInteger(1)) {
            return false;
        }
        const std::string text = row.text(0);
        return int64_t{crcOf(text)} == row.integer(1) &&
               parseScans(text, *counter, summary, std::max(top, 0));
    } catch (const Error&) {
        return false;  // a damaged table: the tables are read as they are
    }
}

}  // namespace trainscope
