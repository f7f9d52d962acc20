// SPDX-License-Identifier: Apache-2.0
#include "views/rank_summary_page.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "views/timeline_summary_page.h"

namespace trainscope::ui {

RankSummaryPage::RankSummaryPage(const QStringList& timelines, QWidget* parent)
    : QWidget(parent),
      timelines_(timelines),
      chooser_(new QComboBox),
      pages_(new QStackedWidget),
      made_(timelines.size(), nullptr) {
    for (const QString& path : timelines) {
        chooser_->addItem(QFileInfo(path).fileName());
        chooser_->setItemData(chooser_->count() - 1, path, Qt::ToolTipRole);
    }
    auto* label = new QLabel(tr("&Rank:"));
    label->setBuddy(chooser_);
    auto* bar = new QHBoxLayout;
    bar->addWidget(label);
    bar->addWidget(chooser_);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(pages_, 1);
    connect(chooser_, &QComboBox::currentIndexChanged, this, &RankSummaryPage::show);
}

void RankSummaryPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    show(chooser_->currentIndex());  // behind another tab, no file was read
}

TimelineSummaryPage* RankSummaryPage::shownPage() const {
    return qobject_cast<TimelineSummaryPage*>(pages_->currentWidget());
}

void RankSummaryPage::show(int index) {
    if (index < 0 || index >= timelines_.size() || !isVisible())
        return;
    if (!made_[index]) {
        made_[index] = new TimelineSummaryPage(timelines_[index]);
        pages_->addWidget(made_[index]);
    }
    pages_->setCurrentWidget(made_[index]);
}

}  // namespace trainscope::ui
