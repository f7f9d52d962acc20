// SPDX-License-Identifier: Apache-2.0
// The reference meter (support/reference_meter.h) for the Python host's tests.
#include "support/reference_meter.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

namespace py = pybind11;
using trainscope::test::ReferenceMeter;

PYBIND11_MODULE(reference_meter, m) {
    m.doc() = "c10's allocation reports, recorded for the tests (no TrainScope code)";
    py::class_<ReferenceMeter>(m, "Meter")
        .def(py::init([](const std::string& device) {
                 return std::make_unique<ReferenceMeter>(device == "cuda" ? c10::DeviceType::CUDA
                                                                          : c10::DeviceType::CPU);
             }),
             py::arg("device"))
        .def("start", &ReferenceMeter::start)
        .def("stop", &ReferenceMeter::stop)
        .def("mark", &ReferenceMeter::mark)
        .def("reports", &ReferenceMeter::reports);
    // The replay of the reports (support/reference_meter.h), the same for both languages' tests.
    m.def("alive_after", &trainscope::test::aliveAfter, py::arg("reports"), py::arg("count"));
    m.def(
        "peak_between",
        [](const std::vector<trainscope::test::AllocationReport>& reports, size_t begin,
           size_t end) {
            const trainscope::test::Peak peak = trainscope::test::peakBetween(reports, begin, end);
            return std::make_pair(peak.bytes, peak.after);
        },
        py::arg("reports"), py::arg("begin"), py::arg("end"));
    m.def("kept_between", &trainscope::test::keptBetween, py::arg("reports"), py::arg("forward"),
          py::arg("backward"));
}
