// SPDX-License-Identifier: Apache-2.0
#include "imports/memory_snapshot.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <unordered_map>

#include "analysis/saturating.h"
#include "imports/python_frames.h"
#include "trainscope/error.h"
#include "trainscope/import_notes.h"
#include "trainscope/report_format.h"

namespace trainscope {
namespace {

// The category of a block alive before the snapshot's trace began.
constexpr int32_t kBeforeTrace = -2;
constexpr char kAliveBeforeTrace[] = "alive before the trace";
// ...and of a snapshot without a trace: what it holds is the state when it was dumped.
constexpr char kAliveAtDump[] = "alive when dumped";

// The latest time read, in µs (a time past it leaves the trace untimed): 127 years of µs, far
// from int64's end in ns.
constexpr int64_t kLatestMicroseconds = int64_t{4} * 1000 * 1000 * 1000 * 1000 * 1000;

struct Block {
    int64_t size = 0;
    PickleValue frames;
    int32_t category = -1;  // a number into the snapshot's texts; -1: not recorded
};

using LiveBlocks = std::unordered_map<uint64_t, Block>;

// A trace entry's action, as the replay needs it.
enum class Action { Alloc, Free, SegmentAlloc, SegmentFree, Other };

struct Entry {
    Action action = Action::Other;
    uint64_t address = 0;
    int64_t size = 0;
    int64_t time_ns = -1;
    PickleValue frames;
    int32_t category = -1;
};

int64_t intOf(const PickleData& data, const PickleValue& v, int64_t otherwise = 0) {
    return data.isInt(v) ? v.number : otherwise;
}

// A damaged snapshot's error: `what` of it is not as PyTorch writes it.
Error damaged(const std::string& source, const std::string& what) {
    return Error(source + " is not a memory snapshot TrainScope can read: " + what);
}

// A size as the snapshot gives it: a byte count, which PyTorch always writes; anything else (a
// negative number, a text, a float, nothing) is a damaged file (`where` says what has it, made
// only then), and one past 1 PiB, which no device holds, is refused too.
template <typename Where>
int64_t sizeOf(const PickleData& data, const PickleValue& v, const std::string& source,
               const Where& where) {
    if (!data.isInt(v) || v.number < 0) {
        throw damaged(source, where() + " has no byte count as its size");
    }
    if (v.number > (int64_t{1} << 50)) {
        throw damaged(source, "it names a block of an impossible size");
    }
    return v.number;
}

// A frame of the snapshot ({filename, line, name}) as a report frame. A CUDA snapshot's names
// the file; a CPU profile's snapshot names the Python call instead ("/home/u/train.py(29):
// forward", filename "none"). C++ frames (no file, or no line) are left out.
std::optional<StackFrame> frameOf(const PickleData& data, const PickleValue& frame) {
    const std::string* file = data.text(data.get(frame, "filename"));
    const int64_t line = intOf(data, data.get(frame, "line"));
    if (file && *file != "none" && *file != "??" && line > 0) {
        return pythonFrame(*file + ":" + std::to_string(line));
    }
    const std::string* name = data.text(data.get(frame, "name"));
    if (!name) {
        return std::nullopt;
    }
    const size_t close = name->find("): ");
    const size_t open = close == std::string::npos ? close : name->rfind('(', close);
    if (open == std::string::npos || open == 0) {
        return std::nullopt;
    }
    const std::string digits = name->substr(open + 1, close - open - 1);
    char* end = nullptr;
    const long long number = std::strtoll(digits.c_str(), &end, 10);
    if (digits.empty() || *end != '\0') {
        return std::nullopt;
    }
    return pythonFrame(name->substr(0, open) + ":" + std::to_string(number));
}

StackTrace framesOf(const PickleData& data, const PickleValue& frames) {
    StackTrace trace;
    if (const PickleContainer* list = data.list(frames)) {
        for (const PickleValue& frame : list->items)
            if (std::optional<StackFrame> f = frameOf(data, frame)) {
                trace.push_back(std::move(*f));
            }
    }
    return trace;
}

class SnapshotImporter {
  public:
    SnapshotImporter(const PickleData& data, std::string source)
        : data_(data), source_(std::move(source)) {}

