// SPDX-License-Identifier: Apache-2.0
#include "tracking/timeline_recorder.h"

#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <unordered_map>

namespace trainscope {
namespace {

std::atomic<uint64_t> g_generation{0};

// Direct-mapped cache from a name's address to its index in the thread's names.
constexpr size_t kNameCacheSize = 256;
struct NameCacheSlot {
    const char* address = nullptr;
    uint32_t index = 0;
    // The address is an operator schema's name, which lives as long as the operator: no other
    // name can come to have it, so a hit needs no comparison of the text.
    bool schema_name = false;
};

}  // namespace

// A thread's recording state, valid while `generation` is the recorder's.
struct TimelineRecorder::ThreadState {
    uint64_t generation = 0;
    uint32_t thread_index = 0;
    ThreadTimeline* timeline = nullptr;
    // Open events: index and RecordFunction handle, so an end matches its begin.
    std::vector<std::pair<uint32_t, uint64_t>> open;
    NameCacheSlot cache[kNameCacheSize];
    std::unordered_map<std::string, uint32_t> by_text;

    // Each event's name: a cache hit is inline, so that it costs no call; a miss (a name new
    // to the thread, one at a new address, a collision in the cache) is out of line.
    uint32_t intern(const at::RecordFunction& fn) {
        const char* name = fn.name();
        const NameCacheSlot& slot = cache[slotOf(name)];
        if (slot.address == name &&
            (slot.schema_name || std::strcmp(timeline->names[slot.index].c_str(), name) == 0)) {
            return slot.index;
        }
        return internMissed(fn, name);
    }

    static size_t slotOf(const char* name) {
        return (reinterpret_cast<uintptr_t>(name) >> 3) % kNameCacheSize;
    }

    [[gnu::noinline]] uint32_t internMissed(const at::RecordFunction& fn, const char* name) {
        auto [it, added] = by_text.try_emplace(name, static_cast<uint32_t>(timeline->names.size()));
        if (added) {
            timeline->names.emplace_back(name);
        }
        // A backward node's name, or one given as text, is a string of the RecordFunction's
        // own; an operator's is its schema's (then operator_name() has a value).
        cache[slotOf(name)] = {name, it->second, fn.operator_name().has_value()};
        return it->second;
    }
};

namespace {

int64_t steadyNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

int64_t epochNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

#if defined(__x86_64__)
// CPUID leaf 0x80000007, EDX bit 8: the time-stamp counter runs at a constant rate in every
// power state (and the kernel keeps it synchronised across cores).
bool invariantTsc() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx) && (edx & (1u << 8));
}
const bool g_use_tsc = invariantTsc();
#endif

}  // namespace

int64_t timelineTicks() {
#if defined(__x86_64__)
    if (g_use_tsc) {
        return static_cast<int64_t>(__rdtsc());
    }
#endif
    return steadyNs();
}

TimelineClock::TimelineClock()
    : ticks0_(timelineTicks()), steady_ns0_(steadyNs()), epoch_ns0_(epochNs()) {}

TimelineClock::Conversion TimelineClock::conversion() const {
    const int64_t ticks = timelineTicks();
    const int64_t steady = steadyNs();
    Conversion conversion{ticks0_, epoch_ns0_, 1.0};
    if (ticks > ticks0_ && steady > steady_ns0_) {
        conversion.ns_per_tick =
            static_cast<double>(steady - steady_ns0_) / static_cast<double>(ticks - ticks0_);
    }
    return conversion;
}

TimelineRecorder::TimelineRecorder() : generation_(++g_generation) {}

inline TimelineRecorder::ThreadState& TimelineRecorder::threadState() {
    // One state per thread, reused by later recorders (a new generation resets it).
    static thread_local ThreadState state;
    return state;
}

// Inline, as threadState(): both run on every event, and the join once per thread.
inline TimelineRecorder::ThreadState& TimelineRecorder::stateOfThisThread() {
    ThreadState& state = threadState();
    if (__builtin_expect(state.generation != generation_, 0)) {
        join(state);
    }
    return state;
}

void TimelineRecorder::join(ThreadState& state) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto timeline = std::make_unique<ThreadTimeline>();
    timeline->os_tid = static_cast<uint64_t>(::syscall(SYS_gettid));
    timeline->record_function_tid = at::RecordFunction::currentThreadId();
    state.generation = generation_;
    state.thread_index = static_cast<uint32_t>(threads_.size());
    state.timeline = timeline.get();
    state.open.clear();
    std::fill(std::begin(state.cache), std::end(state.cache), NameCacheSlot{});
    state.by_text.clear();
    threads_.push_back(std::move(timeline));
}

void TimelineRecorder::begin(const at::RecordFunction& fn) {
    ThreadState& state = stateOfThisThread();
    TimelineEvent event;
    event.name = state.intern(fn);
    event.sequence_nr = fn.seqNr();
    event.backward = fn.scope() == at::RecordScope::BACKWARD_FUNCTION;
    event.user_scope = fn.scope() == at::RecordScope::USER_SCOPE;
    event.fwd_thread = event.backward ? fn.forwardThreadId() : 0;
    ChunkedLog<TimelineEvent>& events = state.timeline->events;
    state.open.emplace_back(static_cast<uint32_t>(events.size()), fn.handle());
    event.start = timelineTicks();  // last, so the bookkeeping above is not in the event
    events.push_back(event);
}

void TimelineRecorder::end(const at::RecordFunction& fn) {
    const int64_t now = timelineTicks();
    ThreadState& state = stateOfThisThread();
    if (!state.open.empty() && state.open.back().second == fn.handle()) {
        state.timeline->events[state.open.back().first].end = now;
        state.open.pop_back();
        return;
    }
    // Not the innermost: an asynchronous event above it (a collective that a backend ends on
    // another thread) is still open. Without this search every later end on this thread would
    // be dropped. Not found: it began before recording started.
    for (auto it = state.open.rbegin(); it != state.open.rend(); ++it) {
        if (it->second == fn.handle()) {
            state.timeline->events[it->first].end = now;
            state.open.erase(std::next(it).base());
            return;
        }
    }
}

int64_t TimelineRecorder::outermostOpenEvent() const {
    const ThreadState& state = threadState();
    if (state.generation != generation_ || state.open.empty()) {
        return -1;
    }
    return static_cast<int64_t>(state.thread_index) << 32 | state.open.front().first;
}

TimelineRecord TimelineRecorder::takeRecord() {
    std::lock_guard<std::mutex> lock(mutex_);
    return TimelineRecord{std::move(threads_), clock_.conversion()};
}

}  // namespace trainscope
