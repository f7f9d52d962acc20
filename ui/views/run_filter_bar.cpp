// SPDX-License-Identifier: Apache-2.0
#include "views/run_filter_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>

#include "views/run_filter.h"

namespace trainscope::ui {

RunFilterBar::RunFilterBar(RunFilter* filter, QWidget* parent)
    : QWidget(parent),
      filter_(filter),
      label_(new QLabel),
      back_(new QPushButton(tr("Back"))),
      reset_(new QPushButton(tr("Reset Filter"))) {
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    back_->setToolTip(tr("Undo the last range filter"));
    reset_->setToolTip(tr("Show every operation again"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(label_, 1);
    layout->addWidget(back_);
    layout->addWidget(reset_);
    connect(back_, &QPushButton::clicked, filter_, &RunFilter::back);
    connect(reset_, &QPushButton::clicked, filter_, &RunFilter::reset);
    connect(filter_, &RunFilter::changed, this, &RunFilterBar::showState);
    showState();
}

QString RunFilterBar::text() const {
    return label_->text();
}

void RunFilterBar::showState() {
    const RunFilterState& state = filter_->current();
    QStringList parts;
    if (state.entries) {
        const QLocale locale;
        parts << tr("operations %1–%2 (%3)")
                     .arg(locale.toString(state.entries->first),
                          locale.toString(state.entries->last), state.range_label);
    }
    if (!state.name.isEmpty())
        parts << tr("names containing “%1”").arg(state.name);
    label_->setText(tr("Filtered to %1").arg(parts.join(tr(" and "))));
    back_->setEnabled(filter_->canGoBack());
    setVisible(!parts.isEmpty());
}

}  // namespace trainscope::ui