    ImportedRun run() {
        const PickleValue segments = data_.get(data_.root, "segments");
        const PickleValue traces = data_.get(data_.root, "device_traces");
        if (!data_.list(segments) && !data_.list(traces)) {
            throw Error(source_ +
                        " is a pickle but not a memory snapshot: it has no segments "
                        "or device traces");
        }
        chooseDevice(traces);
        readSegments(segments);
        readTrace(traces);
        if (entries_.empty() && live_.empty()) {
            throw Error(source_ +
                        " holds no memory: no allocation or free in its trace, and no block "
                        "alive in it "
                        "(record one around the step with "
                        "torch.cuda.memory._record_memory_history())");
        }
        undoTrace();
        replay();
        ImportedRun result;
        result.memory = memoryReport();
        result.timeline = timeline();
        return result;
    }

  private:
    void chooseDevice(const PickleValue& traces) {
        const PickleContainer* list = data_.list(traces);
        size_t most = 0;
        for (size_t d = 0; list && d < list->items.size(); ++d) {
            const PickleContainer* trace = data_.list(list->items[d]);
            if (trace && trace->items.size() > most) {
                most = trace->items.size();
                device_ = static_cast<int64_t>(d);
            }
            other_traces_ += trace && !trace->items.empty() ? 1 : 0;
        }
        other_traces_ = std::max<int64_t>(other_traces_ - 1, 0);
        if (most == 0) {
            device_ = -1;  // no trace: the device of the first segment
        }
    }

    void readSegments(const PickleValue& segments) {
        const PickleContainer* list = data_.list(segments);
        for (size_t s = 0; list && s < list->items.size(); ++s) {
            const PickleValue& segment = list->items[s];
            const int64_t device = intOf(data_, data_.get(segment, "device"), 0);
            if (device_ < 0) {
                device_ = device;
            }
            if (device != device_) {
                continue;
            }
            const auto where = [s] { return "segment " + std::to_string(s); };
            const int64_t segment_size =
                sizeOf(data_, data_.get(segment, "total_size"), source_, where);
            budget(segment_size);
            reserved_ += segment_size;
            const PickleValue segment_address = data_.get(segment, "address");
            uint64_t address = static_cast<uint64_t>(intOf(data_, segment_address));
            const PickleContainer* blocks = data_.list(data_.get(segment, "blocks"));
            for (size_t b = 0; blocks && b < blocks->items.size(); ++b) {
                const PickleValue& block = blocks->items[b];
                const auto block_where = [&] { return where() + "'s block " + std::to_string(b); };
                const int64_t size = sizeOf(data_, data_.get(block, "size"), source_, block_where);
                budget(size);
                const PickleValue at = data_.get(block, "address");
                if (data_.isInt(at)) {
                    address = static_cast<uint64_t>(at.number);
                } else if (!data_.isInt(segment_address)) {
                    throw damaged(source_, block_where() + " has no address, nor has its segment");
                }
                const std::string* state = data_.text(data_.get(block, "state"));
                if (state && (*state == "active_allocated" || *state == "active_awaiting_free") &&
                    size > 0) {
                    live_[address] = {size, data_.get(block, "frames"), -1};
                }
                address += static_cast<uint64_t>(std::max<int64_t>(size, 0));
            }
        }
    }

    void readTrace(const PickleValue& traces) {
        const PickleContainer* list = data_.list(traces);
        if (!list || device_ < 0 || static_cast<size_t>(device_) >= list->items.size()) {
            return;
        }
        const PickleContainer* trace = data_.list(list->items[static_cast<size_t>(device_)]);
        for (size_t i = 0; trace && i < trace->items.size(); ++i) {
            const PickleValue& e = trace->items[i];
            const std::string* action = data_.text(data_.get(e, "action"));
            const auto where = [i] { return "its trace's entry " + std::to_string(i); };
            Entry entry;
            if (!action) {
                throw damaged(source_, where() + " is no event (it has no action)");
            }
            entry.action = *action == "alloc"            ? Action::Alloc
                           : *action == "free_completed" ? Action::Free
                           : *action == "segment_alloc"  ? Action::SegmentAlloc
                           : *action == "segment_free"   ? Action::SegmentFree
                                                         : Action::Other;
            if (entry.action == Action::Other) {
                continue;
            }
            const PickleValue address = data_.get(e, "addr");
            const auto event = [&] { return where() + " (" + *action + ")"; };
            if (!data_.isInt(address)) {
                throw damaged(source_, event() + " has no address");
            }
            entry.address = static_cast<uint64_t>(address.number);
            entry.size = sizeOf(data_, data_.get(e, "size"), source_, event);
            budget(entry.size);
            const PickleValue time = data_.get(e, "time_us");
            if (data_.isInt(time) && time.number >= 0 && time.number < kLatestMicroseconds) {
                entry.time_ns = time.number * 1000;
                timed_ = true;
            }
            entry.frames = data_.get(e, "frames");
            const PickleValue category = data_.get(e, "category");
            entry.category = category.kind == PickleValue::Kind::Text
                                 ? static_cast<int32_t>(category.number)
                                 : -1;
            entries_.push_back(entry);
        }
    }

