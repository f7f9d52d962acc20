// SPDX-License-Identifier: Apache-2.0
// The batch-size sweep: the same model profiled at several batch sizes, a line fitted to its
// peak memory, activation memory and iteration time, and from those lines the peak and the
// throughput at any batch size and the largest batch within a memory budget (Skyline's
// prediction, with the fit's quality beside it and a measurement to check it).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trainscope/profiler.h"
#include "trainscope/run_config.h"
#include "trainscope/sweep_report.h"

namespace trainscope {

struct SweepPlan {
    RunConfig config;
    // Empty: automatic, from defaultBatchSizes() on, doubling while the line fitted so far
    // predicts the next within a quarter of the memory budget (at most 10 sizes, and
    // automatic_time of measuring), so that the points reach toward the prediction.
    std::vector<int64_t> batch_sizes;
    // How long an automatic sweep may go on measuring larger sizes.
    std::chrono::seconds automatic_time{60};
    std::optional<int64_t> memory_budget;  // bytes; empty: the device's (see memoryBudget)
    bool verify = false;
    std::string output;  // PREFIX: writes PREFIX.sweep.sqlite
    Overwrite overwrite = Overwrite::Refuse;
};

// The batch sizes an automatic sweep starts from: half, the same and twice the configured
// batch (the first dimension of the first input), 1, 2 and 4 when that is 1.
std::vector<int64_t> defaultBatchSizes(int64_t configured);

// The budget when none is given: on CUDA the device memory free before the run (its total
// minus what the runtime and other processes hold), on the CPU the available RAM
// (MemAvailable). `source` says which.
int64_t memoryBudget(Device device, std::string* source);

// Sweep progress: which batch size (1-based of `of`), and the profiler's progress inside it.
struct SweepProgress {
    int64_t batch_size = 0;
    int index = 0;
    int of = 0;
    bool verifying = false;
    Progress run;
};
using SweepProgressCallback = std::function<void(const SweepProgress&)>;

// Profiles each batch size (memory pass, then time pass), fits, finds the largest batch within
// the budget, measures it with `verify`, and writes PREFIX.sweep.sqlite. Throws
// trainscope::Error for bad input (with the batch size it happened at) and Cancelled when
// `cancel` is set; nothing is written then.
SweepReport runSweep(const SweepPlan& plan, const SweepProgressCallback& progress = {},
                     const std::atomic<bool>* cancel = nullptr);

// The configuration the sweep measured with, from its report's metadata. Throws
// trainscope::Error for a report that does not say (one of another version) or says nonsense.
RunConfig sweepConfig(const SweepReport& report);

// Measures `batch` as the sweep measured its sizes (a memory pass, then a time pass): a
// prediction checked by running it. Out of memory is a point with out_of_memory set; throws
// trainscope::Error as runSweep does, and Cancelled when `cancel` is set.
SweepPoint verifyBatch(const SweepReport& report, int64_t batch,
                       const SweepProgressCallback& progress = {},
                       const std::atomic<bool>* cancel = nullptr);
}  // namespace trainscope
