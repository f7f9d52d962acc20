// SPDX-License-Identifier: Apache-2.0
#include "tracking/cpu_block_watch.h"

#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <c10/core/impl/alloc_cpu.h>
#include <c10/util/flat_hash_map.h>

#include <pthread.h>

#include <atomic>
#include <mutex>
#include <type_traits>

#include "tracking/spin_lock.h"

namespace trainscope {
namespace {

// The allocator stood in for and its deleter, kept once known: blocks handed out under a watch
// live on after it, and those the allocator made go back through its deleter.
std::atomic<c10::Allocator*> g_allocator{nullptr};
std::atomic<c10::DeleterFnPtr> g_deleter{nullptr};
// The watch that is told now (one at a time), and its number: a block keeps the number of the
// watch it was counted by, and its free is told to that watch only.
std::atomic<CpuBlockWatch::Counts> g_counts{nullptr};
std::atomic<CpuBlockWatch::Changed> g_changed{nullptr};
std::atomic<void*> g_context{nullptr};
std::atomic<uint32_t> g_watch_number{0};
// Changes being told now: a watch that ends waits for them, so that none reaches it after.
std::atomic<int> g_telling{0};
// Set in a child forked from this process: the table's lock may have been held by another
// thread of the parent at the fork, so the child never takes it (its blocks go back plainly).
std::atomic<bool> g_forked{false};
std::mutex g_installing;

// Every block allocated here, alive now, with its size and its watch's number. Open
// addressing: no allocation per block (touched on every allocation and free).
struct CountedBlock {
    int64_t bytes = 0;
    uint32_t watch = 0;
};
SpinLock g_table_lock;
ska::flat_hash_map<void*, CountedBlock>& counted() {
    static auto* table = new ska::flat_hash_map<void*, CountedBlock>();  // outlives every block
    return *table;
}

// Held while a watch's callbacks may be called: a watch that ends waits for none to be held, so
// that neither callback reaches it after (nor its context, once gone).
class Telling {
  public:
    Telling() { g_telling.fetch_add(1, std::memory_order_acq_rel); }
    ~Telling() { g_telling.fetch_sub(1, std::memory_order_acq_rel); }
    Telling(const Telling&) = delete;
    Telling& operator=(const Telling&) = delete;
};

void freeBlock(void* block) {
    if (block == nullptr) {
        return;
    }
    if (g_forked.load(std::memory_order_relaxed)) {
        c10::free_cpu(block);  // either kind: c10's default allocator frees with free_cpu too
        return;
    }
    CountedBlock found;
    bool ours = false;
    {
        std::lock_guard<SpinLock> lock(g_table_lock);
        auto& table = counted();
        const auto it = table.find(block);
        if (it != table.end()) {
            found = it->second;
            ours = true;
            table.erase(it);
        }
    }
    if (!ours) {
        // A block of the allocator stood in for, given back through raw_deleter().
        g_deleter.load(std::memory_order_acquire)(block);
        return;
    }
    {
        // Told before the block goes back: no other block can be made at its address before.
        const Telling telling;
        const CpuBlockWatch::Changed changed = g_changed.load(std::memory_order_acquire);
        if (changed != nullptr && found.watch == g_watch_number.load(std::memory_order_acquire)) {
            changed(g_context.load(std::memory_order_acquire), block, -found.bytes);
        }
    }
    c10::free_cpu(block);
}

c10::DataPtr allocateBlock(size_t n) {
    c10::Allocator* original = g_allocator.load(std::memory_order_acquire);
    if (n == 0 || g_forked.load(std::memory_order_relaxed)) {
        return original->allocate(n);
    }
    const Telling telling;
    const CpuBlockWatch::Counts counts = g_counts.load(std::memory_order_acquire);
    const CpuBlockWatch::Changed changed = g_changed.load(std::memory_order_acquire);
    void* context = g_context.load(std::memory_order_acquire);
    if (counts == nullptr || changed == nullptr || !counts(context)) {
        return original->allocate(n);
    }
    void* block = c10::alloc_cpu(n);  // as c10's default allocator allocates (it throws on OOM)
    {
        std::lock_guard<SpinLock> lock(g_table_lock);
        counted()[block] =
            CountedBlock{static_cast<int64_t>(n), g_watch_number.load(std::memory_order_acquire)};
    }
    changed(context, block, static_cast<int64_t>(n));
    return {block, block, &freeBlock, c10::Device(c10::DeviceType::CPU)};
}

// c10::Allocator::allocate is const in LibTorch 1.13; PyTorch 2.x's is not and adds copy_data.
constexpr bool kConstAllocate = std::is_same_v<decltype(&c10::Allocator::allocate),
                                               c10::DataPtr (c10::Allocator::*)(size_t) const>;

template <bool kConst, typename Base = c10::Allocator>
class CountingAllocator;

template <typename Base>
class CountingAllocator<true, Base> final : public Base {
  public:
    c10::DataPtr allocate(size_t n) const override { return allocateBlock(n); }
    c10::DeleterFnPtr raw_deleter() const override { return &freeBlock; }
};

template <typename Base>
class CountingAllocator<false, Base> final : public Base {
  public:
    c10::DataPtr allocate(size_t n) override { return allocateBlock(n); }
    c10::DeleterFnPtr raw_deleter() const override { return &freeBlock; }
    void copy_data(void* dest, const void* src, std::size_t count) const override {
        // Of the template's type: LibTorch 1.13 compiles neither body of the other version.
        static_cast<const Base*>(g_allocator.load(std::memory_order_acquire))
            ->copy_data(dest, src, count);
    }
};

// Never destroyed: storages made under a watch keep it as their allocator (a resize asks it).
CountingAllocator<kConstAllocate>& countingAllocator() {
    static auto* allocator = new CountingAllocator<kConstAllocate>();
    return *allocator;
}

}  // namespace

CpuBlockWatch::CpuBlockWatch(Counts counts, Changed changed, void* context) {
    std::lock_guard<std::mutex> lock(g_installing);
    c10::Allocator* current = c10::GetCPUAllocator();
    if (g_changed.load() != nullptr || current == &countingAllocator() ||
        g_forked.load(std::memory_order_relaxed)) {
        return;
    }
    // Only c10's default allocator is stood in for: its blocks are c10::alloc_cpu's, which
    // this one makes alike. Another (a library's own) keeps its blocks and c10's reports.
    if (current != c10::GetDefaultCPUAllocator() || current->raw_deleter() == nullptr) {
        return;
    }
    static const bool fork_handler = [] {
        return pthread_atfork(nullptr, nullptr, [] { g_forked.store(true); }) == 0;
    }();
    (void)fork_handler;
    g_allocator.store(current, std::memory_order_release);
    g_deleter.store(current->raw_deleter(), std::memory_order_release);
    g_context.store(context, std::memory_order_release);
    g_watch_number.fetch_add(1, std::memory_order_acq_rel);
    g_changed.store(changed, std::memory_order_release);
    g_counts.store(counts, std::memory_order_release);
    c10::SetCPUAllocator(&countingAllocator());
    active_ = c10::GetCPUAllocator() == &countingAllocator();
    if (!active_) {
        g_counts.store(nullptr, std::memory_order_release);
        g_changed.store(nullptr, std::memory_order_release);
    }
}

CpuBlockWatch::~CpuBlockWatch() {
    if (!active_) {
        return;
    }
    std::lock_guard<std::mutex> lock(g_installing);
    if (c10::GetCPUAllocator() == &countingAllocator()) {
        c10::SetCPUAllocator(g_allocator.load());
    }
    g_counts.store(nullptr, std::memory_order_release);
    g_changed.store(nullptr, std::memory_order_release);
    // A block counted by this watch and freed later is told to none.
    g_watch_number.fetch_add(1, std::memory_order_acq_rel);
    while (g_telling.load(std::memory_order_acquire) != 0) {
    }
}

}  // namespace trainscope
