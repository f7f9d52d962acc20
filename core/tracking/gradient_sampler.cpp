// SPDX-License-Identifier: Apache-2.0
#include "tracking/gradient_sampler.h"

#include <algorithm>

#include "tracking/memory_observer.h"
#include "trainscope/session.h"

namespace trainscope {

void GradientSampler::sample() noexcept {
    if (!parameters_) {
        return;
    }
    try {
        const std::vector<ObservedParameter> parameters = parameters_->parameters();
        std::vector<const void*> addresses;
        for (const ObservedParameter& p : parameters)
            addresses.push_back(p.gradient.data);
        const std::vector<std::optional<int64_t>> events = memory_->liveEvents(addresses);
        for (size_t i = 0; i < parameters.size(); ++i) {
            const ObservedParameter& p = parameters[i];
            if (!p.gradient.data || p.gradient.bytes <= 0) {
                continue;
            }
            int64_t& bytes = bytes_[p.name];
            bytes = std::max(bytes, p.gradient.bytes);
            if (events[i]) {
                blocks_[{p.gradient.data, *events[i]}] = p.module_path;
            }
        }
    } catch (...) {
        // The host could not list its parameters at this instant: the step's end asks again.
    }
}

}  // namespace trainscope
