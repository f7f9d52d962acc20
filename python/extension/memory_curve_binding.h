// SPDX-License-Identifier: Apache-2.0
// _trainscope.MemoryCurve: the engine's memory curve of a run (trainscope/memory_curve.h), which
// advise's what-ifs are predicted on. Times are nanoseconds; a span is (start, end), a block
// (bytes, allocated, released or None), a change (start, end or None, bytes).
#pragma once

#include <pybind11/pybind11.h>

namespace trainscope::python {

void bindMemoryCurve(pybind11::module_& m);

}  // namespace trainscope::python
