// SPDX-License-Identifier: Apache-2.0
// A bar that says which filter of the run is in force, with Back and Reset; hidden when none
// is. The pages that follow the filter show one, so that a shorter table is never a mystery.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace trainscope::ui {

class RunFilter;

class RunFilterBar : public QWidget {
    Q_OBJECT
  public:
    explicit RunFilterBar(RunFilter* filter, QWidget* parent = nullptr);
    QString text() const;
    QPushButton* backButton() const { return back_; }
    QPushButton* resetButton() const { return reset_; }

  private:
    void showState();
    RunFilter* filter_;
    QLabel* label_;
    QPushButton* back_;
    QPushButton* reset_;
};

}  // namespace trainscope::ui
