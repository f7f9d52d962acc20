// SPDX-License-Identifier: Apache-2.0
// A scope that a host names in the memory step's timeline: a compiled kernel's call, which
// LibTorch does not see as an operation (Inductor's generated code calls it directly). It is
// a user scope of LibTorch's RecordFunction, open while the span lives, so the timeline records
// it nested in the operation that runs it, with its thread and times. Free where no callback
// listens; a host opens one only while Session::recordsTimeline() says so.
#pragma once

#include <memory>

namespace trainscope {

class NamedScope {
  public:
    explicit NamedScope(const char* name);  // `name` outlives the span
    ~NamedScope();
    NamedScope(const NamedScope&) = delete;
    NamedScope& operator=(const NamedScope&) = delete;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace trainscope
