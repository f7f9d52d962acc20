// SPDX-License-Identifier: Apache-2.0
#include "source/source_viewer.h"

#include <QFile>
#include <QFontDatabase>
#include <QPainter>
#include <QTextBlock>
#include <QTimer>

namespace trainscope::ui {
namespace {

// Larger files are refused rather than loaded into the viewer.
constexpr qint64 kMaxSourceBytes = 16 * 1024 * 1024;

class LineNumberArea : public QWidget {
  public:
    explicit LineNumberArea(SourceViewer* viewer) : QWidget(viewer), viewer_(viewer) {}
    QSize sizeHint() const override { return {viewer_->lineNumberAreaWidth(), 0}; }

  protected:
    void paintEvent(QPaintEvent* event) override { viewer_->paintLineNumbers(event); }

  private:
    SourceViewer* viewer_;
};

}  // namespace

SourceViewer::SourceViewer(QWidget* parent)
    : QPlainTextEdit(parent), line_numbers_(new LineNumberArea(this)) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setPlaceholderText(tr("Select a stack frame to see its source."));
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateMargin(); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy)
            line_numbers_->scroll(0, dy);
        else
            line_numbers_->update(0, rect.y(), line_numbers_->width(), rect.height());
    });
    updateMargin();
}

bool SourceViewer::showFile(const QString& path, int line, QString* error) {
    QFile file(path);
    if (file.size() > kMaxSourceBytes) {
        *error = tr("%1 is too large to show (over 16 MiB).").arg(path);
        clearFile();
        return false;
    }
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = tr("Cannot read %1: %2").arg(path, file.errorString());
        clearFile();
        return false;
    }
    if (path != file_)
        setPlainText(QString::fromUtf8(file.readAll()));
    file_ = path;
    line_ = line;
    highlight();
    return true;
}

void SourceViewer::clearFile() {
    file_.clear();
    line_ = 0;
    setExtraSelections({});
    clear();
}

QString SourceViewer::highlightedText() const {
    const QTextBlock block = document()->findBlockByNumber(line_ - 1);
    return block.isValid() ? block.text() : QString();
}

void SourceViewer::highlight() {
    const QTextBlock block = document()->findBlockByNumber(qMax(0, line_ - 1));
    QTextCursor cursor(block);
    QTextEdit::ExtraSelection selection;
    selection.format.setBackground(palette().color(QPalette::Highlight).lighter(160));
    selection.format.setProperty(QTextFormat::FullWidthSelection, true);
    selection.cursor = cursor;
    setExtraSelections({selection});
    setTextCursor(cursor);
    centerCursor();
    // A viewer not laid out yet has no height to centre in: centre again once it has.
    QTimer::singleShot(0, this, [this] {
        if (line_ > 0)
            centerCursor();
    });
}

int SourceViewer::lineNumberAreaWidth() const {
    const int digits = QString::number(qMax(1, blockCount())).size();
    return 12 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

void SourceViewer::updateMargin() {
    setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
}

void SourceViewer::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect area = contentsRect();
    line_numbers_->setGeometry(area.left(), area.top(), lineNumberAreaWidth(), area.height());
}

void SourceViewer::paintLineNumbers(QPaintEvent* event) {
    QPainter painter(line_numbers_);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int bottom = top + qRound(blockBoundingRect(block).height());
        if (block.isVisible() && bottom >= event->rect().top()) {
            const int number = block.blockNumber() + 1;
            QFont font = painter.font();
            font.setBold(number == line_);
            painter.setFont(font);
            painter.setPen(number == line_ ? palette().color(QPalette::Text)
                                           : palette().color(QPalette::PlaceholderText));
            painter.drawText(0, top, line_numbers_->width() - 6, fontMetrics().height(),
                             Qt::AlignRight, QString::number(number));
        }
        block = block.next();
        top = bottom;
    }
}

}  // namespace trainscope::ui
