// SPDX-License-Identifier: Apache-2.0
// Each distinct stack trace of a step once: a large step's operations come from a few lines (a
// loop's body, a layer's forward), so each operation holds a number into this table rather
// than its own copy of the frames, which keeps a large step's record small.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
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
    // Every operation of a step asks for its trace, so the hash reads little of each frame: its
    // line, and its path's length and last bytes (where file names differ); equal hashes are
    // told apart by comparing the traces whole.
    struct Hash {
        size_t operator()(const StackTrace& trace) const {
            size_t h = trace.size();
            for (const StackFrame& frame : trace) {
                h = h * 31 + static_cast<size_t>(frame.line_number);
                h = h * 31 + tail(frame.file_path);
                h = h * 31 + tail(frame.library_root);
            }
            return h;
        }
        static size_t tail(const std::string& text) {
            uint64_t last = 0;
            const size_t n = std::min<size_t>(text.size(), sizeof last);
            std::memcpy(&last, text.data() + text.size() - n, n);
            return static_cast<size_t>(last ^ (static_cast<uint64_t>(text.size()) << 56));
        }
    };
    std::unordered_map<StackTrace, int, Hash> ids_;
    std::vector<const StackTrace*> traces_;
};

}  // namespace trainscope
