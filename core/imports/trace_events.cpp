// SPDX-License-Identifier: Apache-2.0
#include "imports/trace_events.h"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

#include "trainscope/error.h"

namespace trainscope {

int32_t TraceTexts::add(const std::string& text) {
    const auto [it, added] = ids_.try_emplace(text, static_cast<int32_t>(texts_.size()));
    if (added) {
        texts_.push_back(&it->first);
    }
    return it->second;
}

const std::string& TraceTexts::operator[](int32_t id) const {
    static const std::string kNone;
    return id < 0 || static_cast<size_t>(id) >= texts_.size() ? kNone : *texts_[id];
}

namespace {

// RapidJSON's input stream concept over the inflated bytes.
class JsonStream {
  public:
    using Ch = char;
    explicit JsonStream(BufferedBytes& bytes) : bytes_(bytes) {}
    // What was scanned is taken from the bytes: they stand after the JSON read.
    ~JsonStream() { bytes_.skip(static_cast<size_t>(at_ - begin_)); }
    JsonStream(const JsonStream&) = delete;  // a copy would take the same bytes twice
    JsonStream& operator=(const JsonStream&) = delete;
    // Inlined into the parser's loops (a call per byte cost a quarter of the import); more()
    // runs once per 64 KiB.
    [[gnu::always_inline]] Ch Peek() const { return at_ != end_ || more() ? *at_ : '\0'; }
    [[gnu::always_inline]] Ch Take() { return at_ != end_ || more() ? *at_++ : '\0'; }
    size_t Tell() const { return static_cast<size_t>(bytes_.offset()) + (at_ - begin_); }
    // Writing is for in-situ parsing, which this stream does not offer.
    Ch* PutBegin() { return nullptr; }
    void Put(Ch) {}
    void Flush() {}
    size_t PutEnd(Ch*) { return 0; }

