// SPDX-License-Identifier: Apache-2.0
#include "views/run_filter.h"

namespace trainscope::ui {

RunFilter::RunFilter(QObject* parent) : QObject(parent), stack_{RunFilterState()} {}

void RunFilter::setName(const QString& name) {
    if (name == current().name)
        return;
    // Every step: Back undoes a range, not what was typed since.
    for (RunFilterState& state : stack_)
        state.name = name;
    emit changed();
}

void RunFilter::filterToEntries(const EntryRange& range, const QString& label) {
    RunFilterState state = current();
    state.entries = range;
    state.range_label = label;
    if (state == current())
        return;
    stack_.push_back(state);
    emit changed();
}

void RunFilter::back() {
    if (!canGoBack())
        return;
    stack_.pop_back();
    emit changed();
}

void RunFilter::reset() {
    if (stack_.size() == 1 && current() == RunFilterState())
        return;
    stack_ = {RunFilterState()};
    emit changed();
}

}  // namespace trainscope::ui
