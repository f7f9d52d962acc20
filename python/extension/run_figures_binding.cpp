// SPDX-License-Identifier: Apache-2.0
#include "run_figures_binding.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <vector>

#include "trainscope/error.h"
#include "trainscope/report_format.h"
#include "trainscope/report_reading.h"
#include "trainscope/run_files.h"

namespace py = pybind11;

namespace trainscope::python {
namespace {

// The figures' names, as attributes and as keys.
const std::vector<std::string>& figureNames() {
    static const std::vector<std::string> names{"summary",
                                                "peak_bytes",
                                                "weight_bytes",
                                                "gradient_bytes",
                                                "activation_bytes",
                                                "weight_bytes_at_peak",
                                                "gradient_bytes_at_peak",
                                                "optimizer_state_bytes_at_peak",
                                                "memory_note",
                                                "operations",
                                                "collectives",
                                                "step_ms",
                                                "forward_ms",
                                                "backward_ms",
                                                "after_backward_ms",
                                                "optimizer_ms",
                                                "ranks_summary"};
    return names;
}

bool isFigure(const std::string& name) {
    const std::vector<std::string>& names = figureNames();
    return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

RunFigures runFiguresOf(const SessionReports& reports, const std::string& summary) {
    RunFigures figures;
    figures.summary = summary;
    figures.peak_bytes = reports.memory.peak_usage_bytes;
    figures.weight_bytes = reports.memory.weightBytes();
    figures.gradient_bytes = reports.memory.gradientBytes();
    figures.activation_bytes = reports.memory.activationBytes();
    if (reports.memory.peak_breakdown) {
        figures.weight_bytes_at_peak = reports.memory.peak_breakdown->weights;
        figures.gradient_bytes_at_peak = reports.memory.peak_breakdown->gradients;
        figures.optimizer_state_bytes_at_peak = reports.memory.peak_breakdown->optimizer_state;
    }
    const auto note = reports.memory.metadata.find(report_format::kMemoryNoteKey);
    if (note != reports.memory.metadata.end()) {
        figures.memory_note = note->second;
    }
    figures.operations = static_cast<int64_t>(reports.time.entries.size());
    figures.collectives = static_cast<int64_t>(reports.time.collectives.size());
    figures.step_ms = reports.time.iteration_ms;
    const PartTimes times = reports.time.partTimes();
    figures.forward_ms = times.forward_ms;
    figures.backward_ms = times.backward_ms;
    figures.after_backward_ms = times.after_backward_ms;
    figures.optimizer_ms = times.optimizer_ms;
    return figures;
}

RunFigures runFiguresOfFiles(const std::string& prefix) {
    const RunReports run = findRunReports(prefix);
    if (run.memory.empty() || run.time.empty()) {
        throw Error(prefix + " has no memory or run time report");
    }
    const ReportFileSummary memory = summarizeReportFile(run.memory, 0);
    const ReportFileSummary time = summarizeReportFile(run.time, 0);
    RunFigures figures;
    figures.peak_bytes = memory.peak_bytes.value_or(0);
    figures.weight_bytes = memory.weight_bytes;
    figures.gradient_bytes = memory.gradient_bytes;
    figures.activation_bytes = memory.activation_bytes;
    if (memory.at_peak) {
        figures.weight_bytes_at_peak = memory.at_peak->weights;
        figures.gradient_bytes_at_peak = memory.at_peak->gradients;
        figures.optimizer_state_bytes_at_peak = memory.at_peak->optimizer_state;
    }
    figures.memory_note = memory.memory_note;
    figures.operations = time.operations;
    figures.collectives = static_cast<int64_t>(time.collectives.size());
    figures.step_ms = time.iteration_wall_ms.value_or(0.0);
    figures.forward_ms = time.times.forward_ms;
    figures.backward_ms = time.times.backward_ms;
    figures.after_backward_ms = time.times.after_backward_ms;
    figures.optimizer_ms = time.times.optimizer_ms;
    return figures;
}

StepFigures stepFiguresOf(const RunFigures& figures) {
    return {figures.peak_bytes, figures.activation_bytes, figures.step_ms};
}

void bindRunFigures(py::module_& m) {
    m.def("read_run_figures", &runFiguresOfFiles, py::arg("prefix"));
    py::class_<RunFigures>(m, "RunFigures")
        .def_readonly("summary", &RunFigures::summary)
        .def_readonly("peak_bytes", &RunFigures::peak_bytes)
        .def_readonly("weight_bytes", &RunFigures::weight_bytes)
        .def_readonly("gradient_bytes", &RunFigures::gradient_bytes)
        .def_readonly("activation_bytes", &RunFigures::activation_bytes)
        .def_readonly("weight_bytes_at_peak", &RunFigures::weight_bytes_at_peak)
        .def_readonly("gradient_bytes_at_peak", &RunFigures::gradient_bytes_at_peak)
        .def_readonly("optimizer_state_bytes_at_peak", &RunFigures::optimizer_state_bytes_at_peak)
        .def_readonly("memory_note", &RunFigures::memory_note)
        .def_readonly("operations", &RunFigures::operations)
        .def_readonly("collectives", &RunFigures::collectives)
        .def_readonly("step_ms", &RunFigures::step_ms)
        .def_readonly("forward_ms", &RunFigures::forward_ms)
        .def_readonly("backward_ms", &RunFigures::backward_ms)
        .def_readonly("after_backward_ms", &RunFigures::after_backward_ms)
        .def_readonly("optimizer_ms", &RunFigures::optimizer_ms)
        .def_readwrite("ranks_summary", &RunFigures::ranks_summary)
        // By name too, as the dict they were (figures["summary"], figures.get(...)): the
        // figures a user's script reads keep working.
        .def("__getitem__",
             [](py::object self, const std::string& name) {
                 if (!isFigure(name)) {
                     throw py::key_error(name);
                 }
                 return self.attr(name.c_str());
             })
        .def("__contains__",
             [](const RunFigures&, const std::string& name) { return isFigure(name); })
        .def(
            "get",
            [](py::object self, const std::string& name, py::object otherwise) {
                return isFigure(name) ? self.attr(name.c_str()) : otherwise;
            },
            py::arg("name"), py::arg("default") = py::none())
        .def("keys", [](const RunFigures&) { return figureNames(); })
        .def("__repr__", [](const RunFigures& f) {
            return "RunFigures(peak_bytes=" + std::to_string(f.peak_bytes) +
                   ", step_ms=" + std::to_string(f.step_ms) + ")";
        });
}

}  // namespace trainscope::python
