// SPDX-License-Identifier: Apache-2.0
// loadTimelineData(): a timeline file read whole into TimelineData (trainscope/timeline_data.h).
// Names stay STRING_IDS ids while rows are read and become indices into one string table, so a
// million calls cost one integer each, not a string.
#include <algorithm>
#include <filesystem>
#include <future>
#include <map>
#include <unordered_map>

#include "report/readonly_db.h"
#include "report/timeline_reading.h"
#include "trainscope/error.h"
#include "trainscope/report_format.h"
#include "trainscope/timeline_data.h"

namespace trainscope {
namespace {

constexpr int64_t kTraceType = 50003;  // `trace`: a Python function call (torch_npu's stack)

// How many rows a table has, about (its highest rowid: no scan), for reserving vectors up front:
// growing them by doubling would hold up to three times the rows at once. A hostile file can
// claim any rowid, so the estimate is capped by what the file can hold: every row of these
// tables takes more than 12 bytes on disk.
size_t rowEstimate(const ReadOnlyDb& db, const std::string& table) {
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(db.path(), ec);
    try {
        const int64_t rowid = integerOf(db, "SELECT MAX(rowid) FROM " + table);
        return size_t(std::clamp<int64_t>(rowid, 0, ec ? 0 : int64_t(bytes / 12)));
    } catch (const Error&) {
        return 0;  // a table without rowids
    }
}

class TimelineLoader {
  public:
    TimelineLoader(const std::string& path, TimelineParts parts, const std::atomic<bool>* cancel)
        : db_(path), parts_(parts), cancel_(cancel) {
        data_.path = path;
    }

    TimelineData load() {
        if (reportKindOf(db_) != ReportFileKind::Timeline) {
            throw Error(db_.path() + ": a memory or run time report, not a timeline");
        }
        readStrings();
        readStepsAndRank();
        // Without steps, the broken-down step is the whole recording, memory samples included,
        // so the calls alone would give another step than the whole file gives.
        const bool memory_wanted = parts_ == TimelineParts::Whole || data_.steps.empty();
        // The memory tables are read meanwhile, through a connection of their own on another
        // thread: they are half the rows of a large file. (The future waits for it also when
        // reading the calls fails.)
        std::future<MemoryPart> memory;
        if (memory_wanted) {
            memory = std::async(std::launch::async, [this] { return readMemoryPart(); });
        }
        readPhases();
        if (parts_ == TimelineParts::Whole) {
            readModules();
            readCallchains();
        }
        if (db_.hasTable("PYTORCH_API")) {
            readFrameworkCalls();
        }
        if (db_.hasTable("CANN_API")) {
            readCannCalls();
        }
        if (db_.hasTable("TASK")) {
            readDeviceTasks();
        }
        for (TimelineLane& lane : data_.lanes) {
            nest(lane);
        }
        orderLanes();
        if (memory_wanted) {
            useMemory(memory.get());
        }
        if (parts_ == TimelineParts::Whole) {
            readLinks();
            indexConnections();
        }
        return std::move(data_);
    }

  private:
    void checkCancel() const {
        if (cancel_ && cancel_->load(std::memory_order_relaxed)) {
            throw Error(db_.path() + ": reading cancelled");
        }
    }

    // The index of a STRING_IDS id's text (kNoString for NULL or an id the table lacks).
    int32_t stringIndex(const ReadQuery& query, int column) const {
        if (query.isNull(column)) {
            return kNoString;
        }
        auto it = by_id_.find(query.integer(column));
        return it == by_id_.end() ? kNoString : it->second;
    }

    // Every text of the file goes through here, cut for showing (shownText()).
    int32_t intern(const std::string& whole) {
        const std::string text = shownText(whole);
        auto [it, added] = by_text_.try_emplace(text, int32_t(data_.strings.size()));
        if (added) {
            data_.strings.push_back(text);
        }
        return it->second;
    }

    void readStrings() {
        if (!db_.hasTable("STRING_IDS")) {
            return;
        }
        requireColumns(db_, "STRING_IDS", {"id", "value"});
        ReadQuery rows(db_, "SELECT id, IFNULL(substr(CAST(value AS TEXT), 1, " +
                                std::to_string(kShownTextChars + 1) + "), '') FROM STRING_IDS");
        while (rows.step()) {
            by_id_[rows.integer(0)] = intern(rows.text(1));
        }
    }

