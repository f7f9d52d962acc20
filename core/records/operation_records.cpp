// SPDX-License-Identifier: Apache-2.0
#include "records/operation_records.h"

#include <algorithm>

namespace trainscope {

bool isCollectiveName(std::string_view name) {
    for (std::string_view backend : {"gloo:", "nccl:", "mpi:", "ucc:"}) {
        if (name.substr(0, backend.size()) == backend) {
            return true;
        }
    }
    return false;
}

int operationOfSequence(const std::vector<OperationRecord>& operations, int64_t sequence_nr) {
    if (sequence_nr < 0) {
        return -1;
    }
    const auto seq = static_cast<uint64_t>(sequence_nr);
    auto it = std::upper_bound(
        operations.begin(), operations.end(), seq,
        [](uint64_t s, const OperationRecord& record) { return s < record.seq_begin; });
    if (it == operations.begin()) {
        return -1;
    }
    --it;
    return seq < it->seq_end ? static_cast<int>(it - operations.begin()) : -1;
}

}  // namespace trainscope
