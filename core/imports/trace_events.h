// SPDX-License-Identifier: Apache-2.0
// What TrainScope reads of a torch.profiler trace (the Chrome-trace JSON that
// `export_chrome_trace` and `tensorboard_trace_handler` write, also gzipped): its operations,
// Python calls, memory events, forward-to-backward flows and GPU activity, compactly, each text
// kept once. Read as a stream (RapidJSON's SAX reader over inflated chunks): the file is never
// in memory whole. docs/importing.md says what is read and what is not.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "imports/byte_source.h"
#include "trainscope/imported_file.h"

namespace trainscope {

// Each distinct text once; -1 is no text.
class TraceTexts {
  public:
    int32_t add(const std::string& text);
    const std::string& operator[](int32_t id) const;
    size_t size() const { return texts_.size(); }

  private:
    std::unordered_map<std::string, int32_t> ids_;
    std::vector<const std::string*> texts_;
};

// A complete event (`ph: X`): an operation, an annotation, a kernel. Times in ns of the trace's
// clock (its `ts` in µs, exactly).
struct TraceSpan {
    enum class Kind : uint8_t {
        Operation,   // cpu_op (or the legacy profiler's events, which have no category)
        Annotation,  // user_annotation: record_function, the optimizer's, ProfilerStep#N
        Kernel,      // kernel, gpu_memcpy, gpu_memset: work on a device stream
        Runtime,     // cuda_runtime, cuda_driver: a launch on the CPU
    };
    int64_t start_ns = 0, end_ns = 0;
    int64_t pid = 0, tid = 0;
    int64_t sequence = -1;  // autograd's sequence number
    // A launch's and its device work's `correlation`: equal for the two (-1: none).
    int64_t correlation = -1;
    int32_t name = -1;
    int32_t shapes = -1, dtypes = -1;  // "8,16;\r\n128,64" (the timeline's form)
    Kind kind = Kind::Operation;
    // Device work's kind, as its category says.
    enum class Work : uint8_t { Kernel, Memcpy, Memset };
    Work work = Work::Kernel;
    int32_t collective = -1;  // a collective's kernel (NCCL's): its TraceCollective's index
};

// What a collective's kernel says of it (NCCL's args, 2023 on): "allreduce", its input's
// elements and their type, and the group's size.
struct TraceCollective {
    int32_t name = -1;
    int64_t elements = 0;  // In msg nelems
    int32_t dtype = -1;    // "Float", "BFloat16"
    int64_t group_size = 0;
    int32_t process_group = -1;  // "default_pg (0): ranks [0, 1]", or ""
};

// A Python call recorded by `with_stack` (`python_function`): "file.py(12): forward", or a
// module's call "nn.Module: Linear_0", and the caller's line ("CallFrom": "file.py:30").
struct TracePythonCall {
    int64_t start_ns = 0, end_ns = 0;
    int64_t pid = 0, tid = 0;
    int32_t name = -1;
    int32_t call_from = -1;
};

// An allocation (bytes > 0) or free (< 0) that `profile_memory` recorded (`[memory]`), with the
// allocator's totals after it.
struct TraceMemoryEvent {
    int64_t time_ns = 0;
    int64_t pid = 0, tid = 0;
    int64_t bytes = 0;
    int64_t total_allocated = 0;
    int64_t total_reserved = 0;
    uint64_t address = 0;
    int64_t device_type = 0;  // 0: CPU, 1: CUDA
    int64_t device_id = -1;
};

// One end of a forward-to-backward flow (`fwdbwd`): its start at the forward operation, its
// finish at the backward node, both found by thread and time.
struct TraceFlow {
    int64_t id = 0;
    int64_t time_ns = 0;
    int64_t pid = 0, tid = 0;
    bool start = false;
};

// A GPU the trace names (`deviceProperties`).
struct TraceDevice {
    int64_t id = -1;
    std::string name;
    int64_t memory_bytes = 0;     // totalGlobalMem
    int64_t multiprocessors = 0;  // numSms
};

struct TraceEvents {
    TraceTexts texts;
    std::vector<TraceSpan> spans;
    std::vector<TracePythonCall> python_calls;
    std::vector<TraceMemoryEvent> memory;
    std::vector<TraceFlow> flows;
    std::map<std::pair<int64_t, int64_t>, std::string> thread_names;  // (pid, tid)
    int64_t base_ns = 0;  // baseTimeNanoseconds: the epoch time of ts 0 (0: not said)
    // `distributedInfo`: the rank that recorded it, of how many (-1, 0: not said).
    int64_t rank = -1, world_size = 0;
    std::vector<TraceDevice> devices;
    std::vector<TraceCollective> collectives;
    // What else the trace held, by category: read past, counted for the report's note.
    std::map<std::string, int64_t> skipped;
    bool torch_profiler = false;  // it has the marks of torch.profiler (not another tool's)
    int64_t events = 0;
};

// Throws trainscope::Error, one line, for a file that is not JSON, is cut off, is another
// tool's trace, or holds an event that cannot be (a duration that is not a number); Cancelled
// when `cancel` becomes true.
TraceEvents readTraceEvents(BufferedBytes& bytes, const ImportProgress& progress = {},
                            const std::atomic<bool>* cancel = nullptr);

}  // namespace trainscope