    void readPhases() {
        if (!db_.hasTable(report_format::kPhasesTable)) {
            return;
        }
        requireColumns(db_, report_format::kPhasesTable, {"name", "start_ns", "end_ns"});
        ReadQuery rows(
            db_, std::string("SELECT name, start_ns, end_ns FROM ") + report_format::kPhasesTable);
        while (rows.step()) {
            data_.phases.push_back({rows.text(0), rows.integer(1), rows.integer(2)});
        }
    }

    void readModules() {
        if (!db_.hasTable(report_format::kApiModulesTable)) {
            return;
        }
        requireColumns(db_, report_format::kApiModulesTable, {"connection_id", "module_path"});
        ReadQuery rows(db_, std::string("SELECT connection_id, module_path FROM ") +
                                report_format::kApiModulesTable);
        while (rows.step()) {
            module_of_[rows.integer(0)] = intern(rows.text(1));
        }
    }

    // "path(line)" or "path(line): function"; a line without that shape stays whole as the
    // path, line 0.
    static TimelineFrame parseFrame(const std::string& line) {
        TimelineFrame frame;
        const size_t close = line.rfind(')');
        const size_t open = close == std::string::npos ? close : line.rfind('(', close);
        if (open == std::string::npos || open == 0) {
            frame.file_path = line;
            return frame;
        }
        try {
            frame.line = std::stoi(line.substr(open + 1, close - open - 1));
        } catch (const std::exception&) {
            frame.file_path = line;
            return frame;
        }
        frame.file_path = line.substr(0, open);
        if (line.compare(close + 1, 2, ": ") == 0) {
            frame.function = line.substr(close + 3);
        }
        return frame;
    }

