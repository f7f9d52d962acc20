// SPDX-License-Identifier: Apache-2.0
// The ranks of one distributed job side by side (trainscope/cluster.h), from their timelines:
// each rank's step broken down into computation, communication, overlap and idle time, the
// slowest rank, the collectives in which the others wait for it, and each step across the
// ranks. The files are read once, by the Timeline tab's worker, which hands over what the
// summary needs of each rank (summarize()).
#pragma once

#include <QLabel>
#include <QStringList>
#include <QTableWidget>
#include <QWidget>
#include <memory>

#include "trainscope/cluster.h"
#include "views/settling_page.h"

namespace trainscope::ui {

// The summary, or why there is none.
struct RanksLoad {
    std::shared_ptr<const ClusterSummary> summary;
    QString error;
};

class RanksPage : public QWidget, public SettlingPage {
    Q_OBJECT
  public:
    explicit RanksPage(const QStringList& timelines, QWidget* parent = nullptr);

    // Sums up the ranks read (or says why they could not be).
    void summarize(const std::shared_ptr<const std::vector<RankFacts>>& facts,
                   const QString& error);

    bool loaded() const { return loaded_; }
    bool isSettled() const override { return loaded_; }
    QLabel* heading() const { return heading_; }
    QTableWidget* ranksTable() const { return ranks_; }
    QTableWidget* waitsTable() const { return waits_; }
    QTableWidget* stepsTable() const { return steps_; }

  signals:
    void loadFinished(const QString& error);  // empty: shown

  private:
    void display(const RanksLoad& load);

    bool loaded_ = false;
    QLabel* heading_;
    QTableWidget* ranks_;
    QTableWidget* waits_;
    QTableWidget* steps_;
};

}  // namespace trainscope::ui
