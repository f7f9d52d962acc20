// SPDX-License-Identifier: Apache-2.0
#include "analysis/device_breakdown.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace trainscope {

DeviceTaskSpan::Kind kernelKind(std::string_view name) {
    std::string lower(name.substr(0, 64));
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower.find("nccl") != std::string::npos || lower.find("rccl") != std::string::npos
               ? DeviceTaskSpan::Kind::Communication
               : DeviceTaskSpan::Kind::Computation;
}

DeviceTaskSpan::Kind deviceTaskKind(std::string_view name) {
    if (name.rfind("Memcpy ", 0) == 0 || name.rfind("Memset ", 0) == 0) {
        return DeviceTaskSpan::Kind::Memory;
    }
    return kernelKind(name);
}

DeviceBreakdown deviceBreakdown(const std::vector<DeviceTaskSpan>& tasks, int64_t start_ns,
                                int64_t end_ns) {
    DeviceBreakdown out;
    if (end_ns <= start_ns) {
        return out;
    }
    out.span_ns = end_ns - start_ns;
    // Each task's start (+1) and end (-1) for its kind, in time order.
    std::vector<std::pair<int64_t, int>> edges;  // (time, kind * 2 + (end ? 1 : 0))
    edges.reserve(tasks.size() * 2);
    for (const DeviceTaskSpan& t : tasks) {
        const int64_t from = std::max(t.start_ns, start_ns), to = std::min(t.end_ns, end_ns);
        if (from < to) {
            edges.push_back({from, static_cast<int>(t.kind) * 2});
            edges.push_back({to, static_cast<int>(t.kind) * 2 + 1});
        }
    }
    std::sort(edges.begin(), edges.end());
    int64_t running[3] = {0, 0, 0};
    int64_t* figure[3] = {&out.computation_ns, &out.communication_ns, &out.memory_ns};
    int64_t at = start_ns;
    for (const auto& [time, edge] : edges) {
        const int busy = running[0] > 0 ? 0 : running[1] > 0 ? 1 : running[2] > 0 ? 2 : -1;
        (busy >= 0 ? *figure[busy] : out.idle_ns) += time - at;
        if (running[0] > 0 && running[1] > 0) {
            out.overlapped_ns += time - at;
        }
        at = time;
        running[edge / 2] += edge % 2 == 0 ? 1 : -1;
    }
    out.idle_ns += end_ns - at;
    return out;
}

}  // namespace trainscope
