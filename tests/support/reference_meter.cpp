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
}
