// SPDX-License-Identifier: Apache-2.0
// What the window shows with no report open: on a first launch, a one-click profile of the
// built-in example; always, New Profile, Open and the recent reports.
#pragma once

#include <QWidget>

class QListWidget;
class QPushButton;

namespace trainscope::ui {

class WelcomePage : public QWidget {
    Q_OBJECT
  public:
    explicit WelcomePage(QWidget* parent = nullptr);
    QPushButton* exampleButton() const { return example_; }
    QListWidget* recentList() const { return recent_; }

  signals:
    void exampleRequested();
    void newProfileRequested();
    void openRequested();
    void recentRequested(const QString& path);

  private:
    QPushButton* example_;
    QListWidget* recent_;
};

}  // namespace trainscope::ui
