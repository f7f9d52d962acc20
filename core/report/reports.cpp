// SPDX-License-Identifier: Apache-2.0
#include "trainscope/reports.h"

#include <numeric>

#include "trainscope/import_notes.h"
#include "trainscope/report_format.h"

namespace trainscope {
namespace {

template <typename Container, typename Field>
auto sumOf(const Container& items, Field field) {
    using Value = decltype(field(*items.begin()));
    return std::accumulate(items.begin(), items.end(), Value{},
                           [&](Value total, const auto& item) { return total + field(item); });
}

}  // namespace

int64_t MemoryReport::weightBytes() const {
    return sumOf(weights, [](const WeightEntry& w) { return w.size_bytes; });
}
int64_t MemoryReport::gradientBytes() const {
    return sumOf(weights, [](const WeightEntry& w) { return w.grad_size_bytes; });
}
int64_t MemoryReport::activationBytes() const {
    return sumOf(activations, [](const ActivationEntry& a) { return a.size_bytes; });
}
bool MemoryReport::namesWeights() const {
    return trainscope::namesWeights(!weights.empty(),
                                    metadata.count(report_format::kImportedFromKey) > 0);
}
const char* stepPartName(StepPart part) {
    switch (part) {
        case StepPart::AfterBackward:
            return report_format::kPartAfterBackward;
        case StepPart::Optimizer:
            return report_format::kPartOptimizer;
        case StepPart::Recomputed:
            return report_format::kPartRecomputed;
        case StepPart::Forward:
            break;
    }
    return "forward";
}

std::optional<StepPart> stepPartNamed(const std::string& name) {
    for (StepPart part :
         {StepPart::Forward, StepPart::AfterBackward, StepPart::Optimizer, StepPart::Recomputed})
        if (name == stepPartName(part)) {
            return part;
        }
    return std::nullopt;
}

PartTimes TimeReport::partTimes() const {
    PartTimes times;
    for (const RunTimeEntry& e : entries)
        times.add(e.part, e.forward_ms, e.backward_ms.value_or(0.0));
    return times;
}

}  // namespace trainscope
