// SPDX-License-Identifier: Apache-2.0
// The field where the run's name filter is typed (RunFilter::setName once typing pauses), kept
// showing the filter when it is set elsewhere (another tab's field, Reset). Its object name is
// "find": Ctrl+F goes to the find field of the tab in front.
#pragma once

#include <QLineEdit>

class QTimer;

namespace trainscope::ui {

class RunFilter;

class RunFilterField : public QLineEdit {
    Q_OBJECT
  public:
    static constexpr int kDelayMs = 300;
    explicit RunFilterField(RunFilter* filter, QWidget* parent = nullptr);

  private:
    void followFilter();
    RunFilter* filter_;
    QTimer* delay_;
};

}  // namespace trainscope::ui
