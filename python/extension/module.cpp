// SPDX-License-Identifier: Apache-2.0
// trainscope._trainscope: the core's session, hosted in the user's Python process. The Python
// package (python/trainscope) drives it; this module only translates.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <tuple>
#include <vector>

#include "memory_curve_binding.h"
#include "python_frames.h"
#include "run_figures_binding.h"
#include "trainscope/advice_report.h"
#include "trainscope/advice_text.h"
#include "trainscope/engine.h"
#include "trainscope/error.h"
#include "trainscope/memory_curve.h"
#include "trainscope/named_scope.h"
#include "trainscope/ranks_text.h"
#include "trainscope/report_format.h"
#include "trainscope/report_writer.h"
#include "trainscope/run_files.h"
#include "trainscope/session.h"
#include "trainscope/session_files.h"
#include "trainscope/summary_text.h"
#include "trainscope/sweep.h"

namespace py = pybind11;

namespace trainscope::python {
namespace {

// The parameters as the Python side lists them: (name, aliases, module path, (address, bytes)
// of the weight, of the gradient (0, 0 without), [(address, bytes) of each optimizer state
// tensor], (the whole parameter's bytes over the ranks or 0, its layout, why its memory cannot
// be read or "")).
using BlockTuple = std::pair<uintptr_t, int64_t>;
// A compilation as the package hears of it (_compiles.py): compile id, kind, function, file,
// line, start and end (epoch ns), graph break, why it compiled again.
using CompilationTuple = std::tuple<std::string, std::string, std::string, std::string, int,
                                    int64_t, int64_t, std::string, std::string>;
// A compiled kernel as the package learns it from Inductor (_kernels.py): compile id, whether of
// the backward graph, kernel, fused ATen operations, module path, its lines ((file, line), most
// specific first), why it has none, its inputs' shapes.
using KernelSiteTuple =
    std::tuple<std::string, bool, std::string, std::vector<std::string>, std::string,
               std::vector<std::pair<std::string, int>>, std::string, std::string>;
using ShardingTuple = std::tuple<int64_t, std::string, std::string>;
using ParameterTuple = std::tuple<std::string, std::vector<std::string>, std::string, BlockTuple,
                                  BlockTuple, std::vector<BlockTuple>, ShardingTuple>;

TensorBlock blockOf(const BlockTuple& block) {
    return {reinterpret_cast<const void*>(block.first), block.second};
}

class PythonParameters : public ParameterSource {
  public:
    explicit PythonParameters(py::function list) : list_(std::move(list)) {}
    std::vector<ObservedParameter> parameters() override {
        py::gil_scoped_acquire gil;
        std::vector<ObservedParameter> result;
        for (const ParameterTuple& t : list_().cast<std::vector<ParameterTuple>>()) {
            ObservedParameter p;
            p.name = std::get<0>(t);
            p.aliases = std::get<1>(t);
            p.module_path = std::get<2>(t);
            p.weight = blockOf(std::get<3>(t));
            p.gradient = blockOf(std::get<4>(t));
            for (const BlockTuple& state : std::get<5>(t))
                p.optimizer_state.push_back(blockOf(state));
            std::tie(p.whole_bytes, p.layout, p.unreadable) = std::get<6>(t);
            result.push_back(std::move(p));
        }
        return result;
    }

  private:
    py::function list_;
};

// A run's reports in temporary files: committed into place, or discarded (also when dropped).
class PyStagedReports {
  public:
    PyStagedReports(std::unique_ptr<StagedReports> staged, bool force, RunFigures figures)
        : staged_(std::move(staged)), force_(force), figures_(std::move(figures)) {}

    void commit() {
        if (!staged_) {
            throw Error("the reports were committed or discarded already");
        }
        {
            py::gil_scoped_release no_gil;
            staged_->commit(force_ ? Overwrite::Allow : Overwrite::Refuse);
        }
        staged_.reset();
    }
    void discard() { staged_.reset(); }
    const RunFigures& figures() const { return figures_; }

  private:
    std::unique_ptr<StagedReports> staged_;
    bool force_;
    RunFigures figures_;
};

// A session with its Python sources, owned together.
class PySession {
  public:
    PySession(const std::string& device, const std::string& project_root,
              const std::string& own_package_dir, py::function parameters,
              const std::map<std::string, std::string>& metadata, const std::string& prefix)
        : frames_(project_root, own_package_dir), parameters_(std::move(parameters)) {
        SessionOptions options;
        options.device = parseDevice(device);
        options.frames = &frames_;
        options.modules = &modules_;
        options.parameters = &parameters_;
        options.metadata = metadata;
        options.timeline_path = sessionFiles(prefix).at(2);  // written as the memory step ends
        session_ = std::make_unique<Session>(std::move(options));
    }

