// SPDX-License-Identifier: Apache-2.0
// The summary of one rank of several (TimelineSummaryPage), chosen in one place: a tab per rank
// overflowed the tab bar at eight ranks, and each read its file as the window opened. A rank's
// file is read when it is first shown: chosen, with the tab in front.
#pragma once

#include <QStringList>
#include <QWidget>

class QComboBox;
class QStackedWidget;

namespace trainscope::ui {

class TimelineSummaryPage;

class RankSummaryPage : public QWidget {
    Q_OBJECT
  public:
    // `timelines`: one file per rank, in the order the chooser lists them.
    explicit RankSummaryPage(const QStringList& timelines, QWidget* parent = nullptr);

    QComboBox* rankChooser() const { return chooser_; }
    // The chosen rank's summary (made when it was first shown; null before).
    TimelineSummaryPage* shownPage() const;

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    void show(int index);

    QStringList timelines_;
    QComboBox* chooser_;
    QStackedWidget* pages_;
    QVector<TimelineSummaryPage*> made_;  // by index into timelines_; null until chosen
};

}  // namespace trainscope::ui
