// SPDX-License-Identifier: Apache-2.0
#include "tracking/memory_observer.h"

#include <algorithm>
#include <string_view>

#include <torch/csrc/profiler/orchestration/observer.h>

#include "device/cuda.h"
#include "torch_compat.h"
#include "tracking/cpu_block_watch.h"
#include "tracking/operation_observer.h"
#include "tracking/timeline_recorder.h"

namespace trainscope {

// c10 sends allocation reports to the thread's PROFILER_STATE entry, the one slot that torch's
// own profiler keeps its state in: torch reads whatever is there as a ProfilerStateBase
// (torch.autograd._profiler_enabled(), _profiler_type(), RPC's profiling check), and read a
// plain MemoryReportingInfoBase as one, which answered at random and crashed. So the reporter
// is a ProfilerStateBase whose profiler is disabled and of no type: every such query answers
// as it would without TrainScope, while c10 still reports each allocation here.
namespace {
// The meter whose reporter should hold the slot (one session observes a process at a time).
std::atomic<MemoryObserver*> g_meter{nullptr};
// Set in a child that the observed process forked: its copy of the meter counts nothing.
std::atomic<bool> g_counting_stopped{false};
}  // namespace

void MemoryObserver::stopCountingInThisProcess() {
    g_counting_stopped.store(true);
}

class MemoryObserver::Reporter : public torch::profiler::impl::ProfilerStateBase {
  public:
    explicit Reporter(MemoryObserver* owner)
        : ProfilerStateBase(torch::profiler::impl::ProfilerConfig(
              torch::profiler::impl::ProfilerState::Disabled)),
          owner_(owner) {}
    torch::profiler::impl::ActiveProfilerType profilerType() override {
        return torch::profiler::impl::ActiveProfilerType::NONE;
    }
    void reportMemoryUsage(void* ptr, int64_t alloc_size, compat::AllocatorTotal total_allocated,
                           compat::AllocatorTotal total_reserved, c10::Device device) override {
        if (g_counting_stopped.load(std::memory_order_relaxed)) {
            return;
        }
        owner_->onAllocation(ptr, alloc_size, static_cast<int64_t>(total_allocated),
                             static_cast<int64_t>(total_reserved), device);
    }
    bool memoryProfilingEnabled() const override { return true; }