    // The state at the trace's start: the segments' blocks with the trace undone.
    void undoTrace() {
        for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
            switch (it->action) {
                case Action::Alloc:
                    live_.erase(it->address);
                    break;
                case Action::Free:
                    live_[it->address] = {it->size, it->frames, it->category};
                    break;
                case Action::SegmentAlloc:
                    reserved_ -= it->size;
                    break;
                case Action::SegmentFree:
                    reserved_ += it->size;
                    break;
                case Action::Other:
                    break;
            }
        }
        for (auto& [address, block] : live_)
            block.category = kBeforeTrace;
        start_ = live_;
        for (const auto& [address, block] : start_)
            start_bytes_ += block.size;
        start_reserved_ = reserved_;
    }

    static void apply(LiveBlocks& live, const Entry& e, int64_t& total) {
        if (e.action == Action::Alloc) {
            // An address holds one block: one still alive there was freed unrecorded (a
            // damaged trace), and the total must stay the sum of the blocks it holds.
            Block& block = live[e.address];
            total += e.size - block.size;
            block = {e.size, e.frames, e.category};
        } else if (e.action == Action::Free) {
            const auto it = live.find(e.address);
            if (it != live.end()) {
                total -= it->second.size;
                live.erase(it);
            }
        }
    }

    // The peak over the trace (the first time it is reached), and the blocks alive then.
    void replay() {
        LiveBlocks live = start_;
        int64_t total = start_bytes_;
        peak_bytes_ = total;
        peak_entries_ = 0;
        for (size_t i = 0; i < entries_.size(); ++i) {
            apply(live, entries_[i], total);
            if (total > peak_bytes_) {
                peak_bytes_ = total;
                peak_entries_ = i + 1;
            }
        }
        at_peak_ = start_;
        total = start_bytes_;
        for (size_t i = 0; i < peak_entries_; ++i)
            apply(at_peak_, entries_[i], total);
        live_ = {};
    }

    // A block's category as the snapshot names it; one alive before its trace has none (its
    // allocation is not in the trace), and one of the trace without a category is "unknown",
    // as PyTorch calls it.
    const std::string& categoryName(int32_t category) const {
        static const std::string kUnknown = "unknown";
        static const std::string kBefore = kAliveBeforeTrace;
        static const std::string kAtDump = kAliveAtDump;
        if (category == kBeforeTrace) {
            return entries_.empty() ? kAtDump : kBefore;
        }
        return category < 0 ? kUnknown : data_.texts[category];
    }

    MemoryReport memoryReport() const {
        MemoryReport report;
        report.peak_usage_bytes = peak_bytes_;
        // The blocks alive at the peak by category and the line of the project (or the first
        // line) that allocated them.
        struct Group {
            int64_t bytes = 0;
            StackTrace frames;
        };
        std::map<std::pair<std::string, std::string>, Group> groups;
        PeakBreakdown breakdown;
        bool categorized = false;
        for (const auto& [address, block] : at_peak_) {
            const std::string& category = categoryName(block.category);
            categorized = categorized || block.category >= 0;
            StackTrace frames = framesOf(data_, block.frames);
            std::string line;
            for (const StackFrame& f : frames)
                if (!f.isLibrary()) {
                    line = f.file_path + ":" + std::to_string(f.line_number);
                    break;
                }
            if (line.empty() && !frames.empty()) {
                line = frames.front().file_path + ":" + std::to_string(frames.front().line_number);
            }
            Group& group = groups[{category, line}];
            if (group.bytes == 0) {
                group.frames = std::move(frames);
            }
            group.bytes += block.size;
            int64_t& part = category == "parameter"         ? breakdown.weights
                            : category == "gradient"        ? breakdown.gradients
                            : category == "optimizer_state" ? breakdown.optimizer_state
                            : category == "activation"      ? breakdown.activations
                                                            : breakdown.other;
            part += block.size;
        }
        for (auto& [key, group] : groups)
            report.activations.push_back({key.first, group.bytes, std::move(group.frames), {}, 0});
        std::stable_sort(report.activations.begin(), report.activations.end(),
                         [](const ActivationEntry& a, const ActivationEntry& b) {
                             return a.size_bytes > b.size_bytes;
                         });
        if (categorized) {
            report.peak_breakdown = breakdown;
        }
        report.metadata = metadata();
        std::string note = "imported from a memory snapshot: the memory of device " +
                           std::to_string(std::max<int64_t>(device_, 0));
        if (other_traces_ > 0) {
            note += " (the one with the most trace events; " +
                    (other_traces_ == 1
                         ? std::string("another device's trace is")
                         : std::to_string(other_traces_) + " other devices' traces are") +
                    " not read)";
        }
        note += "; its entries are the blocks alive at the peak by category and line";
        if (!categorized) {
            note +=
                "; the snapshot records no categories (a CUDA snapshot does not), so the "
                "peak is not split into weights, gradients and activations";
        }
        if (entries_.empty()) {
            note +=
                "; it holds no trace (torch.cuda.memory._record_memory_history was not on), so "
                "its peak is the memory alive when it was dumped, not the highest over a step";
        } else if (!timed_) {
            note += "; its trace has no times, so the timeline places its events 1 us apart";
        }
        report.metadata[report_format::kMemoryNoteKey] = note;
        return report;
    }