    void readCallchains() {
        if (!db_.hasTable("PYTORCH_CALLCHAINS")) {
            return;
        }
        requireColumns(db_, "PYTORCH_CALLCHAINS", {"id", "stack", "stackDepth"});
        // Library frames (TrainScope's) share stackDepth's sequence: merge by depth.
        std::unordered_map<int64_t, std::vector<std::pair<int64_t, TimelineFrame>>> chains;
        ReadQuery rows(db_, "SELECT id, stack, stackDepth FROM PYTORCH_CALLCHAINS");
        while (rows.step()) {
            const int32_t text = stringIndex(rows, 1);
            chains[rows.integer(0)].emplace_back(
                rows.integer(2),
                parseFrame(text == kNoString ? std::string() : data_.strings[text]));
        }
        if (db_.hasTable(report_format::kLibraryFramesTable)) {
            ReadQuery library(db_, std::string("SELECT callchain_id, stack_depth, file_path, "
                                               "line_number, library_root FROM ") +
                                       report_format::kLibraryFramesTable);
            while (library.step()) {
                TimelineFrame frame;
                frame.file_path = shownText(library.text(2));
                frame.line = int(library.integer(3));
                frame.library_root = shownText(library.text(4));
                chains[library.integer(0)].emplace_back(library.integer(1), std::move(frame));
            }
        }
        for (auto& [id, frames] : chains) {
            std::stable_sort(frames.begin(), frames.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            callchain_index_[id] = int32_t(data_.callchains.size());
            std::vector<TimelineFrame>& chain = data_.callchains.emplace_back();
            for (auto& entry : frames) {
                chain.push_back(std::move(entry.second));
            }
        }
    }

    TimelineLane& laneOf(LaneKind kind, int64_t pid, int64_t tid, int64_t device = -1,
                         bool python_stack = false) {
        // The Python stack's lane of a thread is told apart by a device of -2.
        const auto key = std::make_tuple(int(kind), pid, tid, python_stack ? -2 : device);
        auto [it, added] = lane_index_.try_emplace(key, data_.lanes.size());
        if (added) {
            TimelineLane& lane = data_.lanes.emplace_back();
            lane.kind = kind;
            lane.pid = pid;
            lane.tid = tid;
            lane.device = device;
            lane.python_stack = python_stack;
            // The ids that users see in their own tools.
            switch (kind) {
                case LaneKind::Thread:
                    lane.label = (python_stack ? "Python stack " : "Thread ") + std::to_string(tid);
                    break;
                case LaneKind::Cann:
                    lane.label = "CANN " + std::to_string(tid);
                    break;
                case LaneKind::Device:
                    lane.label =
                        "Device " + std::to_string(device) + " stream " + std::to_string(tid);
                    break;
            }
        }
        return data_.lanes[it->second];
    }

    SpanCategory phaseAt(int64_t time_ns, SpanCategory otherwise) const {
        for (const TimelinePhase& phase : data_.phases) {
            if (time_ns >= phase.start_ns && time_ns <= phase.end_ns) {
                if (phase.name == "backward") {
                    return SpanCategory::Backward;
                }
                if (phase.name == "optimizer") {
                    return SpanCategory::Optimizer;
                }
                return SpanCategory::Forward;
            }
        }
        return otherwise;
    }

    void readFrameworkCalls() {
        requireColumns(db_, "PYTORCH_API", {"startNs", "endNs", "globalTid", "name"});
        const std::set<std::string> columns = db_.columns("PYTORCH_API");
        // The ranks' summary needs no call's module, order number or stack.
        const std::set<std::string> unwanted =
            parts_ == TimelineParts::Whole
                ? std::set<std::string>{}
                : std::set<std::string>{"connectionId", "sequenceNumber", "callchainId"};
        auto optional = [&](const char* column) {
            return columns.count(column) && !unwanted.count(column) ? std::string(column)
                                                                    : std::string("NULL");
        };
        ReadQuery rows(db_, "SELECT " + nanosecondsOf("startNs") + ", " + nanosecondsOf("endNs") +
                                ", globalTid, name, " + optional("connectionId") + ", " +
                                optional("sequenceNumber") + ", " + optional("fwdThreadId") + ", " +
                                optional("inputShapes") + ", " + optional("inputDtypes") + ", " +
                                optional("callchainId") + ", " + optional("type") +
                                " FROM PYTORCH_API");
        size_t count = 0;
        TimelineLane* lane = nullptr;  // the last call's: calls come in runs of one thread
        int64_t lane_tid = 0;
        while (rows.step()) {
            if (++count % 65536 == 0) {
                checkCancel();
            }
            const int64_t global_tid = rows.integer(2);
            TimelineSpan span;
            span.start_ns = rows.integer(0);
            span.end_ns = std::max(span.start_ns, rows.integer(1));
            span.name = stringIndex(rows, 3);
            if (!rows.isNull(4)) {
                span.connection = rows.integer(4);
                auto module = module_of_.find(span.connection);
                span.module = module == module_of_.end() ? kNoString : module->second;
            }
            span.sequence = rows.isNull(5) ? -1 : rows.integer(5);
            span.shapes = stringIndex(rows, 7);
            span.dtypes = stringIndex(rows, 8);
            if (!rows.isNull(9)) {
                auto chain = callchain_index_.find(rows.integer(9));
                span.callchain = chain == callchain_index_.end() ? -1 : chain->second;
            }
            const bool op = rows.isNull(10) || rows.integer(10) == kOperationApiType;
            const bool python = !rows.isNull(10) && rows.integer(10) == kTraceType;
            const bool communication =
                !rows.isNull(10) && rows.integer(10) == kCommunicationApiType;
            const bool backward_node = !rows.isNull(6) && rows.integer(6) != 0;
            span.backward_node = backward_node;
            span.category = communication   ? SpanCategory::Communication
                            : !op           ? SpanCategory::Other
                            : backward_node ? SpanCategory::Backward
                                            : phaseAt(span.start_ns, SpanCategory::Forward);
            if (!lane || global_tid != lane_tid || python != lane->python_stack) {
                lane_tid = global_tid;
                lane = &laneOf(LaneKind::Thread, global_tid >> 32, global_tid & 0xffffffff, -1,
                               python);
                if (data_.lanes.size() == 1 && lane->spans.empty()) {
                    lane->spans.reserve(rowEstimate(db_, "PYTORCH_API"));  // most are its
                }
            }
            lane->spans.push_back(span);
        }
    }

    void readCannCalls() {
        requireColumns(db_, "CANN_API", {"startNs", "endNs", "globalTid", "name"});
        const bool linked = db_.columns("CANN_API").count("connectionId") > 0;
        ReadQuery rows(db_, "SELECT " + nanosecondsOf("startNs") + ", " + nanosecondsOf("endNs") +
                                ", globalTid, name, " + (linked ? "connectionId" : "NULL") +
                                " FROM CANN_API");
        while (rows.step()) {
            const int64_t global_tid = rows.integer(2);
            TimelineSpan span;
            span.start_ns = rows.integer(0);
            span.end_ns = std::max(span.start_ns, rows.integer(1));
            span.name = stringIndex(rows, 3);
            span.connection = rows.isNull(4) ? -1 : rows.integer(4);
            span.category = SpanCategory::Cann;
            laneOf(LaneKind::Cann, global_tid >> 32, global_tid & 0xffffffff).spans.push_back(span);
        }
    }

    void readDeviceTasks() {
        requireColumns(db_, "TASK", {"startNs", "endNs", "deviceId", "streamId"});
        const bool linked = db_.columns("TASK").count("connectionId") > 0;
        ReadQuery rows(db_, "SELECT " + nanosecondsOf("t.startNs") + ", " +
                                nanosecondsOf("t.endNs") + ", t.deviceId, t.streamId, " +
                                deviceTaskName(db_, "t") + ", " +
                                (linked ? "t.connectionId" : "NULL") + " FROM TASK t");
        while (rows.step()) {
            TimelineSpan span;
            span.start_ns = rows.integer(0);
            span.end_ns = std::max(span.start_ns, rows.integer(1));
            const std::string name = rows.text(4);
            span.name = intern(name.empty() ? std::string("task") : name);
            span.connection = rows.isNull(5) ? -1 : rows.integer(5);
            span.category = SpanCategory::Device;
            laneOf(LaneKind::Device, 0, rows.integer(3), rows.integer(2)).spans.push_back(span);
        }
    }

    // What a user looks for first, first: the main thread's operations (the first thread with
    // calls), the device streams, the other threads and the CANN rows, and the Python stacks
    // last. Within each, lanes stay as they came.
    void orderLanes() {
        const auto main_thread =
            std::find_if(data_.lanes.begin(), data_.lanes.end(), [](const TimelineLane& lane) {
                return lane.kind == LaneKind::Thread && !lane.python_stack;
            });
        const int64_t main_tid = main_thread == data_.lanes.end() ? -1 : main_thread->tid;
        const int64_t main_pid = main_thread == data_.lanes.end() ? -1 : main_thread->pid;
        auto place = [&](const TimelineLane& lane) {
            if (lane.python_stack) {
                return 3;
            }
            if (lane.kind == LaneKind::Thread && lane.tid == main_tid && lane.pid == main_pid) {
                return 0;
            }
            return lane.kind == LaneKind::Device ? 1 : 2;
        };
        std::stable_sort(
            data_.lanes.begin(), data_.lanes.end(),
            [&](const TimelineLane& a, const TimelineLane& b) { return place(a) < place(b); });
    }

    // Gives each span its depth (how many spans of the lane enclose it), orders the lane by
    // (depth, start), and lets calls made inside a backward node or the optimizer step take its
    // category (torch_npu's files have no phases).
    void nest(TimelineLane& lane) {
        checkCancel();
        std::vector<TimelineSpan>& spans = lane.spans;
        auto by_start = [](const TimelineSpan& a, const TimelineSpan& b) {
            return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns > b.end_ns;
        };
        if (!std::is_sorted(spans.begin(), spans.end(), by_start)) {  // TrainScope's are
            std::sort(spans.begin(), spans.end(), by_start);
        }
        std::vector<const TimelineSpan*> open;
        for (TimelineSpan& span : spans) {
            while (!open.empty() && open.back()->end_ns <= span.start_ns) {
                open.pop_back();
            }
            // A span that overlaps the open one without being inside it (torch_npu's queue
            // calls) is drawn below it all the same: rows never hide a call.
            if (lane.kind == LaneKind::Thread) {
                inheritCategory(span, open.empty() ? nullptr : open.back());
            }
            span.depth = uint16_t(std::min<size_t>(open.size(), UINT16_MAX));
            open.push_back(&span);
        }
        // In place: a stable sort's buffer would hold a second copy of the lane.
        std::sort(spans.begin(), spans.end(), [](const TimelineSpan& a, const TimelineSpan& b) {
            return a.depth != b.depth         ? a.depth < b.depth
                   : a.start_ns != b.start_ns ? a.start_ns < b.start_ns
                                              : a.end_ns > b.end_ns;
        });
        lane.depth_begin.clear();
        for (size_t i = 0; i < spans.size(); ++i) {
            while (lane.depth_begin.size() <= spans[i].depth) {
                lane.depth_begin.push_back(i);
            }
        }
        lane.depth_begin.push_back(spans.size());
        for (const TimelineSpan& span : spans) {
            extend(span.start_ns);
            extend(span.end_ns);
        }
    }

    void inheritCategory(TimelineSpan& span, const TimelineSpan* parent) const {
        if (span.category != SpanCategory::Forward) {
            return;
        }
        if (parent && (parent->category == SpanCategory::Backward ||
                       parent->category == SpanCategory::Optimizer)) {
            span.category = parent->category;
        } else if (span.name != kNoString && data_.strings[span.name].rfind("Optimizer.", 0) == 0) {
            span.category = SpanCategory::Optimizer;  // torch.profiler's label of a step
        }
    }

    void extend(int64_t time_ns) {
        if (!any_time_) {
            data_.first_ns = data_.last_ns = time_ns;
            any_time_ = true;
        }
        data_.first_ns = std::min(data_.first_ns, time_ns);
        data_.last_ns = std::max(data_.last_ns, time_ns);
    }

    // MEMORY_RECORD by component, and OP_MEMORY, as read on the memory thread. It touches no
    // member but the read-only STRING_IDS index.
    struct MemoryPart {
        std::map<int64_t, std::vector<MemorySample>> by_component;
        std::vector<MemoryBlock> blocks;
    };

    MemoryPart readMemoryPart() const {
        MemoryPart part;
        const ReadOnlyDb db(db_.path());
        if (db.hasTable("MEMORY_RECORD")) {
            requireColumns(
                db, "MEMORY_RECORD",
                {"component", "timestamp", "totalAllocated", "totalReserved", "totalActive"});
            // No ORDER BY: sorting a million rows in SQL costs more than checking their order.
            ReadQuery rows(db, "SELECT component, " + nanosecondsOf("timestamp") +
                                   ", totalAllocated, totalReserved, totalActive FROM "
                                   "MEMORY_RECORD");
            size_t count = 0;
            std::vector<MemorySample>* samples = nullptr;
            int64_t component = 0;
            while (rows.step()) {
                if (++count % 65536 == 0) {
                    checkCancel();
                }
                const int64_t id = rows.isNull(0) ? -1 : rows.integer(0);
                if (!samples || id != component) {
                    component = id;
                    samples = &part.by_component[id];
                    if (part.by_component.size() == 1 && samples->empty()) {
                        samples->reserve(rowEstimate(db, "MEMORY_RECORD"));
                    }
                }
                samples->push_back(
                    {rows.integer(1), rows.integer(2), rows.integer(3), rows.integer(4)});
            }
        }
        if (db.hasTable("OP_MEMORY")) {
            requireColumns(db, "OP_MEMORY", {"name", "size", "allocationTime", "releaseTime"});
            ReadQuery rows(db, "SELECT name, size, " + nanosecondsOf("allocationTime") + ", " +
                                   nanosecondsOf("releaseTime") + " FROM OP_MEMORY");
            part.blocks.reserve(rowEstimate(db, "OP_MEMORY"));
            size_t count = 0;
            while (rows.step()) {
                if (++count % 65536 == 0) {
                    checkCancel();
                }
                MemoryBlock& block = part.blocks.emplace_back();
                block.name = stringIndex(rows, 0);
                block.size = rows.integer(1);
                block.allocated_ns = rows.integer(2);
                if (!rows.isNull(3)) {
                    block.released_ns = rows.integer(3);
                }
            }
        }
        return part;
    }

    // The curve of one component: PyTorch's allocator ('PTA') where the file has it, else the
    // component with the most records. Records and blocks in time order.
    void useMemory(MemoryPart part) {
        data_.blocks = std::move(part.blocks);
        auto by_allocation = [](const MemoryBlock& a, const MemoryBlock& b) {
            return a.allocated_ns < b.allocated_ns;
        };
        if (!std::is_sorted(data_.blocks.begin(), data_.blocks.end(), by_allocation)) {
            std::stable_sort(data_.blocks.begin(), data_.blocks.end(), by_allocation);
        }
        if (part.by_component.empty()) {
            return;
        }
        auto chosen = std::max_element(
            part.by_component.begin(), part.by_component.end(),
            [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
        for (auto it = part.by_component.begin(); it != part.by_component.end(); ++it) {
            if (stringOfId(it->first) == "PTA") {
                chosen = it;
            }
        }
        data_.memory_component = stringOfId(chosen->first);
        data_.memory = std::move(chosen->second);
        auto by_time = [](const MemorySample& a, const MemorySample& b) {
            return a.timestamp_ns < b.timestamp_ns;
        };
        if (!std::is_sorted(data_.memory.begin(), data_.memory.end(), by_time)) {
            std::stable_sort(data_.memory.begin(), data_.memory.end(), by_time);
        }
        for (size_t i = 0; i < data_.memory.size(); ++i) {
            if (data_.memory[i].total_allocated > data_.memory[data_.peak_sample].total_allocated) {
                data_.peak_sample = i;
            }
        }
        extend(data_.memory.front().timestamp_ns);
        extend(data_.memory.back().timestamp_ns);
    }

    std::string stringOfId(int64_t id) const {
        auto it = by_id_.find(id);
        return it == by_id_.end() ? std::string() : data_.strings[size_t(it->second)];
    }

    void readStepsAndRank() {
        data_.steps = timelineSteps(db_);
        if (db_.hasTable("trainscope_step_collectives")) {
            requireColumns(db_, "trainscope_step_collectives",
                           {"step_id", "name", "bytes", "start_ms", "duration_ms"});
            ReadQuery rows(db_,
                           "SELECT step_id, substr(CAST(name AS TEXT), 1, " +
                               std::to_string(kShownTextChars + 1) +
                               "), bytes, start_ms, duration_ms FROM trainscope_step_collectives "
                               "ORDER BY step_id, start_ms");
            while (rows.step()) {
                data_.step_collectives.push_back({rows.integer(0), shownText(rows.text(1)),
                                                  rows.integer(2), rows.real(3), rows.real(4)});
            }
        }
        data_.untimed = holdsNoTimes(db_);
        data_.blocks_by_category = namesBlocksByCategory(db_);
        if (db_.hasTable("RANK_DEVICE_MAP") && db_.columns("RANK_DEVICE_MAP").count("rankId")) {
            ReadQuery rank(db_, "SELECT rankId FROM RANK_DEVICE_MAP LIMIT 1");
            if (rank.step() && !rank.isNull(0)) {
                data_.rank = int(rank.integer(0));
            }
        }
    }

    void readLinks() {
        if (!db_.hasTable("CONNECTION_IDS")) {
            return;
        }
        requireColumns(db_, "CONNECTION_IDS", {"id", "connectionId"});
        ReadQuery rows(db_, "SELECT id, connectionId FROM CONNECTION_IDS");
        while (rows.step()) {
            data_.links.emplace_back(rows.integer(0), rows.integer(1));
            data_.links.emplace_back(rows.integer(1), rows.integer(0));
        }
        // A pair that the file repeats is one link: following links costs what they connect,
        // not how often a file says so.
        std::sort(data_.links.begin(), data_.links.end());
        data_.links.erase(std::unique(data_.links.begin(), data_.links.end()), data_.links.end());
    }

    void indexConnections() {
        for (size_t l = 0; l < data_.lanes.size(); ++l) {
            const std::vector<TimelineSpan>& spans = data_.lanes[l].spans;
            for (size_t i = 0; i < spans.size(); ++i) {
                if (spans[i].connection >= 0) {
                    data_.by_connection.emplace_back(spans[i].connection,
                                                     SpanRef{int32_t(l), int32_t(i)});
                }
            }
        }
        std::sort(data_.by_connection.begin(), data_.by_connection.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
    }

    struct TupleHash {
        size_t operator()(const std::tuple<int, int64_t, int64_t, int64_t>& t) const {
            return std::hash<int64_t>()(std::get<1>(t) * 31 + std::get<2>(t)) ^
                   std::hash<int64_t>()(std::get<3>(t) * 7 + std::get<0>(t));
        }
    };

    ReadOnlyDb db_;
    const TimelineParts parts_;
    const std::atomic<bool>* cancel_;
    TimelineData data_;
    bool any_time_ = false;
    std::unordered_map<int64_t, int32_t> by_id_;
    std::unordered_map<std::string, int32_t> by_text_;
    std::unordered_map<int64_t, int32_t> module_of_;
    std::unordered_map<int64_t, int32_t> callchain_index_;
    std::unordered_map<std::tuple<int, int64_t, int64_t, int64_t>, size_t, TupleHash> lane_index_;
};

}  // namespace

TimelineData loadTimelineData(const std::string& path, const std::atomic<bool>* cancel) {
    return TimelineLoader(path, TimelineParts::Whole, cancel).load();
}

TimelineData loadTimelineData(const std::string& path, TimelineParts parts,
                              const std::atomic<bool>* cancel) {
    return TimelineLoader(path, parts, cancel).load();
}

}  // namespace trainscope
