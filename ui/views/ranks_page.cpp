// SPDX-License-Identifier: Apache-2.0
#include "views/ranks_page.h"

#include <QLocale>
#include <QVBoxLayout>
#include <algorithm>

#include "views/layout.h"

namespace trainscope::ui {
namespace {

QString ms(double value) {
    return QObject::tr("%1 ms").arg(QLocale().toString(value, 'f', 3));
}

// A row of figures: numbers right-aligned, as in the report tables; `strong` in bold.
void addFiguresRow(QTableWidget* table, const QStringList& cells, bool strong = false) {
    const int row = table->rowCount();
    table->insertRow(row);
    for (int column = 0; column < cells.size(); ++column) {
        auto* item = new QTableWidgetItem(cells[column]);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (strong) {
            QFont font = item->font();
            font.setBold(true);
            item->setFont(font);
        }
        table->setItem(row, column, item);
    }
}

}  // namespace

RanksPage::RanksPage(const QStringList& timelines, QWidget* parent)
    : QWidget(parent),
      heading_(
          new QLabel(tr("Reading the timelines of %n ranks…", nullptr, int(timelines.size())))),
      ranks_(figuresTable({tr("Rank"), tr("Steps"), tr("Median step"), tr("Memory step"),
                           tr("Computation"), tr("Communication"), tr("Overlapped"), tr("Idle")})),
      waits_(
          figuresTable({tr("Collective"), tr("Name"), tr("Longest wait"), tr("Waiting for rank")})),
      steps_(figuresTable({tr("Step"), tr("Shortest"), tr("Longest"), tr("Longest on rank"),
                           tr("Held up by rank"), tr("Others waited for it")})) {
    heading_->setWordWrap(true);
    heading_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addWidget(ranks_, 2);
    layout->addWidget(new QLabel(tr("Collectives the others wait in, the longest wait first")));
    layout->addWidget(waits_, 1);
    layout->addWidget(new QLabel(tr("Steps across the ranks, matched by number")));
    layout->addWidget(steps_, 1);
}

void RanksPage::summarize(const std::shared_ptr<const std::vector<RankFacts>>& facts,
                          const QString& error) {
    RanksLoad load;
    load.error = error;
    if (facts && error.isEmpty()) {
        try {
            load.summary = std::make_shared<const ClusterSummary>(summarizeRanks(*facts));
        } catch (const std::exception& e) {
            load.error = QString::fromStdString(e.what());
        }
    }
    display(load);
}

void RanksPage::display(const RanksLoad& load) {
    loaded_ = true;
    if (!load.summary) {
        heading_->setText(
            tr("These timelines cannot be summed up as the ranks of one job: %1").arg(load.error));
        emit loadFinished(load.error);
        return;
    }
    const ClusterSummary& s = *load.summary;
    QStringList lines;
    if (s.slowestStandsOut())
        lines << tr("%n ranks. Slowest: rank %1, with %2 more time outside communication than the "
                    "other ranks (their median): what they spend waiting for it.",
                    nullptr, int(s.ranks.size()))
                     .arg(s.slowest_rank)
                     .arg(ms(s.slowest_by_ms));
    else
        lines << tr("%n ranks. No rank stands out: rank %1 has the most time outside "
                    "communication, %2 more than the others (their median), within how much a "
                    "rank's steps vary (%3).",
                    nullptr, int(s.ranks.size()))
                     .arg(s.slowest_rank)
                     .arg(ms(s.slowest_by_ms), ms(s.step_spread_ms));
    lines << tr(
        "Each rank's clock is its own: steps are matched by number and collectives by what "
        "they are (operation, inputs) and their order among those.");
    lines << (s.onDevice()
                  ? tr("The breakdown is of each rank's first step as its GPU ran it: computation "
                       "its kernels, copies and sets, communication its NCCL kernels, each "
                       "instant once.")
                  : tr("The breakdown is of the memory step (the step whose calls the timelines "
                       "hold), with the memory meter's cost."));
    const StepsHeldUp held = s.heldUp();
    for (const auto& [rank, steps] : held.by_rank)
        lines << tr("Rank %1 held up %2 of %n steps: the others waited for it in the step's "
                    "collectives, at least a tenth of the step, in more steps than chance.",
                    nullptr, int(held.compared))
                     .arg(rank)
                     .arg(steps);
    if (held.compared > 0 && held.by_rank.empty())
        lines << tr(
            "No rank held the steps up: the rank the others waited for changed from step "
            "to step.");
    for (const std::string& note : s.notes)
        lines << QString::fromStdString(note);
    heading_->setText(lines.join(QLatin1Char('\n')));
    ranks_->horizontalHeaderItem(3)->setText(s.onDevice() ? tr("First step") : tr("Memory step"));
    for (const RankBreakdown& r : s.ranks)
        addFiguresRow(ranks_,
                      {QString::number(r.rank), QLocale().toString(qint64(r.steps)),
                       ms(r.median_step_ms), ms(r.step_ms), ms(r.computation_ms),
                       ms(r.communication_ms), ms(r.overlap_ms), ms(r.idle_ms)},
                      r.rank == s.slowest_rank);
    for (const CollectiveWait& w : s.waits)
        addFiguresRow(waits_, {QString::number(w.ordinal + 1), QString::fromStdString(w.name),
                               ms(w.longest_wait_ms), QString::number(w.last_rank)});
    for (size_t i = 0; i < s.steps.size(); ++i) {
        const StepAcrossRanks& step = s.steps[i];
        const int held_by = i < s.stragglers.size() ? s.stragglers[i].rank : -1;
        double shortest = -1, longest = -1;
        for (double value : step.ms) {
            if (value < 0)
                continue;
            shortest = shortest < 0 ? value : std::min(shortest, value);
            longest = std::max(longest, value);
        }
        addFiguresRow(steps_, {QLocale().toString(qint64(step.id)), ms(shortest), ms(longest),
                               QString::number(step.slowest_rank),
                               held_by >= 0 ? QString::number(held_by) : QStringLiteral("–"),
                               held_by >= 0 ? ms(s.stragglers[i].waited_ms) : QStringLiteral("–")});
    }
    for (QTableWidget* table : {ranks_, waits_, steps_})
        table->resizeColumnsToContents();
    emit loadFinished({});
}

}  // namespace trainscope::ui
