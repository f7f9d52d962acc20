// SPDX-License-Identifier: Apache-2.0
// The facts every report records of the engine that wrote it.
#pragma once

#include "trainscope/reports.h"

namespace trainscope {

// Adds trainscope_version, torch_version and created (UTC, ISO 8601) to `metadata`.
void addEngineFacts(RunMetadata& metadata);

}  // namespace trainscope
