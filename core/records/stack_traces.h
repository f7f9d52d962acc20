// SPDX-License-Identifier: Apache-2.0
// Each distinct stack trace of a step once: a large step's operations come from a few lines (a
// loop's body, a layer's forward), so each operation holds a number into this table rather
// than its own copy of the frames, which keeps a large step's record small.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "trainscope/reports.h"

namespace trainscope {

class StackTraces {
  public:
    StackTraces() = default;
    StackTraces(StackTraces&&) = default;  // the map's nodes, which traces_ points at, move along
    StackTraces& operator=(StackTraces&&) = default;
    StackTraces(const StackTraces&) = delete;
    StackTraces& operator=(const StackTraces&) = delete;

    // The trace's number, the same for equal traces; -1 for an empty one.
    int add(StackTrace trace) {
        if (trace.empty()) {
            return -1;
        }
        const auto [it, added] = ids_.try_emplace(std::move(trace), static_cast<int>(size()));
        if (added) {
            traces_.push_back(&it->first);
        }
        return it->second;
    }
    // The trace numbered `id`; the empty trace for -1.
    const StackTrace& operator[](int id) const {
        static const StackTrace kNone;
        return id < 0 ? kNone : *traces_.at(static_cast<size_t>(id));
    }
    size_t size() const { return traces_.size(); }

  private:
    struct Hash {
        size_t operator()(const StackTrace& trace) const {
            size_t h = trace.size();
            for (const StackFrame& frame : trace) {
                h = h * 31 + std::hash<std::string>()(frame.file_path);
                h = h * 31 + static_cast<size_t>(frame.line_number);
                h = h * 31 + std::hash<std::string>()(frame.library_root);
            }
            return h;
        }
    };
    std::unordered_map<StackTrace, int, Hash> ids_;
    std::vector<const StackTrace*> traces_;
};

}  // namespace trainscope