  private:
    // The next bytes read ahead, scanned in place; false at the end.
    [[gnu::noinline]] bool more() const {
        bytes_.skip(static_cast<size_t>(at_ - begin_));
        begin_ = at_;  // taken: not again by the destructor, should reading more throw
        const std::string_view next = bytes_.available();
        begin_ = at_ = next.data();
        end_ = next.data() + next.size();
        return !next.empty();
    }
    BufferedBytes& bytes_;
    mutable const char* begin_ = nullptr;  // bytes_.available() when last asked
    mutable const char* at_ = nullptr;
    mutable const char* end_ = nullptr;
};

// An integer as JSON writes it (an address past int64's end as its bits); nothing for another
// number.
std::optional<int64_t> integerOf(const char* text, size_t size) {
    const char* const last = text + size;
    int64_t value = 0;
    if (const auto [end, error] = std::from_chars(text, last, value);
        error == std::errc() && end == last && size > 0) {
        return value;
    }
    uint64_t address = 0;
    if (const auto [end, error] = std::from_chars(text, last, address);
        error == std::errc() && end == last && size > 0) {
        return static_cast<int64_t>(address);
    }
    return std::nullopt;
}

// The largest time or duration read, in µs: about 127 years, past any clock a trace uses (epoch
// µs are 1.8e15), and small enough that a time plus a duration never overflows in ns.
constexpr double kMaxMicroseconds = 4e15;

// Microseconds as the trace writes them ("5025245155894.346") to nanoseconds, exactly where the
// text is a plain decimal (a double would lose nanoseconds at this magnitude); nothing for a
// number that is not finite.
std::optional<int64_t> nanosecondsOf(const char* text, size_t size) {
    size_t i = 0;
    const bool negative = size > 0 && text[0] == '-';
    i += negative ? 1 : 0;
    // Up to 16 digits: epoch µs ("1695835573014682.963") exactly; kMaxMicroseconds bounds them.
    int64_t whole = 0;
    size_t digits = 0;
    for (; i < size && text[i] >= '0' && text[i] <= '9' && digits < 16; ++i, ++digits)
        whole = whole * 10 + (text[i] - '0');
    int64_t fraction = 0;
    int fraction_digits = 0;
    if (i < size && text[i] == '.') {
        for (++i; i < size && text[i] >= '0' && text[i] <= '9'; ++i) {
            if (fraction_digits < 3) {
                fraction = fraction * 10 + (text[i] - '0');
                ++fraction_digits;
            }
        }
    }
    if (i == size && digits > 0 && whole <= static_cast<int64_t>(kMaxMicroseconds)) {
        for (; fraction_digits < 3; ++fraction_digits)
            fraction *= 10;
        const int64_t ns = whole * 1000 + fraction;
        return negative ? -ns : ns;
    }
    // Another form (an exponent): through a double, read as JSON writes it whatever the
    // locale (strtod would take the app's German decimal comma).
    double us = 0;
    const auto [end, error] = std::from_chars(text, text + size, us);
    if (error != std::errc() || end != text + size || !std::isfinite(us) ||
        std::fabs(us) > kMaxMicroseconds) {
        return std::nullopt;
    }
    // In long double: a double loses nanoseconds past 2^53 ns (epoch times are 1.7e18 ns).
    return static_cast<int64_t>(std::llroundl(static_cast<long double>(us) * 1000.0L));
}

// One event as read, before it is kept in its compact form.
struct PendingEvent {
    std::string ph, cat, name;
    std::optional<int64_t> pid, tid;  // numbers; strings are kept as texts
    std::string pid_text, tid_text;
    std::optional<int64_t> ts, dur;
    bool ts_bad = false, dur_bad = false;
    std::optional<int64_t> id;
    std::string id_text;
    // args
    std::optional<int64_t> sequence, correlation;
    std::optional<int64_t> bytes, total_allocated, total_reserved, address, device_type, device_id;
    std::string call_from, arg_name;
    std::string collective, collective_dtype;  // a collective kernel's
    std::string group_name, group_description, group_ranks;
    std::optional<int64_t> collective_elements, group_size;
    std::string shapes, dtypes;
    bool has_shapes = false, has_dtypes = false;
    // For the next event: every field unset, the strings' room kept (not freed and taken
    // again for each of millions of events).
    void clear() {
        for (std::string* text :
             {&ph, &cat, &name, &pid_text, &tid_text, &id_text, &call_from, &arg_name, &collective,
              &collective_dtype, &group_name, &group_description, &group_ranks, &shapes, &dtypes})
            text->clear();
        pid = tid = ts = dur = id = std::nullopt;
        ts_bad = dur_bad = has_shapes = has_dtypes = false;
        sequence = correlation = bytes = total_allocated = total_reserved = address = device_type =
            device_id = collective_elements = group_size = std::nullopt;
    }
};

// A collective's process group as its kernel's args name it: "default_pg (0): ranks [0, 1]";
// "" where they do not (before PyTorch 2.2).
std::string processGroupOf(const PendingEvent& e) {
    std::string group = e.group_description.empty() ? e.group_name : e.group_description;
    if (!e.group_description.empty() && !e.group_name.empty()) {
        group += " (" + e.group_name + ")";
    }
    if (!e.group_ranks.empty()) {
        group += (group.empty() ? "ranks " : ": ranks ") + e.group_ranks;
    }
    return group;
}

// The keys an event's fields and args are read by, told apart once per key (each of millions of
// events has a dozen): by length, then by content.
enum class Field : uint8_t {
    Other,
    Ph,
    Cat,
    Name,
    Pid,
    Tid,
    Id,
    Ts,
    Dur,
    Args,
    CallFrom,
    CollectiveName,
    Dtype,
    GroupName,
    GroupDescription,
    GroupRanks,
    SequenceNumber,
    Correlation,
    InMsgNelems,
    GroupSize,
    Bytes,
    TotalAllocated,
    TotalReserved,
    Addr,
    DeviceType,
    DeviceId,
    InputDims,
    InputType,
};

Field fieldOf(std::string_view key) {
    switch (key.size()) {
        case 2:
            if (key == "ph")
                return Field::Ph;
            if (key == "id")
                return Field::Id;
            if (key == "ts")
                return Field::Ts;
            break;
        case 3:
            if (key == "cat")
                return Field::Cat;
            if (key == "pid")
                return Field::Pid;
            if (key == "tid")
                return Field::Tid;
            if (key == "dur")
                return Field::Dur;
            break;
        case 4:
            if (key == "name")
                return Field::Name;
            if (key == "args")
                return Field::Args;
            if (key == "Addr")
                return Field::Addr;
            break;
        case 5:
            if (key == "dtype")
                return Field::Dtype;
            if (key == "Bytes")
                return Field::Bytes;
            break;
        case 8:
            if (key == "CallFrom")
                return Field::CallFrom;
            break;
        case 9:
            if (key == "Device Id")
                return Field::DeviceId;
            break;
        case 10:
            if (key == "Group size")
                return Field::GroupSize;
            if (key == "Input Dims")
                return Field::InputDims;
            if (key == "Input type")
                return Field::InputType;
            break;
        case 11:
            if (key == "correlation")
                return Field::Correlation;
            if (key == "Device Type")
                return Field::DeviceType;
            break;
        case 13:
            if (key == "In msg nelems")
                return Field::InMsgNelems;
            break;
        case 14:
            if (key == "Total Reserved")
                return Field::TotalReserved;
            break;
        case 15:
            if (key == "Collective name")
                return Field::CollectiveName;
            if (key == "Sequence number")
                return Field::SequenceNumber;
            if (key == "Total Allocated")
                return Field::TotalAllocated;
            break;
        case 18:
            if (key == "Process Group Name")
                return Field::GroupName;
            break;
        case 19:
            if (key == "Process Group Ranks")
                return Field::GroupRanks;
            break;
        case 25:
            if (key == "Process Group Description")
                return Field::GroupDescription;
            break;
        default:
            break;
    }
    return Field::Other;
}

constexpr int kEventsPerProgress = 4096;
// The largest allocation or total a memory event may name (1 PiB): what no machine holds.
constexpr int64_t kMaxBytes = int64_t{1} << 50;

class TraceHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, TraceHandler> {
  public:
    TraceHandler(TraceEvents& events, ByteSource& source, const ImportProgress& progress,
                 const std::atomic<bool>* cancel)
        : out_(events), source_(source), progress_(progress), cancel_(cancel) {}

