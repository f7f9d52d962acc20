// SPDX-License-Identifier: Apache-2.0
#include "views/run_filter_field.h"

#include <QTimer>

#include "views/run_filter.h"

namespace trainscope::ui {

RunFilterField::RunFilterField(RunFilter* filter, QWidget* parent)
    : QLineEdit(parent), filter_(filter), delay_(new QTimer(this)) {
    setObjectName(QStringLiteral("find"));
    setPlaceholderText(tr("Filter operations by name"));
    setClearButtonEnabled(true);
    setText(filter_->current().name);
    delay_->setSingleShot(true);
    delay_->setInterval(kDelayMs);
    connect(this, &QLineEdit::textChanged, delay_, qOverload<>(&QTimer::start));
    connect(delay_, &QTimer::timeout, this, [this] { filter_->setName(text()); });
    connect(filter_, &RunFilter::changed, this, &RunFilterField::followFilter);
}

void RunFilterField::followFilter() {
    const QString& name = filter_->current().name;
    if (text() != name && !delay_->isActive()) {
        const QSignalBlocker blocker(this);  // set from elsewhere: no new delay
        setText(name);
    }
}

}  // namespace trainscope::ui
