// SPDX-License-Identifier: Apache-2.0
// Where a device's time went over a span: computing, communicating (NCCL's kernels), copying and
// setting memory, or idle, as HolisticTraceAnalysis' temporal breakdown splits it. Streams run
// at once: each instant counts once, as computation where any computation runs, else
// communication, else memory work, else idle.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace trainscope {

struct DeviceTaskSpan {
    enum class Kind : uint8_t { Computation, Communication, Memory };
    int64_t start_ns = 0, end_ns = 0;
    Kind kind = Kind::Computation;
};

struct DeviceBreakdown {
    int64_t span_ns = 0;  // the span: computation + communication + memory + idle
    int64_t computation_ns = 0, communication_ns = 0, memory_ns = 0, idle_ns = 0;
    // Communication while a computation ran (within computation_ns): the communication hidden
    // behind computing. All communication is communication_ns + overlapped_ns.
    int64_t overlapped_ns = 0;
};

// A kernel's kind by its name: a collective's kernel (NCCL's, RCCL's) is communication.
DeviceTaskSpan::Kind kernelKind(std::string_view name);
// A device task's kind by its name alone, where its type is not at hand (a timeline's TASK
// row): Kineto names every copy "Memcpy ..." and every set "Memset ...", CUDA's and HIP's.
DeviceTaskSpan::Kind deviceTaskKind(std::string_view name);

// The breakdown of [start_ns, end_ns): the tasks are cut to it.
DeviceBreakdown deviceBreakdown(const std::vector<DeviceTaskSpan>& tasks, int64_t start_ns,
                                int64_t end_ns);

}  // namespace trainscope
