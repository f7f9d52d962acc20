// SPDX-License-Identifier: Apache-2.0
// The CPU blocks the memory meter counts, told to it by the allocator itself. While a watch
// lives, c10's CPU allocator is one of ours: on a thread whose blocks the meter counts, it
// allocates as c10's default allocator does (c10::alloc_cpu) and tells the watch of the block
// and its size, and of its free on whichever thread frees it, before the block goes back. c10's
// own reporter is left out of that path: it keeps every block's size in an unordered_map under a
// mutex, which cost as much as the rest of the meter on a step of many small operations, and it
// reports a free only on a thread whose profiler slot holds the meter (a collective's buffers
// that Gloo's worker lets go of last went unseen). On every other thread, and under any other
// CPU allocator, blocks come from the allocator stood in for, unchanged (c10 reports them to
// whoever holds that thread's slot: torch.profiler, where it displaced the meter). After the
// watch, the blocks it handed out go back as they would have.
#pragma once

#include <cstdint>

namespace trainscope {

class CpuBlockWatch {
  public:
    // `counts(context)` is asked on the allocating thread; for a block it said yes to,
    // `changed(context, block, bytes)` is called with its size as it is allocated, and with
    // minus its size as it is freed, on the thread that frees it; never after the watch is
    // gone, nor for a block of an earlier watch. One watch at a time: a second one, or a CPU
    // allocator other than c10's default (one set by another library, or with a higher
    // priority), leaves this one inactive.
    using Counts = bool (*)(void* context);
    using Changed = void (*)(void* context, void* block, int64_t bytes);
    CpuBlockWatch(Counts counts, Changed changed, void* context);
    ~CpuBlockWatch();
    CpuBlockWatch(const CpuBlockWatch&) = delete;
    CpuBlockWatch& operator=(const CpuBlockWatch&) = delete;

    bool active() const { return active_; }

  private:
    bool active_ = false;
};

}  // namespace trainscope