    void beginStep() {
        modules_.clear();
        session().beginStep();
    }
    void forwardBegins() { session().forwardBegins(); }
    void endStep() { session().endStep(); }
    void abandonStep() {
        if (session_) {
            session_->abandonStep();
        }
    }
    void dropStep() { session().dropStep(); }
    void countExisting(const std::vector<BlockTuple>& blocks) {
        std::vector<TensorBlock> plain;
        for (const BlockTuple& block : blocks)
            plain.push_back(blockOf(block));
        session().countExisting(plain);
    }
    void existingBlockFreed(std::uintptr_t address) {
        session().existingBlockFreed(reinterpret_cast<const void*>(address));
    }
    void setMetadata(const std::map<std::string, std::string>& facts) {
        session().addMetadata(facts);
    }
    void addCompilations(const std::vector<CompilationTuple>& tuples) {
        std::vector<Compilation> compilations;
        for (const auto& [id, kind, function, file, line, start, end, broke, again] : tuples)
            compilations.push_back({id, kind, function, file, line, start, end, 0, broke, again});
        session().addCompilations(compilations);
    }
    int addKernelSite(const KernelSiteTuple& t) {
        const auto& [compile_id, backward, kernel, fused, module, frames, unattributed, shapes] = t;
        return session().addKernelSite({compile_id, backward, kernel, fused, module,
                                        frames_.place(frames), unattributed, shapes});
    }
    void kernelRan(int site, double ms) {
        if (session_) {
            session_->kernelRan(site, ms);
        }
    }
    void kernelWrote(int site, const std::vector<const void*>& storages) {
        if (session_) {
            session_->kernelWrote(site, storages);
        }
    }
    bool recordsTimeline() const { return session_ && session_->recordsTimeline(); }
    // Ends observation: every callback and hook of the session is removed.
    void close() {
        session_.reset();
        cleanup_.reset();
        frames_.forget();
    }
    // In a child that the user's step forked: see Session::forsakeInForkedChild.
    void forsake() {
        Session::forsakeInForkedChild();
        (void)session_.release();  // the parent's: never torn down in the child
        cleanup_.reset();          // its handler, put back (a sigaction: no lock)
    }
    void enterModule(std::string path) { modules_.push(std::move(path)); }
    void exitModule(const std::string& path) { modules_.pop(path); }
    int observedSteps() { return session().observedSteps(); }
    bool stepOpen() { return session_ && session_->stepOpen(); }

    // PREFIX.memory.sqlite, PREFIX.time.sqlite and PREFIX.timeline.sqlite written as one set
    // to temporary files, to be committed (or discarded) by the caller.
    std::unique_ptr<PyStagedReports> stage(const std::string& prefix, bool force) {
        const SessionReports reports = session().assemble();
        // The summary first: nothing is written unless everything before it worked.
        std::ostringstream summary;
        printSummary(summary, &reports.memory, &reports.time, &reports.timeline);
        std::unique_ptr<StagedReports> staged;
        {
            py::gil_scoped_release no_gil;
            staged =
                stageSessionFiles(reports, prefix, force ? Overwrite::Allow : Overwrite::Refuse);
        }
        return std::make_unique<PyStagedReports>(std::move(staged), force,
                                                 runFiguresOf(reports, summary.str()));
    }

    // Writes the set at once.
    RunFigures write(const std::string& prefix, bool force) {
        std::unique_ptr<PyStagedReports> staged = stage(prefix, force);
        staged->commit();
        return staged->figures();
    }

  private:
    Session& session() {
        if (!session_) {
            throw Error("the session is closed");
        }
        return *session_;
    }

    PythonFrames frames_;
    ModuleStack modules_;
    PythonParameters parameters_;
    std::unique_ptr<Session> session_;
    // A SIGTERM that ends the process (the user has no handler) removes the staged timeline
    // first, as long as the session lives.
    std::unique_ptr<TempFileCleanupWhileDefault> cleanup_ =
        std::make_unique<TempFileCleanupWhileDefault>();
};

// A compiled region's kernel (or extern call) in Inductor's generated code, timed on each call
// for the session, and a scope of the memory step's timeline: the generated code calls it in
// place of the kernel (_kernels.py). Which of its call sites called it (a kernel may be called
// from several lines, each with its own provenance) is told by the calling frame's line. In the
// memory step it tells the session which blocks it wrote: what it returns, its `out=` tensor and
// the arguments at `written` (a C++ kernel's non-const pointers).
class KernelCall {
  public:
    KernelCall(py::object session, std::string name, py::object function,
               std::map<int, int> site_of_line, int site, std::vector<size_t> written)
        : session_(std::move(session)),
          name_(std::move(name)),
          function_(std::move(function)),
          site_of_line_(std::move(site_of_line)),
          site_(site),
          written_(std::move(written)),
          host_(&session_.cast<PySession&>()) {}

