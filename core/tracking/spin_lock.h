// SPDX-License-Identifier: Apache-2.0
// A lock for the paths every allocation takes (the meter's events, the CPU allocator's table of
// block sizes): held for a few instructions and almost never contended, so a spinlock, whose
// release is a plain store, costs less than a mutex.
#pragma once

#include <atomic>

namespace trainscope {

class SpinLock {
  public:
    void lock() {
        while (flag_.test_and_set(std::memory_order_acquire)) {
        }
    }
    void unlock() { flag_.clear(std::memory_order_release); }

  private:
    std::atomic_flag flag_ = ATOMIC_FLAG_INIT;
};

}  // namespace trainscope
