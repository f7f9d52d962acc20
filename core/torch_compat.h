// SPDX-License-Identifier: Apache-2.0
// The LibTorch APIs that differ between Debian's LibTorch 1.13 and PyTorch 2.x, in one place.
// Each is adapted by what the headers declare, not by version numbers, so a LibTorch that
// changes one of them later fails to compile here, not somewhere else.
#pragma once

#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/Allocator.h>
#include <c10/core/TensorImpl.h>
#include <c10/util/Logging.h>

#include <sstream>
#include <string>
#include <type_traits>

namespace trainscope::compat {

namespace detail {
template <typename Class, typename Total>
Total totalArgumentOf(void (Class::*)(void*, int64_t, Total, Total, c10::Device));
}  // namespace detail

// The type of the allocator totals passed to c10's memory-reporting hook
// (MemoryReportingInfoBase::reportMemoryUsage): int64_t in 1.13, size_t in 2.x.
using AllocatorTotal =
    decltype(detail::totalArgumentOf(&c10::MemoryReportingInfoBase::reportMemoryUsage));

// An optimizer's state for one parameter, as `state()` keys it: 1.13 keys it by the address of
// the parameter's TensorImpl printed as text (c10::guts::to_string), 2.x by the address itself.
template <typename StateMap>
auto findParameterState(const StateMap& states, const c10::TensorImpl* parameter) {
    using Key = typename StateMap::key_type;
    void* address = const_cast<c10::TensorImpl*>(parameter);
    if constexpr (std::is_same_v<Key, std::string>) {
        std::ostringstream text;
        text << address;
        return states.find(text.str());
    } else {
        return states.find(address);
    }
}

// Whether this LibTorch has the fused scaled_dot_product_attention (2.0 and later).
inline bool hasScaledDotProductAttention() {
    return c10::Dispatcher::singleton()
        .findSchema({"aten::scaled_dot_product_attention", ""})
        .has_value();
}

// Makes LibTorch's log print errors only. Debian's LibTorch logs through glog, PyTorch 2.x's
// wheels through c10's own logger.
inline void logErrorsOnly() {
#ifdef C10_USE_GLOG
    FLAGS_minloglevel = google::GLOG_ERROR;
#else
    FLAGS_caffe2_log_level = c10::GLOG_ERROR;
#endif
}

// LibTorch's log prints errors only while it lives, and what it printed before when it ends.
class ErrorsOnlyLog {
  public:
#ifdef C10_USE_GLOG
    ErrorsOnlyLog() : previous_(FLAGS_minloglevel) {
        logErrorsOnly();
    }
    ~ErrorsOnlyLog() {
        FLAGS_minloglevel = previous_;
    }
#else
    ErrorsOnlyLog() : previous_(FLAGS_caffe2_log_level) {
        logErrorsOnly();
    }
    ~ErrorsOnlyLog() {
        FLAGS_caffe2_log_level = previous_;
    }
#endif
    ErrorsOnlyLog(const ErrorsOnlyLog&) = delete;
    ErrorsOnlyLog& operator=(const ErrorsOnlyLog&) = delete;

  private:
    int previous_;
};

}  // namespace trainscope::compat