    RunMetadata metadata() const {
        RunMetadata metadata;
        metadata[report_format::kImportedFromKey] = source_;
        metadata[report_format::kImportedFormatKey] = kMemorySnapshotFormat;
        metadata["snapshot_device"] = std::to_string(device_);
        metadata["snapshot_trace_entries"] = std::to_string(entries_.size());
        if (!timed_) {
            metadata[kUntimedEventsKey] = kUntimedEventsValue;
        }
        return metadata;
    }

    TimelineReport timeline() const {
        TimelineReport out;
        out.metadata = metadata();
        out.device_id = device_ < 0 ? 0 : static_cast<int>(device_);
        int64_t total = start_bytes_, reserved = start_reserved_;
        LiveBlocks live = start_;
        std::unordered_map<uint64_t, size_t> open;  // the trace's blocks, by address
        int64_t first_ns = -1, last_ns = 0;
        for (size_t i = 0; i < entries_.size(); ++i) {
            const Entry& e = entries_[i];
            const int64_t time = timed_ ? std::max<int64_t>(e.time_ns, 0)
                                        : static_cast<int64_t>(i + 1) * kUntimedEventNs;
            first_ns = first_ns < 0 ? time : first_ns;
            last_ns = time;
            if (e.action == Action::SegmentAlloc) {
                reserved += e.size;
                continue;
            }
            if (e.action == Action::SegmentFree) {
                reserved -= e.size;
                continue;
            }
            const int64_t before = total;
            apply(live, e, total);
            if (e.action == Action::Free && total == before) {
                continue;  // the free of a block the trace never held
            }
            const MemorySample sample{time, total, std::max(reserved, total), total};
            out.memory.push_back(sample);
            if (e.action == Action::Alloc) {
                BlockLifetime block;
                block.size_bytes = e.size;
                block.allocation = sample;
                block.operation_name = out.texts.add(categoryName(e.category));
                open[e.address] = out.blocks.size();
                out.blocks.push_back(block);
            } else if (const auto o = open.find(e.address); o != open.end()) {
                out.blocks[o->second].release = sample;
                open.erase(o);
            }
        }
        if (first_ns >= 0) {
            out.steps.push_back({1, first_ns, last_ns, false});
        }
        return out;
    }

    // Every size the snapshot names, added up: every sum the replay makes (totals, the peak's
    // parts, a group's bytes) is a sum of some of them, so a snapshot whose sizes add up to more
    // than 2^60 is refused before one could overflow.
    void budget(int64_t size) {
        sizes_ = saturatedSum(sizes_, size);
        if (sizes_ > (int64_t{1} << 60)) {
            throw damaged(source_, "its blocks add up to more than any machine holds");
        }
    }

    const PickleData& data_;
    std::string source_;
    int64_t sizes_ = 0;
    int64_t device_ = -1;
    LiveBlocks live_, start_, at_peak_;
    std::vector<Entry> entries_;
    bool timed_ = false;
    int64_t other_traces_ = 0;  // devices with a trace other than the one read
    int64_t reserved_ = 0, start_reserved_ = 0;
    int64_t start_bytes_ = 0, peak_bytes_ = 0;
    size_t peak_entries_ = 0;
};

}  // namespace

ImportedRun importMemorySnapshot(const PickleData& snapshot, const std::string& source) {
    return SnapshotImporter(snapshot, source).run();
}

}  // namespace trainscope