    py::object call(const py::args& args, const py::kwargs& kwargs) {
        int site = site_;
        if (!site_of_line_.empty()) {
            if (PyFrameObject* caller = PyEval_GetFrame()) {  // borrowed
                const auto it = site_of_line_.find(PyFrame_GetLineNumber(caller));
                site = it != site_of_line_.end() ? it->second : site_;
            }
        }
        std::optional<NamedScope> span;
        const bool memory_step = host_->recordsTimeline();
        if (memory_step) {
            span.emplace(name_.c_str());
        }
        const auto start = std::chrono::steady_clock::now();
        py::object result = function_(*args, **kwargs);
        host_->kernelRan(site, std::chrono::duration<double, std::milli>(
                                   std::chrono::steady_clock::now() - start)
                                   .count());
        if (memory_step) {
            std::vector<const void*> storages;
            addStorages(result, storages);
            if (kwargs.contains("out")) {
                addStorages(kwargs["out"], storages);
            }
            for (size_t i : written_)
                if (i < args.size()) {
                    addStorages(args[i], storages);
                }
            host_->kernelWrote(site, storages);
        }
        return result;
    }
    const py::object& function() const { return function_; }

  private:
    // The storage of `value` when it is a tensor, or of each tensor in it when it is a tuple or
    // a list (an extern call's results); nothing of anything else, and never an exception.
    static void addStorages(const py::handle& value, std::vector<const void*>& storages) {
        static const py::handle tensor_type =
            py::object(py::module_::import("torch").attr("Tensor"))
                .release();  // lives as torch does
        if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
            for (const py::handle item : value)
                addStorages(item, storages);
            return;
        }
        if (!py::isinstance(value, tensor_type)) {
            return;
        }
        try {
            const auto address =
                value.attr("untyped_storage")().attr("data_ptr")().cast<uintptr_t>();
            if (address != 0) {
                storages.push_back(reinterpret_cast<const void*>(address));
            }
        } catch (const py::error_already_set&) {
            // a tensor without storage: nothing to attribute
        }
    }

    py::object session_;  // kept alive while the generated code may call this
    std::string name_;
    py::object function_;
    std::map<int, int> site_of_line_;
    int site_;
    std::vector<size_t> written_;
    PySession* host_;
};

// The summary of a job's ranks from their timelines, the ranks' sets given by their prefixes
// (rank 0 prints it once every rank's set is in place).
std::string ranksSummary(const std::vector<std::string>& rank_prefixes) {
    std::vector<std::string> timelines;
    for (const std::string& prefix : rank_prefixes)
        timelines.push_back(prefix + report_format::kTimelineSuffix);
    std::ostringstream out;
    printRanksOfFiles(out, timelines);
    return out.str();
}

void checkOutputs(const std::string& prefix, bool force) {
    checkSessionFiles(prefix, force ? Overwrite::Allow : Overwrite::Refuse);
}

// Writes the run PREFIX's advice report from the host's what-ifs (dicts of the JSON's fields) and
// returns the text of what it wrote.
std::string writeAdvice(const std::string& prefix, bool force, const RunFigures& baseline,
                        const py::list& what_ifs,
                        const std::map<std::string, std::string>& metadata,
                        std::optional<int64_t> budget) {
    const std::string path = prefix + report_format::kAdviceSuffix;
    AdviceReport report;
    report.budget_bytes = budget;
    report.baseline = stepFiguresOf(baseline);
    report.metadata = RunMetadata(metadata.begin(), metadata.end());
    for (const py::handle& item : what_ifs) {
        const py::dict w = item.cast<py::dict>();
        WhatIf what_if;
        what_if.change = w["change"].cast<std::string>();
        what_if.target = w["target"].cast<std::string>();
        what_if.step_predicted = !w["predicted_step_ms"].is_none();
        what_if.predicted = {w["predicted_peak_bytes"].cast<int64_t>(),
                             w["predicted_activation_bytes"].cast<int64_t>(),
                             what_if.step_predicted ? w["predicted_step_ms"].cast<double>() : 0.0};
        if (w["verified"].cast<bool>()) {
            what_if.measured = StepFigures{w["measured_peak_bytes"].cast<int64_t>(),
                                           w["measured_activation_bytes"].cast<int64_t>(),
                                           w["measured_step_ms"].cast<double>()};
        }
        what_if.why_not = w["why_not"].cast<std::string>();
        if (w.contains("source_file") && !w["source_file"].is_none()) {
            what_if.source_file = w["source_file"].cast<std::string>();
            what_if.source_line = w["source_line"].cast<int>();
        }
        if (w.contains("step_ratio") && !w["step_ratio"].is_none()) {
            const py::dict ratio = w["step_ratio"].cast<py::dict>();
            what_if.step_ratio =
                StepRatio{ratio["median"].cast<double>(), ratio["low"].cast<double>(),
                          ratio["high"].cast<double>(), ratio["pairs"].cast<int>()};
        }
        if (w.contains("not_predicted")) {
            what_if.not_predicted = w["not_predicted"].cast<std::string>();
        }
        report.what_ifs.push_back(std::move(what_if));
    }
    writeAdviceReport(report, path, force ? Overwrite::Allow : Overwrite::Refuse);
    std::ostringstream text;
    printAdvice(text, readAdviceReport(path));  // what is on disk
    return text.str();
}

}  // namespace
}  // namespace trainscope::python