    bool StartObject() {
        ++depth_;
        if (outsideEvents() && depth_ == 3 && top_key_ == "deviceProperties") {
            out_.devices.emplace_back();
        } else if (in_events_ && depth_ == events_depth_) {
            event_.clear();
        } else if (events_depth_ > 0 && !in_args_ && depth_ == events_depth_ + 1 &&
                   field_ == Field::Args) {
            in_args_ = true;
        } else if (depth_ == 1) {
            root_object_ = true;
        }
        return true;
    }
    bool EndObject(rapidjson::SizeType) {
        if (in_events_ && depth_ == events_depth_) {
            finishEvent();
        } else if (in_args_ && depth_ == events_depth_ + 1) {
            in_args_ = false;
        }
        --depth_;
        return !failed_;
    }
    bool StartArray() {
        ++depth_;
        if (events_depth_ == 0 &&
            ((depth_ == 1) || (depth_ == 2 && root_object_ && key_ == "traceEvents"))) {
            events_depth_ = depth_ + 1;
            saw_events_ = true;
            in_events_ = true;
        } else if (in_args_ && depth_ == events_depth_ + 2 &&
                   (field_ == Field::InputDims || field_ == Field::InputType)) {
            list_ = field_ == Field::InputDims ? &event_.shapes : &event_.dtypes;
            (field_ == Field::InputDims ? event_.has_shapes : event_.has_dtypes) = true;
            list_items_ = 0;
        } else if (list_ && depth_ == events_depth_ + 3) {
            if (list_items_++ > 0) {
                list_->append(";\r\n");
            }
            dims_ = 0;
        }
        return true;
    }
    bool EndArray(rapidjson::SizeType) {
        if (list_ && depth_ == events_depth_ + 2) {
            list_ = nullptr;
        } else if (in_events_ && depth_ == events_depth_ - 1) {
            in_events_ = false;  // the trace's other keys follow
        }
        --depth_;
        return true;
    }
    bool Key(const char* text, rapidjson::SizeType size, bool) {
        if (in_events_) {  // the events' keys by their field alone
            field_ = fieldOf(std::string_view(text, size));
            return true;
        }
        key_.assign(text, size);
        if (depth_ == 1 && root_object_) {
            top_key_ = key_;
        }
        return true;
    }
    bool String(const char* text, rapidjson::SizeType size, bool) {
        const std::string_view value(text, size);  // assigned in place: no copy of its own
        if (depth_ == 1 && root_object_) {
            noteTopKey();
        } else if (outsideEvents()) {
            if (depth_ == 3 && top_key_ == "deviceProperties" && key_ == "name" &&
                !out_.devices.empty()) {
                out_.devices.back().name.assign(value);
            }
        } else if (inEvent(1)) {
            if (field_ == Field::Ph)
                event_.ph.assign(value);
            else if (field_ == Field::Cat)
                event_.cat.assign(value);
            else if (field_ == Field::Name)
                event_.name.assign(value);
            else if (field_ == Field::Pid)
                event_.pid_text.assign(value);
            else if (field_ == Field::Tid)
                event_.tid_text.assign(value);
            else if (field_ == Field::Id)
                event_.id_text.assign(value);
            else if (field_ == Field::Ts)
                event_.ts_bad = true;
            else if (field_ == Field::Dur)
                event_.dur_bad = true;
        } else if (inArgs(1)) {
            if (field_ == Field::CallFrom)
                event_.call_from.assign(value);
            else if (field_ == Field::Name)
                event_.arg_name.assign(value);
            else if (field_ == Field::CollectiveName)
                event_.collective.assign(value);
            else if (field_ == Field::Dtype)
                event_.collective_dtype.assign(value);
            else if (field_ == Field::GroupName)
                event_.group_name.assign(value);
            else if (field_ == Field::GroupDescription)
                event_.group_description.assign(value);
            else if (field_ == Field::GroupRanks)
                event_.group_ranks.assign(value);
        } else if (list_ == &event_.dtypes && depth_ == events_depth_ + 2) {
            if (list_items_++ > 0) {
                list_->append(";\r\n");
            }
            list_->append(value);
        }
        return true;
    }
    bool RawNumber(const char* text, rapidjson::SizeType size, bool) {
        if (depth_ == 1 && root_object_) {
            noteTopKey();
            if (key_ == "baseTimeNanoseconds") {
                // The epoch time of ts 0; one before 1970 or past 2096 is no clock's: left out.
                const int64_t base = integerOf(text, size).value_or(0);
                out_.base_ns = base >= 0 && base <= int64_t{4000000000000000000} ? base : 0;
            }
        } else if (outsideEvents()) {
            const std::optional<int64_t> value = integerOf(text, size);
            if (depth_ == 2 && top_key_ == "distributedInfo" && value && *value >= 0) {
                if (key_ == "rank")
                    out_.rank = *value;
                else if (key_ == "world_size")
                    out_.world_size = *value;
            } else if (depth_ == 3 && top_key_ == "deviceProperties" && value &&
                       !out_.devices.empty()) {
                TraceDevice& device = out_.devices.back();
                if (key_ == "id")
                    device.id = *value;
                else if (key_ == "totalGlobalMem")
                    device.memory_bytes = *value;
                else if (key_ == "numSms")
                    device.multiprocessors = *value;
            }
        } else if (inEvent(1)) {
            if (field_ == Field::Ts || field_ == Field::Dur) {
                const std::optional<int64_t> ns = nanosecondsOf(text, size);
                (field_ == Field::Ts ? event_.ts : event_.dur) = ns;
                (field_ == Field::Ts ? event_.ts_bad : event_.dur_bad) = !ns;
            } else if (field_ == Field::Pid) {
                event_.pid = integerOf(text, size);
            } else if (field_ == Field::Tid) {
                event_.tid = integerOf(text, size);
            } else if (field_ == Field::Id) {
                event_.id = integerOf(text, size);
            }
        } else if (inArgs(1)) {
            const std::optional<int64_t> value = integerOf(text, size);
            if (field_ == Field::SequenceNumber)
                event_.sequence = value;
            else if (field_ == Field::Correlation)
                event_.correlation = value;
            else if (field_ == Field::InMsgNelems)
                event_.collective_elements = value;
            else if (field_ == Field::GroupSize)
                event_.group_size = value;
            else if (field_ == Field::Bytes)
                event_.bytes = value;
            else if (field_ == Field::TotalAllocated)
                event_.total_allocated = value;
            else if (field_ == Field::TotalReserved)
                event_.total_reserved = value;
            else if (field_ == Field::Addr)
                event_.address = value;
            else if (field_ == Field::DeviceType)
                event_.device_type = value;
            else if (field_ == Field::DeviceId)
                event_.device_id = value;
        } else if (list_ == &event_.shapes && depth_ == events_depth_ + 3) {
            if (dims_++ > 0) {
                list_->push_back(',');
            }
            list_->append(text, size);
        }
        return true;
    }
    bool Null() { return scalar(); }
    bool Bool(bool) { return scalar(); }

