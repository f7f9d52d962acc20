// SPDX-License-Identifier: Apache-2.0
// What the operation observer records of a step, as plain data: each top-level operation with
// its times, frames and module, the step's collectives, and the inputs of each call. Analysis
// reads these (core/analysis/), never the observer or LibTorch.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trainscope/reports.h"

namespace trainscope {

struct OperationRecord {
    std::string name;
    uint64_t seq_begin = 0;  // [seq_begin, seq_end): sequence numbers this operation handed out
    uint64_t seq_end = 0;
    double forward_ms = 0.0;
    double backward_ms = 0.0;
    // Where forward_ms and backward_ms are device times (an imported GPU trace): the CPU's.
    double cpu_forward_ms = 0.0;
    double cpu_backward_ms = 0.0;
    bool has_backward = false;
    int trace = -1;  // its frames: a number into the step's StackTraces (-1: none captured)
    // The interpreter's module hierarchy ("TOP(Net)::forward", "fc1(Linear)::forward", ...).
    std::vector<std::string> module_hierarchy;
    std::string module_path;  // from the host's module source (eager code), as PyTorch names it
    // Eager steps: where in the step the operation ran. Archive runs record the forward only.
    // Recompute: run again by an activation checkpoint's backward; its time is backward time,
    // and the checkpoint's operation (`recompute_of`) no longer holds it.
    using Part = StepPart;
    Part part = Part::Forward;
    int recompute_of = -1;
    std::vector<int> weights_read;  // indices into the observed weights, in first-read order
};

// A collective of the step, as its communication backend ran it: Gloo's `gloo:all_reduce` on
// its worker thread (waiting for the other ranks included), NCCL's `nccl:all_reduce` where it
// is launched. `start_ms` is from the step's start.
struct CollectiveRecord {
    std::string name;
    double start_ms = 0.0;
    double ms = 0.0;
    int64_t bytes = 0;  // of its tensors, when the observer had the inputs (memory step)
    // A GPU trace's NCCL kernel: its process group as the trace names it ("" where it does not)
    // and its size (0: not known), and how long computation ran on the device beside it.
    std::string process_group;
    int64_t group_size = 0;
    std::optional<double> overlapped_ms;
};

// Whether `name` is a communication backend's span ("gloo:", "nccl:", "mpi:", "ucc:").
bool isCollectiveName(std::string_view name);

// The inputs of one operation call, as the timeline report lists them: numbers into the
// recorded input texts, each text kept once.
struct CallInputs {
    TextId name = 0;
    TextId shapes = 0;  // "4,16;\r\n16,16;\r\n" (empty items: not a tensor)
    TextId dtypes = 0;  // "float;\r\nfloat;\r\nScalar"
};

// The index of the operation whose sequence range holds `sequence_nr` (records in execution
// order, so their ranges ascend), or -1: the link from a backward node to its forward operation.
int operationOfSequence(const std::vector<OperationRecord>& operations, int64_t sequence_nr);

}  // namespace trainscope
