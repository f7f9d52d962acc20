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

StackTrace PythonFrames::currentFrames() {
    StackTrace trace;
    const PyGILState_STATE gil = PyGILState_Ensure();
    PyFrameObject* frame = PyEval_GetFrame();  // borrowed
    Py_XINCREF(frame);
    while (frame) {
        Ref code(reinterpret_cast<PyObject*>(PyFrame_GetCode(frame)));
        PyObject* filename = reinterpret_cast<PyCodeObject*>(code.object)->co_filename;
        Placed& placed = placed_[code.object];
        if (placed.filename != filename) {
            placed = Placed{filename, false, {}};
            const char* text = PyUnicode_AsUTF8(filename);
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
            located.line_number = PyFrame_GetLineNumber(frame);
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
