// SPDX-License-Identifier: Apache-2.0
// The memory step's allocated total over time and its blocks, as a run's timeline report holds
// them, with what a what-if asks of them: the calls of a module, the blocks made in a part of
// the step, and the curve's highest total with some of its blocks changed (advise's
// predictions: python/trainscope/advisor/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trainscope/sweep_report.h"
#include "trainscope/timeline_data.h"

namespace trainscope {

struct TimeSpan {
    int64_t start_ns = 0;
    int64_t end_ns = 0;
};

struct CurveBlock {
    int64_t bytes = 0;
    int64_t allocated_ns = 0;
    std::optional<int64_t> released_ns;  // none: alive at the recording's end
};

// `bytes` more (or fewer, negative) allocated from `start_ns` until `end_ns` (none: to the end).
struct CurveChange {
    int64_t start_ns = 0;
    std::optional<int64_t> end_ns;
    int64_t bytes = 0;
};

class MemoryCurve {
  public:
    // The run PREFIX's: its timeline report (the curve, calls and blocks) and its run time
    // report (each module's forward time). Throws trainscope::Error naming what is missing.
    static MemoryCurve ofRun(const std::string& prefix);
    MemoryCurve(TimelineData timeline, std::vector<std::pair<std::string, double>> forward_ms);

    int64_t highest() const;
    // The highest total with each change's bytes added over [start, end).
    int64_t highestWith(const std::vector<CurveChange>& changes) const;
    // The highest total outside the step's part `phase` ("optimizer").
    int64_t highestOutside(const std::string& phase) const;

    // The memory step: the step whose span holds the curve's first sample.
    TimeSpan stepSpan() const;
    // Where part `phase` of the step began first; the step's end when it never did.
    int64_t phaseStart(const std::string& phase) const;
    // The step's part `phase` ("forward", "backward", "optimizer"), as disjoint spans.
    std::vector<TimeSpan> phaseSpans(const std::string& phase) const;

    // The memory step's calls named `name` (or, with `prefix`, whose names begin with it), by
    // start.
    std::vector<TimeSpan> calls(const std::string& name, bool prefix) const;
    // The calls of `module` ("" : the model's own, outside every submodule; with `within`, its
    // submodules' too; with `name`, that call or backward node alone): forward calls, or
    // backward nodes, each as the autograd engine's evaluate_function call around it. By start.
    std::vector<TimeSpan> moduleCalls(const std::string& module, bool within, bool backward,
                                      const std::string& name = {}) const;

    // Every block of the recording: the memory step's, and those made before it that it saw.
    std::vector<CurveBlock> blocks() const;
    // The blocks allocated in part `phase` of the step.
    std::vector<CurveBlock> blocksMadeIn(const std::string& phase) const;
    // The blocks of `bytes` allocated in the forward part whose allocation (or, with
    // `by_release`, whose release) lies in [start_ns, end_ns].
    std::vector<CurveBlock> forwardBlocks(int64_t bytes, bool by_release, int64_t start_ns,
                                          int64_t end_ns) const;

    // The memory step at batch size `batch`, from this curve (the step at batch size `at`) and
    // `other`, the same step at batch size `other_at`: sample by sample, each total on the
    // straight line through the two (what grows with the batch grows in proportion, the rest
    // stays), so that the peak may lie elsewhere in the step than at either batch's. None
    // where the two steps did not allocate and free in the same order (their samples do not
    // pair, nor their top-level calls) or the batch sizes are equal.
    std::optional<int64_t> highestAtBatch(const MemoryCurve& other, int64_t at, int64_t other_at,
                                          int64_t batch) const;
    // The largest batch size whose highest total (as highestAtBatch) is within `budget`: 0
    // where not even 1 is, none where the steps do not pair or nothing grows with the batch.
    std::optional<int64_t> largestBatchWithin(const MemoryCurve& other, int64_t at,
                                              int64_t other_at, int64_t budget) const;

    // The forward time of `module`'s operations (its submodules' included; "" : of every
    // operation in a submodule), from the run time report.
    double forwardMs(const std::string& module) const;

  private:
    // The memory step's calls at the top of each thread, by start.
    std::vector<const TimelineSpan*> topLevelSpans() const;
    // Their names.
    std::vector<std::string> topLevelCalls() const;
    // The highest total in each stretch of the memory step between two bounds of its top-level
    // calls (a call's start or end), the one before the first and after the last included.
    std::vector<int64_t> segmentHighs() const;
    // Each point of the curve as a line over the batch size, through this curve and `other`'s:
    // its samples, or where the two allocated differently, its stretches between top-level
    // calls.
    std::optional<std::vector<LinearFit>> samplesOverBatch(const MemoryCurve& other, int64_t at,
                                                           int64_t other_at) const;
    bool inPhase(int64_t time_ns, const std::string& phase) const;
    TimelineData data_;
    std::vector<std::pair<std::string, double>> forward_ms_;  // (module path, ms) per entry
};

// Spans as disjoint ones, by start: nested calls lie in their parents'.
std::vector<TimeSpan> mergedSpans(std::vector<TimeSpan> spans);

}  // namespace trainscope