    const std::string& failure() const { return failure_; }
    bool sawEvents() const { return saw_events_; }

  private:
    bool inEvent(int below) const {
        return in_events_ && !in_args_ && depth_ == events_depth_ + below - 1;
    }
    // In the root object's other keys (distributedInfo, deviceProperties), not its events.
    bool outsideEvents() const { return root_object_ && !in_events_ && depth_ >= 2; }
    bool inArgs(int below) const { return in_args_ && depth_ == events_depth_ + below; }
    bool scalar() {
        if (depth_ == 1 && root_object_) {
            noteTopKey();
        }
        return true;
    }
    void noteTopKey() {
        if (key_ == "schemaVersion" || key_ == "deviceProperties" || key_ == "traceName" ||
            key_ == "baseTimeNanoseconds") {
            out_.torch_profiler = true;
        }
    }
    int64_t idOf(const std::optional<int64_t>& number, const std::string& text) {
        if (number) {
            return *number;
        }
        // A name for a process or thread ("Spans", "PyTorch Profiler"): a negative id of its own.
        return -1 - static_cast<int64_t>(out_.texts.add(text));
    }
    bool fail(std::string why) {
        failure_ = "event " + std::to_string(out_.events) +
                   (event_.name.empty() ? std::string() : " (" + event_.name + ")") + " " + why;
        failed_ = true;
        return false;
    }
    void finishEvent() {
        ++out_.events;
        if (out_.events % kEventsPerProgress == 0) {
            if (cancel_ && cancel_->load()) {
                throw Cancelled();
            }
            if (progress_) {
                progress_(source_.consumed(), source_.total());
            }
        }
        const std::string& ph = event_.ph;
        const std::string& cat = event_.cat;
        if (cat == "cpu_op" || cat == "python_function" || cat == "user_annotation" ||
            event_.pid_text == "CPU functions") {
            out_.torch_profiler = true;
        }
        if (event_.ts_bad) {
            fail("has a time that is not a number, or past any clock");
            return;
        }
        if (ph == "X") {
            finishComplete();
        } else if ((ph == "i" || ph == "I") && event_.name == "[memory]") {
            finishMemory();
        } else if ((ph == "s" || ph == "f") && cat == "fwdbwd") {
            if (!event_.ts || !event_.id) {
                fail("is a flow without its time or id");
                return;
            }
            out_.flows.push_back({*event_.id, *event_.ts, idOf(event_.pid, event_.pid_text),
                                  idOf(event_.tid, event_.tid_text), ph == "s"});
        } else if (ph == "M") {
            if (event_.name == "thread_name") {
                out_.thread_names[{idOf(event_.pid, event_.pid_text),
                                   idOf(event_.tid, event_.tid_text)}] = event_.arg_name;
            }
        } else {
            ++out_.skipped[cat.empty() ? "ph " + ph : cat];
        }
    }
    void finishComplete() {
        if (event_.dur_bad) {
            fail("has a duration that is not a number, or past any clock");
            return;
        }
        if (!event_.ts || !event_.dur) {
            fail("has no " + std::string(event_.ts ? "duration" : "time"));
            return;
        }
        if (*event_.dur < 0) {
            fail("has a negative duration");
            return;
        }
        const int64_t start = *event_.ts;
        const int64_t pid = idOf(event_.pid, event_.pid_text);
        const int64_t tid = idOf(event_.tid, event_.tid_text);
        const std::string& cat = event_.cat;
        if (cat == "python_function") {
            out_.python_calls.push_back(
                {start, start + *event_.dur, pid, tid, out_.texts.add(event_.name),
                 event_.call_from.empty() ? -1 : out_.texts.add(event_.call_from)});
            return;
        }
        TraceSpan span;
        if (cat.empty() && event_.name.rfind("ProfilerStep#", 0) == 0) {
            span.kind = TraceSpan::Kind::Annotation;  // PyTorch 1.13 marks a step with no category
        } else if (cat == "cpu_op" || cat.empty()) {
            span.kind = TraceSpan::Kind::Operation;
        } else if (cat == "user_annotation") {
            span.kind = TraceSpan::Kind::Annotation;
        } else if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
            span.kind = TraceSpan::Kind::Kernel;
            span.work = cat == "kernel"       ? TraceSpan::Work::Kernel
                        : cat == "gpu_memcpy" ? TraceSpan::Work::Memcpy
                                              : TraceSpan::Work::Memset;
            if (!event_.collective.empty()) {
                span.collective = static_cast<int32_t>(out_.collectives.size());
                out_.collectives.push_back(
                    {out_.texts.add(event_.collective),
                     std::max<int64_t>(0, event_.collective_elements.value_or(0)),
                     event_.collective_dtype.empty() ? -1 : out_.texts.add(event_.collective_dtype),
                     std::max<int64_t>(0, event_.group_size.value_or(0)),
                     out_.texts.add(processGroupOf(event_))});
            }
        } else if (cat == "cuda_runtime" || cat == "cuda_driver") {
            span.kind = TraceSpan::Kind::Runtime;
        } else {
            ++out_.skipped[cat];
            return;
        }
        span.start_ns = start;
        span.end_ns = start + *event_.dur;
        span.pid = pid;
        span.tid = tid;
        span.sequence = event_.sequence.value_or(-1);
        span.correlation = event_.correlation.value_or(-1);
        span.name = out_.texts.add(event_.name);
        span.shapes = event_.has_shapes ? out_.texts.add(event_.shapes) : -1;
        span.dtypes = event_.has_dtypes ? out_.texts.add(event_.dtypes) : -1;
        out_.spans.push_back(span);
    }
    void finishMemory() {
        if (!event_.ts || !event_.bytes || !event_.total_allocated) {
            fail("is a memory event without its time, bytes or total");
            return;
        }
        if (!event_.address) {  // each block is told by it: without, every block is one
            fail("is a memory event without its address (Addr)");
            return;
        }
        for (const std::optional<int64_t>* size :
             {&event_.bytes, &event_.total_allocated, &event_.total_reserved}) {
            if (*size && (**size > kMaxBytes || **size < -kMaxBytes)) {
                fail("is a memory event of an impossible size");
                return;
            }
        }
        // A block's bytes are negative when it is freed, a total never is.
        if (*event_.total_allocated < 0 || event_.total_reserved.value_or(0) < 0) {
            fail("is a memory event whose total allocated or reserved is negative");
            return;
        }
        out_.memory.push_back({*event_.ts, idOf(event_.pid, event_.pid_text),
                               idOf(event_.tid, event_.tid_text), *event_.bytes,
                               *event_.total_allocated, event_.total_reserved.value_or(0),
                               static_cast<uint64_t>(*event_.address),
                               event_.device_type.value_or(0), event_.device_id.value_or(-1)});
    }

