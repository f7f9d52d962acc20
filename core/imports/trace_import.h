// SPDX-License-Identifier: Apache-2.0
// A torch.profiler trace as TrainScope's records (the recorded steps, the memory record), from
// which analysis makes the reports as it does for a run of its own: each top-level operation of
// the step with its backward time (through the trace's fwdbwd flows), its user line (from the
// Python calls around it) and its module (the nn.Module calls), the memory curve and what is
// alive at the peak. docs/importing.md says what is read and what is not.
#pragma once

#include "imports/trace_events.h"
#include "trainscope/imported_file.h"

namespace trainscope {

// Throws trainscope::Error when the trace holds no operation. `source` names the file in the
// reports' metadata.
ImportedRun importTrace(TraceEvents events, const std::string& source);

}  // namespace trainscope