  private:
    MemoryObserver* owner_;
};

MemoryObserver::MemoryObserver(c10::DeviceType device_type)
    : device_type_(device_type), reporter_(std::make_shared<Reporter>(this)) {
    // live_ is not reserved large: forwardBegins copies it by walking every slot, so it stays
    // the size of the most blocks alive at once (grown in the first observed iteration).
    recent_allocation_.fill(-1);
    guard_ = std::make_unique<c10::DebugInfoGuard>(c10::DebugInfoKind::PROFILER_STATE, reporter_);
    g_meter.store(this, std::memory_order_release);
    if (device_type_ == c10::DeviceType::CPU) {
        block_watch_ = std::make_unique<CpuBlockWatch>(&MemoryObserver::reachesThisThread,
                                                       &MemoryObserver::blockChanged, this);
    }
    watch_ = at::addThreadLocalCallback(at::RecordFunctionCallback(&MemoryObserver::checkReporter)
                                            .scopes({at::RecordScope::FUNCTION}));
}

MemoryObserver::~MemoryObserver() {
    block_watch_.reset();  // no block is told to this meter after
    at::removeCallback(watch_);
    g_meter.store(nullptr, std::memory_order_release);
}

std::unique_ptr<at::ObserverContext> MemoryObserver::checkReporter(const at::RecordFunction&) {
    MemoryObserver* meter = g_meter.load(std::memory_order_acquire);
    if (meter != nullptr && !meter->displaced() &&
        c10::ThreadLocalDebugInfo::get(c10::DebugInfoKind::PROFILER_STATE) !=
            meter->reporter_.get()) {
        meter->displaced_.store(true, std::memory_order_relaxed);
    }
    return nullptr;
}

bool MemoryObserver::reachesThisThread(void* meter) {
    return c10::ThreadLocalDebugInfo::get(c10::DebugInfoKind::PROFILER_STATE) ==
           static_cast<MemoryObserver*>(meter)->reporter_.get();
}

void MemoryObserver::blockChanged(void* meter, void* block, int64_t bytes) {
    if (!g_counting_stopped.load(std::memory_order_relaxed)) {
        static_cast<MemoryObserver*>(meter)->onAllocation(block, bytes, 0, 0,
                                                          c10::Device(c10::DeviceType::CPU));
    }
}

void MemoryObserver::addExistingBlock(const void* ptr, int64_t bytes) {
    if (bytes <= 0) {
        return;
    }
    // CUDA's caching allocator counts the block in its totals already (live_bytes_ follows
    // them); the table learns which block it is, for what is alive at the peak, with the size
    // the allocator gave it: rounded up to its 512-byte minimum block (kMinBlockSize).
    const bool cuda = device_type_ == c10::DeviceType::CUDA;
    if (cuda) {
        constexpr int64_t kMinBlockSize = 512;
        bytes = (bytes + kMinBlockSize - 1) / kMinBlockSize * kMinBlockSize;
    }
    std::lock_guard<SpinLock> lock(mutex_);
    applyRecord();
    void* key = const_cast<void*>(ptr);
    if (live_.find(key) == live_.end()) {
        live_[key] = TrackedBlock{bytes, AllocationPhase::BeforeIteration, -1, -1};
        if (!cuda) {
            live_bytes_ += bytes;
            existing_.insert(ptr);
        }
    }
}

void MemoryObserver::existingBlockFreed(const void* ptr) {
    if (device_type_ != c10::DeviceType::CPU) {
        return;
    }
    int64_t bytes = 0;
    {
        // The record never holds an existing block's free (none is reported), so the table
        // still has it while it lives, also while recording.
        std::lock_guard<SpinLock> lock(mutex_);
        const auto it = live_.find(const_cast<void*>(ptr));
        if (existing_.erase(ptr) == 0 || it == live_.end()) {
            return;
        }
        bytes = it->second.bytes;
    }
    onAllocation(const_cast<void*>(ptr), -bytes, 0, 0, c10::Device(c10::DeviceType::CPU));
}

void MemoryObserver::attributeTo(const OperationObserver* operations) {
    std::lock_guard<SpinLock> lock(mutex_);
    operations_ = operations;
}

void MemoryObserver::forwardBegins() {
    if (recording_) {
        // The model's forward in an eager step: a micro-batch's activations are what its
        // forward allocated from here (not the step's own work before it, such as moving a
        // batch) and still held when its backward begins.
        std::lock_guard<SpinLock> lock(mutex_);
        phase_ = AllocationPhase::Forward;
        record_.micro_batches.push_back({record_.events.size(), 0, false});
        if (std::string_view(record_.phase_marks.back().name) != "forward") {
            record_.phase_marks.push_back({"forward", timelineTicks()});
        }
        return;
    }
    if (device_type_ == c10::DeviceType::CUDA) {
        // The caching allocator's own peak restarts with the measured iteration. Not under
        // mutex_: the allocator reports to us while holding its own lock.
        cuda::resetPeak();
    }
    std::lock_guard<SpinLock> lock(mutex_);
    applyRecord();
    peak_bytes_ = live_bytes_;
    phase_ = AllocationPhase::Forward;
    recording_ = true;
    record_.live_at_start.assign(live_.begin(), live_.end());  // a plain copy: this is timed
    for (auto& [ptr, block] : record_.live_at_start) {
        block.event = -1;
    }
    record_.events.clear();
    record_.backward_roots.clear();
    recent_allocation_.fill(-1);
    record_.events_at_peak = 0;
    record_.micro_batches.assign(1, MemoryRecord::MicroBatch{});
    record_.start_ticks = timelineTicks();
    record_.phase_marks.assign(1, MemoryRecord::PhaseMark{"forward", record_.start_ticks});
}

void MemoryObserver::backwardBegins() {
    std::lock_guard<SpinLock> lock(mutex_);
    phase_ = AllocationPhase::Backward;
    if (!record_.micro_batches.empty() && !record_.micro_batches.back().backward_began) {
        record_.micro_batches.back().backward = record_.events.size();
        record_.micro_batches.back().backward_began = true;
    }
    record_.phase_marks.push_back({"backward", timelineTicks()});
}

void MemoryObserver::backwardStartsFrom(const std::vector<const void*>& gradients) {
    const std::vector<std::optional<int64_t>> events = liveEvents(gradients);
    std::lock_guard<SpinLock> lock(mutex_);
    for (const std::optional<int64_t>& event : events)
        if (event && *event >= 0) {
            record_.backward_roots.insert(*event);
        }
}

void MemoryObserver::backwardEnded() {
    std::lock_guard<SpinLock> lock(mutex_);
    phase_ = AllocationPhase::Step;
    record_.phase_marks.push_back({"optimizer", timelineTicks()});
}

void MemoryObserver::iterationEnded() {
    std::lock_guard<SpinLock> lock(mutex_);
    recording_ = false;
    record_pending_ = device_type_ == c10::DeviceType::CPU;
    phase_ = AllocationPhase::BeforeIteration;
    record_.end_ticks = timelineTicks();
}

int64_t MemoryObserver::peakBytes() const {
    std::lock_guard<SpinLock> lock(mutex_);
    return peak_bytes_;
}

int64_t MemoryObserver::liveBytes() const {
    std::lock_guard<SpinLock> lock(mutex_);
    return live_bytes_;
}

std::vector<std::optional<int64_t>> MemoryObserver::liveEvents(
    const std::vector<const void*>& blocks) {
    std::lock_guard<SpinLock> lock(mutex_);
    std::vector<std::optional<int64_t>> found(blocks.size());
    std::unordered_map<const void*, std::vector<size_t>> wanted;
    for (size_t i = 0; i < blocks.size(); ++i)
        wanted[blocks[i]].push_back(i);
    if (recording_ && device_type_ == c10::DeviceType::CPU) {
        // The table is brought up to date only after the record: the latest event at an
        // address says what is there, and an address with none has the block of the start.
        for (size_t i = record_.events.size(); i-- > 0 && !wanted.empty();) {
            const auto it = wanted.find(record_.events[i].ptr);
            if (it == wanted.end()) {
                continue;
            }
            for (size_t index : it->second)
                if (record_.events[i].bytes > 0)
                    found[index] = static_cast<int64_t>(i);
            wanted.erase(it);
        }
    } else {
        applyRecord();
    }
    for (const auto& [ptr, indices] : wanted) {
        const auto it = live_.find(const_cast<void*>(ptr));
        for (size_t index : indices)
            if (it != live_.end())
                found[index] = recording_ && device_type_ == c10::DeviceType::CPU
                                   ? -1  // alive since before the record
                                   : it->second.event;
    }
    return found;
}

void MemoryObserver::onAllocation(void* ptr, int64_t bytes, int64_t total_allocated,
                                  int64_t total_reserved, c10::Device device) {
    if (device.type() != device_type_ || bytes == 0) {
        return;
    }
    std::lock_guard<SpinLock> lock(mutex_);
    int operation = -1;
    if (bytes > 0 && phase_ == AllocationPhase::Forward && operations_) {
        operation = operations_->currentOperation();
    }
    // While recording on the CPU, the record alone is kept and the table of live blocks is
    // brought up to date from it afterwards: c10's CPU allocator reports a free only for a
    // block it saw allocated under this hook, with its size, so no free here is of an unknown
    // block. CUDA's caching allocator reports every free, also of blocks older than this
    // observer, which the table tells apart.
    if (bytes > 0 && !existing_.empty()) {
        existing_.erase(ptr);  // its address holds another block: the existing one went unseen
    }
    if (recording_ && device_type_ == c10::DeviceType::CPU) {
        live_bytes_ += bytes;
        record(ptr, bytes, total_reserved, operation);
        notePair(ptr, bytes);
        return;
    }
    applyRecord();
    if (bytes > 0) {
        TrackedBlock& block = live_[ptr];
        // A block alive at this address was freed where c10 did not report it to the meter (on
        // a thread it does not reach, such as Gloo's worker ending a collective): it is gone.
        live_bytes_ += bytes - block.bytes;
        block = TrackedBlock{bytes, phase_, operation,
                             recording_ ? static_cast<int64_t>(record_.events.size()) : -1};
    } else {
        // A block allocated before the observer existed is unknown: nothing to subtract.
        auto it = live_.find(ptr);
        if (it != live_.end()) {
            live_bytes_ -= it->second.bytes;
            live_.erase(it);
        }
    }
    if (device_type_ != c10::DeviceType::CPU) {
        // The caching allocator's own total, which also counts its blocks older than this
        // observer (a cuBLAS workspace made by an earlier run in this process): the figures
        // then agree with torch.cuda.memory_allocated().
        live_bytes_ = total_allocated;
    }
    if (recording_) {
        record(ptr, bytes, total_reserved, operation);
    }
}

void MemoryObserver::record(void* ptr, int64_t bytes, int64_t total_reserved, int operation) {
    const TimelineRecorder* timeline = operations_ ? operations_->timeline() : nullptr;
    record_.events.push_back(
        MemoryEvent{timeline ? timelineTicks() : 0, ptr, bytes, live_bytes_,
                    device_type_ == c10::DeviceType::CPU ? live_bytes_ : total_reserved,
                    timeline ? timeline->outermostOpenEvent() : -1, phase_, false, operation});
    if (live_bytes_ > peak_bytes_) {
        peak_bytes_ = live_bytes_;
        record_.events_at_peak = record_.events.size();
    }
}

size_t MemoryObserver::pairSlot(const void* ptr) {
    // Fibonacci hashing: block addresses are 64-byte aligned, their high bits spread them.
    static_assert(kPairSlots == size_t{1} << 10);
    return (reinterpret_cast<uintptr_t>(ptr) * UINT64_C(11400714819323198485)) >> (64 - 10);
}

void MemoryObserver::notePair(void* ptr, int64_t bytes) {
    const size_t slot = pairSlot(ptr);
    const auto event = static_cast<int32_t>(record_.events.size() - 1);
    if (bytes > 0) {
        recent_allocation_[slot] = event;
        return;
    }
    const int32_t allocation = recent_allocation_[slot];
    if (allocation >= 0 && record_.events[allocation].ptr == ptr) {
        record_.events[allocation].paired = record_.events[event].paired = true;
        recent_allocation_[slot] = -1;
    }
}

MemoryRecord MemoryObserver::takeRecord() {
    std::lock_guard<SpinLock> lock(mutex_);
    applyRecord();  // never later: the reader frees the events as it goes
    record_.peak_bytes = peak_bytes_;
    record_.displaced = displaced_.load(std::memory_order_relaxed);
    MemoryRecord taken = std::move(record_);
    record_ = MemoryRecord{};
    return taken;
}

void MemoryObserver::applyRecord() {
    if (!record_pending_) {
        return;
    }
    record_pending_ = false;
    for (size_t i = 0; i < record_.events.size(); ++i) {
        if (!record_.events[i].paired) {
            applyEvent(live_, record_.events[i], i);
        }
    }
}

}  // namespace trainscope
