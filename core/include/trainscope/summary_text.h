// SPDX-License-Identifier: Apache-2.0
// The short summary of a run, as text: what trainscope-cli prints on stdout at the end of a
// run, and the Python host after the reports are written; and the pieces of text that the
// CLI's other outputs share with it.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "trainscope/reports.h"

namespace trainscope {

// Either report may be absent (a `memory` or `time` run).
void printSummary(std::ostream& out, const MemoryReport* memory, const TimeReport* time,
                  const TimelineReport* timeline);

std::string formatBytes(int64_t bytes);
// `text` and spaces up to `width`, or one space after a longer text: a column of the output.
std::string padded(std::string text, size_t width);
// `value` through a printf pattern with one double: format("%.3f ms", 1.5).
std::string format(const char* pattern, double value);

// The two meanings of "iteration time", each named: "iteration (wall) 234.657 ms, sum of
// operations 220.100 ms (forward 90.489 ms, backward 125.611 ms, optimizer 4.000 ms), 93.8% of
// the iteration": the forward, the backward, what ran after the backward pass and the optimizer's
// step (those two named where the step ran such operations) each apart. The wall time is the
// measured median iteration; the operations' times usually add up to less (the work between them is
// nobody's). Without a wall time (other tools' reports) the sum alone. Where the operations' times
// are a device's (a GPU trace's), the sum is named so and is no share of the CPU's wall time:
// the two clocks' figures are not divided.
// The GPU and the rank an imported trace names (deviceProperties, distributedInfo): "NVIDIA
// A100-PG509-200, 39.39 GiB, 108 SMs, rank 0 of 2"; "" where it names neither.
std::string recordedOnText(const RunMetadata& metadata);

std::string iterationText(std::optional<double> wall_ms, const PartTimes& times,
                          bool device_times = false);

// What a run time report's operation times are the time of, by its metadata, in lines without
// indent: the GPU's between CUDA events (TrainScope's CUDA runs), the device's work that each
// operation launched or the CPU's spans (an imported trace), with the trace's device work; none
// for TrainScope's CPU runs and other tools' reports.
std::vector<std::string> operationTimesText(const RunMetadata& metadata);

// A rank's collectives in one line, or "" for none: "Communication   4 collectives
// (gloo:all_reduce x4), 1.0 MiB, 52.310 ms; the longest gloo:all_reduce 41.492 ms at 20.1 ms
// into the step".
std::string communicationText(const std::vector<CollectiveEntry>& collectives);

// What torch.compile compiled, in a few lines (none without compilations): how many, how long
// and when, each graph break and recompilation with where and why, and `compiled_steps` (the
// metadata's note on observed steps that compiled).
void printCompilations(std::ostream& out, const std::vector<Compilation>& compilations,
                       const std::string& compiled_steps);
// The compiled regions' kernels (none without kernels and without a note).
KernelTotals kernelTotals(const TimeReport& time);
void printKernels(std::ostream& out, const KernelTotals& kernels);

}  // namespace trainscope
