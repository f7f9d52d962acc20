// SPDX-License-Identifier: Apache-2.0
// The engine that writes the reports: its version, the LibTorch it runs on, and the facts every
// report records of it.
#pragma once

#include <string>

#include "trainscope/reports.h"

namespace trainscope {

std::string version();
std::string torchVersion();

// Adds trainscope_version, torch_version and created (UTC, ISO 8601) to `metadata`.
void addEngineFacts(RunMetadata& metadata);

}  // namespace trainscope
