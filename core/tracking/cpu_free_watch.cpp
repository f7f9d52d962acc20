// SPDX-License-Identifier: Apache-2.0
#include "tracking/cpu_free_watch.h"

#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>

#include <atomic>
#include <mutex>
#include <type_traits>

namespace trainscope {
namespace {

// The allocator stood in for and its deleter, kept once known: blocks handed out under a watch
// live on after it, and go back through them.
std::atomic<c10::Allocator*> g_allocator{nullptr};
std::atomic<c10::DeleterFnPtr> g_deleter{nullptr};
// The watch that is told of frees now (one at a time).
std::atomic<CpuFreeWatch::Watched> g_watched{nullptr};
std::atomic<CpuFreeWatch::Freed> g_freed{nullptr};
std::atomic<void*> g_context{nullptr};
// Frees being told now: a watch that ends waits for them, so that none reaches it after.
std::atomic<int> g_telling{0};
std::mutex g_installing;

void deleteWatched(void* block) {
    // Told before the block goes back: no other block can be made at its address before.
    g_telling.fetch_add(1, std::memory_order_acq_rel);
    if (const CpuFreeWatch::Freed freed = g_freed.load(std::memory_order_acquire)) {
        freed(g_context.load(std::memory_order_acquire), block);
    }
    g_telling.fetch_sub(1, std::memory_order_acq_rel);
    g_deleter.load(std::memory_order_acquire)(block);
}

c10::DataPtr watched(c10::DataPtr block) {
    // A block the watch is asked to follow, of the allocator's usual kind (its context the
    // block itself, its own deleter), gets the watching deleter; any other is handed out as it
    // is (a thread pool's temporaries, say, which no meter counts).
    const c10::DeleterFnPtr deleter = g_deleter.load(std::memory_order_acquire);
    const CpuFreeWatch::Watched follow = g_watched.load(std::memory_order_acquire);
    if (deleter != nullptr && block.get() == block.get_context() && follow != nullptr &&
        follow(g_context.load(std::memory_order_acquire))) {
        (void)block.compare_exchange_deleter(deleter, &deleteWatched);
    }
    return block;
}

// c10::Allocator::allocate is const in LibTorch 1.13; PyTorch 2.x's is not and adds copy_data.
constexpr bool kConstAllocate = std::is_same_v<decltype(&c10::Allocator::allocate),
                                               c10::DataPtr (c10::Allocator::*)(size_t) const>;

template <bool kConst, typename Base = c10::Allocator>
class WatchingAllocator;

template <typename Base>
class WatchingAllocator<true, Base> final : public Base {
  public:
    c10::DataPtr allocate(size_t n) const override { return watched(original()->allocate(n)); }
    c10::DeleterFnPtr raw_deleter() const override { return &deleteWatched; }

  private:
    // Of the template's type: LibTorch 1.13 compiles neither body of the other version.
    static Base* original() { return g_allocator.load(std::memory_order_acquire); }
};

template <typename Base>
class WatchingAllocator<false, Base> final : public Base {
  public:
    c10::DataPtr allocate(size_t n) override { return watched(original()->allocate(n)); }
    c10::DeleterFnPtr raw_deleter() const override { return &deleteWatched; }
    void copy_data(void* dest, const void* src, std::size_t count) const override {
        original()->copy_data(dest, src, count);
    }

  private:
    // Of the template's type: LibTorch 1.13 compiles neither body of the other version.
    static Base* original() { return g_allocator.load(std::memory_order_acquire); }
};

// Never destroyed: storages made under a watch keep it as their allocator (a resize asks it).
WatchingAllocator<kConstAllocate>& watchingAllocator() {
    static auto* allocator = new WatchingAllocator<kConstAllocate>();
    return *allocator;
}

}  // namespace

CpuFreeWatch::CpuFreeWatch(Watched watched, Freed freed, void* context) {
    std::lock_guard<std::mutex> lock(g_installing);
    c10::Allocator* current = c10::GetCPUAllocator();
    if (g_freed.load() != nullptr || current == &watchingAllocator()) {
        return;
    }
    const c10::DeleterFnPtr deleter = current->raw_deleter();
    c10::Allocator* known = g_allocator.load();
    if (deleter == nullptr || (known != nullptr && known != current)) {
        return;  // an allocator whose blocks' deleter is not known, or another than before
    }
    g_allocator.store(current, std::memory_order_release);
    g_deleter.store(deleter, std::memory_order_release);
    g_context.store(context, std::memory_order_release);
    g_watched.store(watched, std::memory_order_release);
    g_freed.store(freed, std::memory_order_release);
    c10::SetCPUAllocator(&watchingAllocator());
    active_ = c10::GetCPUAllocator() == &watchingAllocator();
    if (!active_) {
        g_watched.store(nullptr, std::memory_order_release);
        g_freed.store(nullptr, std::memory_order_release);
    }
}

CpuFreeWatch::~CpuFreeWatch() {
    if (!active_) {
        return;
    }
    std::lock_guard<std::mutex> lock(g_installing);
    if (c10::GetCPUAllocator() == &watchingAllocator()) {
        c10::SetCPUAllocator(g_allocator.load());
    }
    g_watched.store(nullptr, std::memory_order_release);
    g_freed.store(nullptr, std::memory_order_release);
    while (g_telling.load(std::memory_order_acquire) != 0) {
    }
}

}  // namespace trainscope
