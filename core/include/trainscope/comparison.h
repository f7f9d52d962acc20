// SPDX-License-Identifier: Apache-2.0
// Two runs compared: what changed in time and memory, for the whole iteration, per module,
// per operation and per parameter. The app's Compare view and `trainscope-cli compare` show
// the same Comparison; docs/comparison.md describes the matching, the noise rule and the
// CLI's JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trainscope/reports.h"
#include "trainscope/run_files.h"

namespace trainscope {

// A compared figure. Times are in ms, sizes in bytes.
enum class Figure {
    IterationTime,  // the measured iteration's wall time
    ForwardTime,
    BackwardTime,
    AfterBackwardTime,  // operations after the backward pass (gradient clipping...)
    OptimizerTime,      // the optimizer's step
    ActivationBytes,
    WeightBytes,
    GradientBytes,
    PeakBytes,  // the peak, then what was allocated at its instant
    PeakWeights,
    PeakGradients,
    PeakOptimizerState,
    PeakActivations,
    PeakOther,
};
bool isTime(Figure figure);
// Its name in the CLI's output and JSON: "forward_ms", "activation_bytes", ...
const char* figureKey(Figure figure);

struct FigureChange {
    Figure figure = Figure::ForwardTime;
    std::optional<double> base, changed;  // none: that run has no such figure
    // Times: each run's fastest and slowest measured iteration (for a sum over operations, the
    // sums of their fastest and of their slowest). None for memory, which is exact, and for
    // other tools' reports, which keep no spread.
    std::optional<Spread> base_spread, new_spread;
    // The smallest difference that counts. Times: 1% of the base run's iteration, since a
    // smaller change cannot move the iteration by more, and a rerun's tiny operations differ
    // by a few microseconds (timer and scheduling noise). Memory: 0.
    double min_change = 0.0;

    bool compared() const { return base.has_value() && changed.has_value(); }
    double delta() const { return compared() ? *changed - *base : 0.0; }
    std::optional<double> percent() const;  // none when not compared or the base is 0
    // Whether the difference is told from noise. Memory: any difference. Time: larger than
    // min_change, and the two runs' spreads do not overlap (the new run's fastest iteration
    // is slower than the base's slowest, or the reverse; without spreads, the first alone).
    bool significant() const;
};

enum class ItemKind { Total, Module, Operation, Weight };
enum class Presence { Both, Added, Removed };  // Added: in the new run only

// Which report an item's entry ids are in (for its frames): run_time_entries.id for operations
// matched on the run time reports, activation_entries.id when only memory reports were given,
// weight_entries.id for parameters.
enum class EntryKind { None, RunTime, Activation, Weight };

struct ComparedItem {
    ItemKind kind = ItemKind::Total;
    Presence presence = Presence::Both;
    // Total: "iteration", "forward", ... Module: its path. Operation: "module · op #k" (k counts
    // the op's calls in that module, from 1). Weight: the parameter's name.
    std::string name;
    std::string module_path;  // modules, operations, weights; empty: outside any submodule
    std::string operation;    // operations: "aten::linear"
    std::string location;     // operations outside modules: their innermost project line
    EntryKind entry_kind = EntryKind::None;
    int64_t base_entry = 0, new_entry = 0;  // 0: not on that side
    std::vector<FigureChange> figures;

    const FigureChange* figure(Figure which) const;
    // The time figures added (forward + backward, or the iteration), and the memory figure
    // the item is sorted and shown by (activations, weights + gradients, the peak...).
    FigureChange time() const;
    FigureChange memory() const;
};

struct Comparison {
    RunReports base, changed;
    std::string base_model, new_model;  // metadata `model` (empty for other tools' reports)
    // Totals, then modules, then operations, then weights; each kind by |Δ time|, then
    // |Δ memory|.
    std::vector<ComparedItem> items;
    int64_t matched_operations = 0, added_operations = 0, removed_operations = 0;
    // What could not be compared, and why ("the new run has no run time report", ...).
    std::vector<std::string> notes;
};

// Reads both runs' reports and compares them. Throws trainscope::Error for an unreadable or
// foreign file, two runs of different models, or two runs with nothing in common.
Comparison compareRuns(const RunReports& base, const RunReports& changed);

// The CI gate: an increase counts when it is significant (beyond the noise) and larger than the
// limit, in percent of the base. Items on one side only count in their module and the totals.
struct GateLimits {
    // 25%: on a shared machine whole runs of the same model differ by more than 10% now and
    // then (see docs/comparison.md); a dedicated runner can ask for less.
    double max_time_increase_pct = 25.0;
    double max_memory_increase_pct = 0.0;  // memory is exact: any increase, by default
};

struct GateViolation {
    const ComparedItem* item = nullptr;
    FigureChange change;
};

std::vector<GateViolation> gateViolations(const Comparison& comparison, const GateLimits& limits);

// What the Compare view reads of each side besides (throws trainscope::Error as above):
// An item's project frames (innermost first) from the report its entry is in, and the project
// root that report recorded (empty when none).
struct EntryFrames {
    StackTrace frames;
    std::string project_root;
};
EntryFrames readEntryFrames(const RunReports& run, EntryKind kind, int64_t entry_id);

// A timeline's allocated memory over time (its main component's MEMORY_RECORD rows), with
// timestamps counted from the first sample.
std::vector<MemorySample> readMemoryCurve(const std::string& timeline_path);

}  // namespace trainscope
