// SPDX-License-Identifier: Apache-2.0
#include "trainscope/engine.h"

#include <torch/version.h>

#include <ctime>

namespace trainscope {

std::string version() {
    return TRAINSCOPE_VERSION;
}

std::string torchVersion() {
    return TORCH_VERSION;
}

void addEngineFacts(RunMetadata& metadata) {
    const std::time_t now = std::time(nullptr);
    char created[32];
    std::strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    metadata["trainscope_version"] = version();
    metadata["torch_version"] = torchVersion();
    metadata["created"] = created;
}

}  // namespace trainscope
