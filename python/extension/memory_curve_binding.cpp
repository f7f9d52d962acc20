// SPDX-License-Identifier: Apache-2.0
#include "memory_curve_binding.h"

#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "trainscope/memory_curve.h"

namespace py = pybind11;

namespace trainscope::python {
namespace {

using Span = std::pair<int64_t, int64_t>;
using Block = std::tuple<int64_t, int64_t, std::optional<int64_t>>;
using Change = std::tuple<int64_t, std::optional<int64_t>, int64_t>;

std::vector<Span> spansOf(const std::vector<TimeSpan>& spans) {
    std::vector<Span> result;
    for (const TimeSpan& span : spans)
        result.emplace_back(span.start_ns, span.end_ns);
    return result;
}

std::vector<Block> blocksOf(const std::vector<CurveBlock>& blocks) {
    std::vector<Block> result;
    for (const CurveBlock& block : blocks)
        result.emplace_back(block.bytes, block.allocated_ns, block.released_ns);
    return result;
}

int64_t highestWith(const MemoryCurve& curve, const std::vector<Change>& changes) {
    std::vector<CurveChange> converted;
    for (const auto& [start, end, bytes] : changes)
        converted.push_back({start, end, bytes});
    return curve.highestWith(converted);
}

}  // namespace

void bindMemoryCurve(py::module_& m) {
    py::class_<MemoryCurve>(m, "MemoryCurve")
        .def(py::init(&MemoryCurve::ofRun), py::arg("prefix"))
        .def("highest", &MemoryCurve::highest)
        .def("highest_with", &highestWith, py::arg("changes"))
        .def("highest_outside", &MemoryCurve::highestOutside, py::arg("phase"))
        .def("step_span",
             [](const MemoryCurve& curve) {
                 const TimeSpan step = curve.stepSpan();
                 return Span{step.start_ns, step.end_ns};
             })
        .def("phase_start", &MemoryCurve::phaseStart, py::arg("phase"))
        .def(
            "phase_spans",
            [](const MemoryCurve& curve, const std::string& phase) {
                return spansOf(curve.phaseSpans(phase));
            },
            py::arg("phase"))
        .def(
            "calls",
            [](const MemoryCurve& curve, const std::string& name, bool prefix) {
                return spansOf(curve.calls(name, prefix));
            },
            py::arg("name"), py::arg("prefix") = false)
        .def(
            "module_calls",
            [](const MemoryCurve& curve, const std::string& module, bool within, bool backward,
               const std::string& name) {
                return spansOf(curve.moduleCalls(module, within, backward, name));
            },
            py::arg("module"), py::arg("within"), py::arg("backward"), py::arg("name") = "")
        .def("blocks", [](const MemoryCurve& curve) { return blocksOf(curve.blocks()); })
        .def(
            "blocks_made_in",
            [](const MemoryCurve& curve, const std::string& phase) {
                return blocksOf(curve.blocksMadeIn(phase));
            },
            py::arg("phase"))
        .def(
            "forward_blocks",
            [](const MemoryCurve& curve, int64_t bytes, bool by_release, int64_t start,
               int64_t end) {
                return blocksOf(curve.forwardBlocks(bytes, by_release, start, end));
            },
            py::arg("bytes"), py::arg("by_release"), py::arg("start"), py::arg("end"))
        .def("highest_at_batch", &MemoryCurve::highestAtBatch, py::arg("other"), py::arg("at"),
             py::arg("other_at"), py::arg("batch"))
        .def("largest_batch_within", &MemoryCurve::largestBatchWithin, py::arg("other"),
             py::arg("at"), py::arg("other_at"), py::arg("budget"))
        .def("forward_ms", &MemoryCurve::forwardMs, py::arg("module"));
}

}  // namespace trainscope::python
