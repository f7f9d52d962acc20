// SPDX-License-Identifier: Apache-2.0
// JSON text for the files and outputs that TrainScope writes (Chrome traces, comparisons).
#pragma once

#include <string>
#include <string_view>

namespace trainscope {

// Appends `text` as a JSON string, quoted and escaped; UTF-8 passes through.
void appendJsonString(std::string& out, std::string_view text);

// A number as JSON ("null" for NaN and infinities, which JSON cannot hold): the shortest text
// that reads back as the same double.
std::string jsonNumber(double value);

}  // namespace trainscope
