// SPDX-License-Identifier: Apache-2.0
// A CUDA memory snapshot (`torch.cuda.memory._dump_snapshot`, or the CPU profile that
// `torch.cuda._memory_viz._profile_to_snapshot` turns into one) as TrainScope's reports: the
// peak replayed from its trace (what was alive at the trace's start, from the segments at its
// end with the trace undone, plus the highest rise), the blocks alive at the peak by line and
// category, and the memory curve. docs/importing.md says what is read and what is not.
#pragma once

#include <string>

#include "imports/pickle_reader.h"
#include "trainscope/imported_file.h"

namespace trainscope {

// Throws trainscope::Error when the pickle is not a memory snapshot (no segments and device
// traces) or holds no memory. `source` names the file in the reports' metadata.
ImportedRun importMemorySnapshot(const PickleData& snapshot, const std::string& source);

}  // namespace trainscope
