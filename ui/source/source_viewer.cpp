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

QFont SourceViewer::sourceFont() {
    // The desktop's fixed font, but named families first: fontconfig's "monospace" for Chinese
    // is Droid Sans Fallback on Debian, whose Latin letters are proportional. DejaVu Sans Mono
    // (fonts-dejavu-core, a dependency) keeps code aligned; CJK characters fall back to a CJK
    // font, Noto Sans Mono CJK where it is installed.
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setFamilies({QStringLiteral("DejaVu Sans Mono"), QStringLiteral("Noto Sans Mono"),
                      QStringLiteral("Noto Sans Mono CJK SC"), font.family()});
    font.setStyleHint(QFont::Monospace);
    font.setFixedPitch(true);
    return font;
}

SourceViewer::SourceViewer(QWidget* parent)
    : QPlainTextEdit(parent), line_numbers_(new LineNumberArea(this)) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(sourceFont());
    clearFile();  // its placeholder
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
    if (path != file_) {
        setLineCosts({}, {});
        setLineWrapMode(QPlainTextEdit::NoWrap);
        setPlainText(QString::fromUtf8(file.readAll()));
    }
    file_ = path;
    line_ = line;
    highlight();
    return true;
}

void SourceViewer::clearFile() {
    setLineCosts({}, {});
    file_.clear();
    line_ = 0;
    setExtraSelections({});
    clear();
    setPlaceholderText(tr("Select a stack frame to see its source."));
}

void SourceViewer::showNothing() {
    clearFile();
    setPlaceholderText(QString());
}

void SourceViewer::showMessage(const QString& message) {
    clearFile();
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setPlainText(message);
}

QString SourceViewer::highlightedText() const {
    const QTextBlock block = document()->findBlockByNumber(line_ - 1);
    return block.isValid() ? block.text() : QString();
}

void SourceViewer::highlight() {
    const QTextBlock block = document()->findBlockByNumber(qMax(0, line_ - 1));
    QTextCursor cursor(block);
    QTextEdit::ExtraSelection selection;
    // The palette's own selection colours: readable in light and dark themes alike.
    selection.format.setBackground(palette().color(QPalette::Highlight));
    selection.format.setForeground(palette().color(QPalette::HighlightedText));
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

void SourceViewer::setLineCosts(const QHash<int, double>& time_ms,
                                const QHash<int, qint64>& bytes) {
    time_ms_ = time_ms;
    bytes_ = bytes;
    max_ms_ = 0;
    qint64 max_bytes = 0;
    for (double ms : time_ms_)
        max_ms_ = qMax(max_ms_, ms);
    for (qint64 size : bytes_)
        max_bytes = qMax(max_bytes, size);
    time_unit_ = timeUnit(max_ms_);
    byte_unit_ = byteUnit(double(max_bytes));
    time_width_ = bytes_width_ = 0;
    for (auto it = time_ms_.cbegin(); it != time_ms_.cend(); ++it)
        time_width_ = qMax(time_width_, fontMetrics().horizontalAdvance(timeText(it.key())) + 10);
    for (auto it = bytes_.cbegin(); it != bytes_.cend(); ++it)
        bytes_width_ =
            qMax(bytes_width_, fontMetrics().horizontalAdvance(bytesText(it.key())) + 10);
    updateMargin();
    placeLineNumbers();
    line_numbers_->update();
}

QString SourceViewer::timeText(int line) const {
    const auto it = time_ms_.constFind(line);
    return it == time_ms_.cend()
               ? QString()
               : QStringLiteral("%1 %2").arg(inColumn(*it, time_unit_), time_unit_.name);
}

QString SourceViewer::bytesText(int line) const {
    const auto it = bytes_.constFind(line);
    return it == bytes_.cend()
               ? QString()
               : QStringLiteral("%1 %2").arg(inColumn(double(*it), byte_unit_), byte_unit_.name);
}

QString SourceViewer::costText(int line) const {
    QStringList parts;
    if (!timeText(line).isEmpty())
        parts << timeText(line);
    if (!bytesText(line).isEmpty())
        parts << bytesText(line);
    return parts.join(QStringLiteral("  "));
}

int SourceViewer::costColumnsWidth() const {
    return time_width_ + bytes_width_;
}

int SourceViewer::lineNumberAreaWidth() const {
    const int digits = QString::number(qMax(1, blockCount())).size();
    return costColumnsWidth() + 12 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

void SourceViewer::updateMargin() {
    setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
}

void SourceViewer::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    placeLineNumbers();
}

// The line number area fills the left margin, from the top of the viewer to its bottom.
void SourceViewer::placeLineNumbers() {
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
            // The line's costs, left of its number; the time's cell tinted by its share.
            painter.setPen(palette().color(QPalette::Text));
            const QString time = timeText(number);
            if (!time.isEmpty()) {
                QColor tint = palette().color(QPalette::Highlight);
                tint.setAlphaF(float(0.12 + 0.5 * time_ms_.value(number) / qMax(max_ms_, 1e-12)));
                painter.fillRect(0, top, time_width_ - 4, bottom - top, tint);
                painter.drawText(0, top, time_width_ - 8, fontMetrics().height(), Qt::AlignRight,
                                 time);
            }
            const QString bytes = bytesText(number);
            if (!bytes.isEmpty())
                painter.drawText(time_width_, top, bytes_width_ - 8, fontMetrics().height(),
                                 Qt::AlignRight, bytes);
        }
        block = block.next();
        top = bottom;
    }
}

}  // namespace trainscope::ui