    TraceEvents& out_;
    ByteSource& source_;
    const ImportProgress& progress_;
    const std::atomic<bool>* cancel_;
    int depth_ = 0;
    int events_depth_ = 0;  // the depth of an event object; 0: not in the events' array yet
    bool root_object_ = false;
    bool saw_events_ = false;
    bool in_events_ = false;  // within the list of events
    bool in_args_ = false;
    std::string key_;             // outside the events: the trace's other keys
    Field field_ = Field::Other;  // within them
    std::string top_key_;         // the root object's key being read
    PendingEvent event_;
    std::string* list_ = nullptr;  // the args list being read (Input Dims, Input type)
    int list_items_ = 0, dims_ = 0;
    bool failed_ = false;
    std::string failure_;
};

}  // namespace

TraceEvents readTraceEvents(BufferedBytes& bytes, const ImportProgress& progress,
                            const std::atomic<bool>* cancel) {
    TraceEvents events;
    ByteSource& source = bytes.source();
    TraceHandler handler(events, source, progress, cancel);
    rapidjson::ParseResult result;
    {
        JsonStream stream(bytes);  // gone before `bytes` is looked at again
        rapidjson::Reader reader;
        constexpr unsigned kFlags = rapidjson::kParseIterativeFlag |
                                    rapidjson::kParseNumbersAsStringsFlag |
                                    rapidjson::kParseNanAndInfFlag;
        result = reader.Parse<kFlags>(stream, handler);
    }
    const std::string& name = source.name();
    if (!handler.failure().empty()) {
        throw Error(name + " is not a trace TrainScope can read: its " + handler.failure());
    }
    if (result.IsError()) {
        if (result.Code() == rapidjson::kParseErrorDocumentEmpty || bytes.peek() < 0) {
            throw Error(name + " ends early: the JSON is cut off at byte " +
                        std::to_string(result.Offset()));
        }
        throw Error(name + " is not JSON: " + rapidjson::GetParseError_En(result.Code()) +
                    " at byte " + std::to_string(result.Offset()));
    }
    if (!handler.sawEvents()) {
        throw Error(name + " is JSON but not a trace: it has no list of events (traceEvents)");
    }
    if (!events.torch_profiler) {
        throw Error(name +
                    " is a trace of another tool, not torch.profiler's: it has no "
                    "operations (cpu_op) or Python calls");
    }
    if (progress) {
        progress(source.consumed(), source.total());
    }
    // Vectors grown by doubling hold up to twice their events: a large trace's are kept exact.
    events.spans.shrink_to_fit();
    events.python_calls.shrink_to_fit();
    events.memory.shrink_to_fit();
    events.flows.shrink_to_fit();
    return events;
}

}  // namespace trainscope
