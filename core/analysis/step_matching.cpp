// SPDX-License-Identifier: Apache-2.0
#include "analysis/step_matching.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace trainscope {
namespace {

using Identity = std::pair<std::string, int>;

// Each operation's identity: its name, and its occurrence among the calls of that name.
std::vector<Identity> identities(const std::vector<OperationRecord>& operations) {
    std::map<std::string, int> seen;
    std::vector<Identity> result;
    result.reserve(operations.size());
    for (const OperationRecord& op : operations)
        result.emplace_back(op.name, seen[op.name]++);
    return result;
}

}  // namespace

void addDistinctNames(std::vector<std::string>& into, const std::vector<std::string>& names) {
    for (const std::string& name : names)
        if (std::find(into.begin(), into.end(), name) == into.end()) {
            into.push_back(name);
        }
}

std::vector<OperationTiming> timingsOf(const std::vector<OperationRecord>& records) {
    std::vector<OperationTiming> timings;
    timings.reserve(records.size());
    for (const OperationRecord& op : records)
        timings.push_back({op.forward_ms, op.backward_ms, op.has_backward, true, op.cpu_forward_ms,
                           op.cpu_backward_ms});
    return timings;
}

StepMatch matchStep(const std::vector<OperationRecord>& memory_step,
                    const std::vector<OperationRecord>& step) {
    StepMatch match;
    bool same_order = step.size() == memory_step.size();
    for (size_t i = 0; same_order && i < step.size(); ++i)
        same_order = step[i].name == memory_step[i].name;
    if (same_order) {
        match.aligned = timingsOf(step);
        return match;
    }
    std::map<Identity, size_t> index;
    const std::vector<Identity> memory_identities = identities(memory_step);
    for (size_t i = 0; i < memory_identities.size(); ++i)
        index.emplace(memory_identities[i], i);
    match.aligned.resize(memory_step.size());
    const std::vector<Identity> step_identities = identities(step);
    for (size_t k = 0; k < step.size(); ++k) {
        const auto found = index.find(step_identities[k]);
        if (found == index.end()) {
            ++match.unmatched;
            addDistinctNames(match.unmatched_names, {step[k].name});
        } else {
            const OperationRecord& op = step[k];
            match.aligned[found->second] = {op.forward_ms, op.backward_ms,    op.has_backward,
                                            true,          op.cpu_forward_ms, op.cpu_backward_ms};
        }
    }
    for (size_t i = 0; i < match.aligned.size(); ++i)
        if (!match.aligned[i].ran) {
            ++match.missing;
            addDistinctNames(match.missing_names, {memory_step[i].name});
        }
    return match;
}

}  // namespace trainscope