PYBIND11_MODULE(_trainscope, m) {
    using trainscope::python::PySession;
    using trainscope::python::PyStagedReports;
    m.doc() = "TrainScope's engine, hosted in the user's Python process";
    // One line for the user: the engine's errors become trainscope.Error, with their message.
    py::register_exception<trainscope::Error>(m, "Error");
    m.attr("version") = trainscope::version();
    m.def("check_outputs", &trainscope::python::checkOutputs, py::arg("prefix"), py::arg("force"));
    m.def("ranks_summary", &trainscope::python::ranksSummary, py::arg("rank_prefixes"));
    m.def("parse_byte_size", &trainscope::parseByteSize, py::arg("text"));
    m.def("write_advice", &trainscope::python::writeAdvice, py::arg("prefix"), py::arg("force"),
          py::arg("baseline"), py::arg("what_ifs"), py::arg("metadata"),
          py::arg("budget") = py::none());
    m.def(
        "run_report_paths",
        [](const std::string& prefix) {
            std::vector<std::string> paths;
            for (const std::string& suffix : trainscope::runReportSuffixes())
                paths.push_back(prefix + suffix);
            return paths;
        },
        py::arg("prefix"));
    m.def(
        "advice_report_path",
        [](const std::string& prefix) { return prefix + trainscope::report_format::kAdviceSuffix; },
        py::arg("prefix"));
    trainscope::python::bindMemoryCurve(m);
    trainscope::python::bindRunFigures(m);
    py::class_<PySession>(m, "Session")
        .def(py::init<const std::string&, const std::string&, const std::string&, py::function,
                      const std::map<std::string, std::string>&, const std::string&>(),
             py::arg("device"), py::arg("project_root"), py::arg("own_package_dir"),
             py::arg("parameters"), py::arg("metadata"), py::arg("prefix"))
        .def("begin_step", &PySession::beginStep)
        .def("forward_begins", &PySession::forwardBegins)
        .def("end_step", &PySession::endStep)
        .def("abandon_step", &PySession::abandonStep)
        .def("drop_step", &PySession::dropStep)
        .def("set_metadata", &PySession::setMetadata)
        .def("add_compilations", &PySession::addCompilations)
        .def("count_existing", &PySession::countExisting)
        .def("existing_block_freed", &PySession::existingBlockFreed)
        .def("add_kernel_site", &PySession::addKernelSite)
        .def_static("compilation_begins", &trainscope::Session::compilationBegins)
        .def_static("compilation_ends", &trainscope::Session::compilationEnds)
        .def("close", &PySession::close)
        .def("forsake", &PySession::forsake)
        .def("enter_module", &PySession::enterModule)
        .def("exit_module", &PySession::exitModule, py::arg("path"))
        .def_property_readonly("observed_steps", &PySession::observedSteps)
        .def_property_readonly("step_open", &PySession::stepOpen)
        .def("stage", &PySession::stage, py::arg("prefix"), py::arg("force"))
        .def("write", &PySession::write, py::arg("prefix"), py::arg("force"));
    py::class_<trainscope::python::KernelCall>(m, "KernelCall")
        .def(py::init<py::object, std::string, py::object, std::map<int, int>, int,
                      std::vector<size_t>>())
        .def("__call__", &trainscope::python::KernelCall::call)
        .def_property_readonly("__wrapped__", &trainscope::python::KernelCall::function);
    py::class_<PyStagedReports>(m, "StagedReports")
        .def("commit", &PyStagedReports::commit)
        .def("discard", &PyStagedReports::discard)
        .def_property_readonly("figures", &PyStagedReports::figures);
}
