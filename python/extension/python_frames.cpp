// SPDX-License-Identifier: Apache-2.0
#include "python_frames.h"

#include <frameobject.h>

namespace trainscope::python {
namespace {

// PyFrame_GetCode and PyFrame_GetBack return new references (Python 3.9+).
struct Ref {
    explicit Ref(PyObject* o) : object(o) {}
    ~Ref() { Py_XDECREF(object); }
    Ref(const Ref&) = delete;
    Ref& operator=(const Ref&) = delete;
    PyObject* object;
};

}  // namespace

PythonFrames::PythonFrames(const std::string& project_root, const std::string& own_package_dir)
    : files_(project_root), own_package_dir_(own_package_dir) {}

PythonFrames::~PythonFrames() {
    if (placed_.empty() || !Py_IsInitialized()) {
        return;  // at the interpreter's end, nothing is left to give back
    }
    const PyGILState_STATE gil = PyGILState_Ensure();
    forget();
    PyGILState_Release(gil);
}

void PythonFrames::forget() {
    for (const auto& [code, placed] : placed_)
        Py_DECREF(code);
    placed_.clear();
}

StackTrace PythonFrames::currentFrames() {
    StackTrace trace;
    trace.reserve(8);  // a trace is most often found interned already: grown once, if at all
    const PyGILState_STATE gil = PyGILState_Ensure();
    PyFrameObject* frame = PyEval_GetFrame();  // borrowed
    Py_XINCREF(frame);
    while (frame) {
        Ref code(reinterpret_cast<PyObject*>(PyFrame_GetCode(frame)));
        const auto [at, first] = placed_.try_emplace(code.object);
        Placed& placed = at->second;
        if (first) {
            Py_INCREF(code.object);  // held while it is a key
            const char* text =
                PyUnicode_AsUTF8(reinterpret_cast<PyCodeObject*>(code.object)->co_filename);
            if (!text) {
                PyErr_Clear();  // a file name that is no valid text: left out
            }
            const std::string file = text ? text : "";
            if (keeps(file)) {
                if (const auto located = files_.locate(file)) {
                    placed.keep = true;
                    placed.frame = *located;
                }
            }
        }
        if (placed.keep) {
            StackFrame located = placed.frame;
#if PY_VERSION_HEX >= 0x030B0000
            // The line is the code's and the instruction's alone (Python 3.11 on names it).
            const auto [line, fresh] = placed.lines.try_emplace(PyFrame_GetLasti(frame), 0);
            if (fresh) {
                line->second = PyFrame_GetLineNumber(frame);
            }
            located.line_number = line->second;
#else
            located.line_number = PyFrame_GetLineNumber(frame);
#endif
            trace.push_back(std::move(located));
        }
        PyFrameObject* back = PyFrame_GetBack(frame);  // new reference
        Py_DECREF(frame);
        frame = back;
    }
    PyGILState_Release(gil);
    return trace;
}

StackTrace PythonFrames::place(const std::vector<std::pair<std::string, int>>& frames) {
    StackTrace trace;
    for (const auto& [file, line] : frames) {
        if (keeps(file)) {
            if (auto located = files_.locate(file)) {
                located->line_number = line;
                trace.push_back(std::move(*located));
            }
        }
    }
    return trace;
}

}  // namespace trainscope::python
