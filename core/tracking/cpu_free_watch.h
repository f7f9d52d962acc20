// SPDX-License-Identifier: Apache-2.0
// Frees of CPU blocks that c10 does not report to the memory meter. c10's CPU allocator reports
// a free only on a thread whose profiler slot holds the meter; a block that another thread lets
// go of last is freed unseen (Gloo's worker ending a collective of FSDP2 or DDP, which holds the
// collective's buffers until then, or a thread of the user's), and the meter would count it
// until its address is used again. While a watch lives, c10's CPU allocator is one that hands
// out the allocator's own blocks, unchanged, with a deleter that tells the watch of each free
// before the block goes back; after it, the blocks it handed out go back as they would have.
#pragma once

namespace trainscope {

class CpuFreeWatch {
  public:
    // `freed(context, block)` is called as each block handed out while the watch lives for
    // which `watched(context)` said yes (asked on the allocating thread) is freed, on the thread
    // that frees it; never after the watch is gone. One watch at a time: a second one, or a CPU
    // allocator that c10 would not let us stand in for (one set with a higher priority), leaves
    // this one inactive.
    using Watched = bool (*)(void* context);
    using Freed = void (*)(void* context, void* block);
    CpuFreeWatch(Watched watched, Freed freed, void* context);
    ~CpuFreeWatch();
    CpuFreeWatch(const CpuFreeWatch&) = delete;
    CpuFreeWatch& operator=(const CpuFreeWatch&) = delete;

    bool active() const { return active_; }

  private:
    bool active_ = false;
};

}  // namespace trainscope
