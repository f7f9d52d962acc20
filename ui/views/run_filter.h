// SPDX-License-Identifier: Apache-2.0
// What every page of a run follows, as hotspot's FilterAndZoomStack: an operation name filter
// and a range of run time entries, kept as a stack that Back undoes and Reset clears.
//
// - The name is typed in the Time tab's filter field; the Time tables and the activations keep
//   the operations whose name contains it, and the timeline fades the other calls.
// - The range comes from the timeline ("Filter to View": the operations whose forward calls
//   are in view); the Time tab and By Source Line keep those entries.
#pragma once

#include <QObject>
#include <QString>
#include <QVector>
#include <optional>

#include "reading/sql_table_model.h"

namespace trainscope::ui {

struct RunFilterState {
    QString name;  // empty: every operation
    std::optional<EntryRange> entries;
    QString range_label;  // where the range came from, for the filter bars ("12.1–14.0 ms")
    bool operator==(const RunFilterState& o) const {
        return name == o.name && entries == o.entries && range_label == o.range_label;
    }
};

class RunFilter : public QObject {
    Q_OBJECT
  public:
    explicit RunFilter(QObject* parent = nullptr);

    const RunFilterState& current() const { return stack_.last(); }
    // The name is no step to go back to: it holds for every step.
    void setName(const QString& name);
    // A new step that Back undoes: the entries of `range`, the name kept.
    void filterToEntries(const EntryRange& range, const QString& label);
    bool canGoBack() const { return stack_.size() > 1; }
    void back();
    void reset();  // no filter at all

  signals:
    void changed();

  private:
    QVector<RunFilterState> stack_;  // never empty; the last is current
};

}  // namespace trainscope::ui
