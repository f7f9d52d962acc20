// SPDX-License-Identifier: Apache-2.0
// A one-line label that shortens its text in the middle to the width it is given (a path keeps
// its folder's start and its file's name), with the whole text as its tooltip.
#pragma once

#include <QLabel>

namespace trainscope::ui {

class ElidedLabel : public QLabel {
    Q_OBJECT
  public:
    explicit ElidedLabel(QWidget* parent = nullptr) : QLabel(parent) {}
    void setFullText(const QString& text);
    const QString& fullText() const { return full_text_; }
    QSize minimumSizeHint() const override;

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void elide();
    QString full_text_;
};

}  // namespace trainscope::ui
