// SPDX-License-Identifier: Apache-2.0
// The tests' reference meter: c10's own allocation reports, recorded as they come, with no part
// of TrainScope in between. c10's allocators (the CPU's and CUDA's caching allocator) report
// every block they hand out and take back to the thread's memory-reporting hook; this module
// pushes a hook of its own that writes down each report and marks that the test sets at points
// of its step. The tests run a step once under this meter and once under TrainScope, and hold
// TrainScope's peak, what is alive at it and the activations against what these reports say.
#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace {

// The allocator totals' type differs between LibTorch versions (int64_t, then size_t).
template <typename Class, typename Total>
Total totalOf(void (Class::*)(void*, int64_t, Total, Total, c10::Device));
using Total = decltype(totalOf(&c10::MemoryReportingInfoBase::reportMemoryUsage));

// One report: an allocation (bytes > 0) or a free (bytes < 0) of the block at `address`.
using Report = std::pair<uintptr_t, int64_t>;

class Recorder : public c10::MemoryReportingInfoBase {
  public:
    explicit Recorder(c10::DeviceType device) : device_(device) {}
    void reportMemoryUsage(void* ptr, int64_t bytes, Total, Total, c10::Device device) override {
        if (device.type() != device_ || bytes == 0) {
            return;
        }
        std::lock_guard<std::mutex> lock(mutex_);
        reports_.emplace_back(reinterpret_cast<uintptr_t>(ptr), bytes);
    }
    bool memoryProfilingEnabled() const override { return true; }
    size_t count() {
        std::lock_guard<std::mutex> lock(mutex_);
        return reports_.size();
    }
    std::vector<Report> reports() {
        std::lock_guard<std::mutex> lock(mutex_);
        return reports_;
    }

  private:
    c10::DeviceType device_;
    std::mutex mutex_;
    std::vector<Report> reports_;
};

// The meter of one thread (the thread that runs the step; on the CPU the backward pass runs
// there too): started, marked, stopped.
class Meter {
  public:
    explicit Meter(const std::string& device)
        : recorder_(std::make_shared<Recorder>(device == "cuda" ? c10::DeviceType::CUDA
                                                                : c10::DeviceType::CPU)) {}
    void start() {
        guard_ =
            std::make_unique<c10::DebugInfoGuard>(c10::DebugInfoKind::PROFILER_STATE, recorder_);
    }
    void stop() { guard_.reset(); }
    // The number of reports so far: where a point of the step falls in them.
    size_t mark() { return recorder_->count(); }
    std::vector<Report> reports() { return recorder_->reports(); }

  private:
    std::shared_ptr<Recorder> recorder_;
    std::unique_ptr<c10::DebugInfoGuard> guard_;
};

}  // namespace

PYBIND11_MODULE(reference_meter, m) {
    m.doc() = "c10's allocation reports, recorded for the tests (no TrainScope code)";
    py::class_<Meter>(m, "Meter")
        .def(py::init<const std::string&>(), py::arg("device"))
        .def("start", &Meter::start)
        .def("stop", &Meter::stop)
        .def("mark", &Meter::mark)
        .def("reports", &Meter::reports);
}
