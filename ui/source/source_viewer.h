// SPDX-License-Identifier: Apache-2.0
// A read-only source viewer: line numbers in a margin, one highlighted line, scrolled to it.
#pragma once

#include <QPlainTextEdit>

namespace trainscope::ui {

class SourceViewer : public QPlainTextEdit {
    Q_OBJECT
  public:
    explicit SourceViewer(QWidget* parent = nullptr);

    // Loads `path` and highlights `line` (1-based). Returns false and sets `error` when the
    // file cannot be read; the viewer is then cleared.
    bool showFile(const QString& path, int line, QString* error);
    void clearFile();
    const QString& currentFile() const { return file_; }
    int highlightedLine() const { return line_; }
    QString highlightedText() const;

    int lineNumberAreaWidth() const;
    void paintLineNumbers(QPaintEvent* event);

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void updateMargin();
    void highlight();

    QWidget* line_numbers_;
    QString file_;
    int line_ = 0;
};

}  // namespace trainscope::ui
