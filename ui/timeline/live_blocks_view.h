// SPDX-License-Identifier: Apache-2.0
// The blocks alive at the chosen moment (from OP_MEMORY), largest first, grouped by the
// operation that allocated them and its module. Choosing a row asks for its allocating call's
// frames.
#pragma once

#include <QTreeWidget>

#include "timeline/timeline_view_state.h"

class QLabel;

namespace trainscope::ui {

class LiveBlocksView : public QWidget {
    Q_OBJECT
  public:
    explicit LiveBlocksView(TimelineViewState* state, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return tree_; }
    QLabel* title() const { return title_; }

  signals:
    // The call that allocated the chosen block (invalid when unknown).
    void callChosen(const RankedSpan& call);

  private:
    void showMoment();

    TimelineViewState* state_;
    QLabel* title_;
    QTreeWidget* tree_;
};

}  // namespace trainscope::ui
