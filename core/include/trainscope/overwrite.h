// SPDX-License-Identifier: Apache-2.0
// Whether writing a report may replace an existing file: the writers' and the readers' word for
// it (report_writer.h, report_reading.h), apart from both.
#pragma once

namespace trainscope {

enum class Overwrite { Refuse, Allow };

}  // namespace trainscope
