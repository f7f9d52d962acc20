// SPDX-License-Identifier: Apache-2.0
// A timed step's operations matched to the memory step's. A user's loop need not run the same
// operations every step: a DataLoader's batches arrive through other calls when its workers
// are ahead, a frozen layer is unfrozen, an optimizer makes its state in its first step. Such a
// step is still measured: each call is matched by what it is (its name, and how many calls of
// the same name came before it), not by its position; what matches is timed, what does not is
// counted, and the report says so. The parts of the step are not compared: a timed step runs
// without the module hooks that begin each micro-batch's forward, so a second micro-batch's
// calls are tagged as after the backward pass there.
#pragma once

#include <string>
#include <vector>

#include "records/operation_records.h"
#include "records/recorded_steps.h"

namespace trainscope {

// Adds to `into` each of `names` it lacks, in order.
void addDistinctNames(std::vector<std::string>& into, const std::vector<std::string>& names);

// The times of a step's records, each as it ran.
std::vector<OperationTiming> timingsOf(const std::vector<OperationRecord>& records);

struct StepMatch {
    // aligned[i]: the memory step's operation i as this step ran it.
    std::vector<OperationTiming> aligned;
    int unmatched = 0;  // calls of this step that match none of the memory step's operations
    int missing = 0;    // operations of the memory step that this step did not run
    // Their names, each once, in the order met: what the report names (a DataLoader's batch
    // that arrives from its workers runs aten::set_ and others in the steps that unpickle it).
    std::vector<std::string> unmatched_names;
    std::vector<std::string> missing_names;
    bool same() const { return unmatched == 0 && missing == 0; }
};

StepMatch matchStep(const std::vector<OperationRecord>& memory_step,
                    const std::vector<OperationRecord>& step);

}  // namespace trainscope
