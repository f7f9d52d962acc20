// SPDX-License-Identifier: Apache-2.0
#include "views/elided_label.h"

namespace trainscope::ui {

void ElidedLabel::setFullText(const QString& text) {
    full_text_ = text;
    setToolTip(text);
    elide();
}

QSize ElidedLabel::minimumSizeHint() const {
    return {fontMetrics().horizontalAdvance(QStringLiteral("……")),
            QLabel::minimumSizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::elide() {
    setText(fontMetrics().elidedText(full_text_, Qt::ElideMiddle, qMax(0, width() - 2)));
}

}  // namespace trainscope::ui
