// SPDX-License-Identifier: Apache-2.0
// Files read side by side and used in the order given: `show` of a job's timelines and the
// app's Timeline tab of its ranks. A read of a large timeline holds its calls for a moment, so
// at most four run at once, whatever the cores.
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>
#include <future>
#include <thread>
#include <type_traits>
#include <vector>

namespace trainscope {

inline size_t readsAtOnce() {
    return std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
}

// Runs read(items[i], i) on worker threads, readsAtOnce() at a time, and calls
// use(result, i) on the calling thread in the items' order. An exception of read() is thrown
// here when its turn comes (the reads under way finish first).
template <typename Item, typename Read, typename Use>
void readInOrder(const std::vector<Item>& items, Read read, Use use) {
    using Result = std::invoke_result_t<Read, const Item&, size_t>;
    std::deque<std::future<Result>> reading;
    size_t next = 0;
    for (size_t done = 0; done < items.size(); ++done) {
        for (; next < items.size() && reading.size() < readsAtOnce(); ++next)
            reading.push_back(std::async(std::launch::async, read, std::cref(items[next]), next));
        Result result = reading.front().get();
        reading.pop_front();
        use(std::move(result), done);
    }
}

}  // namespace trainscope
