// SPDX-License-Identifier: Apache-2.0
// A read-only source viewer: line numbers in a margin, one highlighted line, scrolled to it,
// and, as Hotspot and Skyline annotate code, each line's time and memory in the margin beside
// its number (a tint behind the time shows the line's share of the file's costliest).
#pragma once

#include <QHash>
#include <QPlainTextEdit>

#include "reading/units.h"

namespace trainscope::ui {

class SourceViewer : public QPlainTextEdit {
    Q_OBJECT
  public:
    explicit SourceViewer(QWidget* parent = nullptr);
    // A monospaced font in every interface language.
    static QFont sourceFont();

    // Loads `path` and highlights `line` (1-based). Returns false and sets `error` when the
    // file cannot be read; the viewer is then cleared.
    bool showFile(const QString& path, int line, QString* error);
    void clearFile();
    // Empty, without the placeholder that asks for a frame: a frame is chosen whose source
    // cannot be shown (the panel says why).
    void showNothing();
    // Shows `message` in place of a file, wrapped to the viewer's width (a file is not).
    void showMessage(const QString& message);
    const QString& currentFile() const { return file_; }
    int highlightedLine() const { return line_; }
    QString highlightedText() const;
    // The costs of the shown file's lines (empty: no cost columns); showing another file
    // clears them.
    void setLineCosts(const QHash<int, double>& time_ms, const QHash<int, qint64>& bytes);
    // What the margin shows for `line` beside its number: "4.000 ms  4.9 KiB", or empty.
    QString costText(int line) const;

    int lineNumberAreaWidth() const;
    void paintLineNumbers(QPaintEvent* event);

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void updateMargin();
    void placeLineNumbers();
    void highlight();
    int costColumnsWidth() const;
    QString timeText(int line) const;
    QString bytesText(int line) const;

    QWidget* line_numbers_;
    QString file_;
    int line_ = 0;
    QHash<int, double> time_ms_;
    QHash<int, qint64> bytes_;
    double max_ms_ = 0;
    Unit time_unit_, byte_unit_;
    int time_width_ = 0, bytes_width_ = 0;  // of each cost column, in pixels
};

}  // namespace trainscope::ui
