// SPDX-License-Identifier: Apache-2.0
#include "trainscope/named_scope.h"

#include <ATen/record_function.h>

namespace trainscope {

struct NamedScope::Impl {
    at::RecordFunction scope{at::RecordScope::USER_SCOPE};
};

NamedScope::NamedScope(const char* name) : impl_(std::make_unique<Impl>()) {
    if (impl_->scope.isActive()) {
        impl_->scope.before(name);
    }
}

NamedScope::~NamedScope() = default;  // the RecordFunction ends the scope

}  // namespace trainscope
