// The bottom of the report browser: the selected entry's stack frames (most specific first)
// and the source behind the chosen frame, resolved against the project root, with
// "Open in Editor".
#pragma once

#include <QWidget>

#include "report/report_queries.h"

class QLabel;
class QListWidget;
class QPushButton;

namespace trainscope::ui {

class SourceViewer;

class SourcePanel : public QWidget {
    Q_OBJECT
  public:
    explicit SourcePanel(QWidget* parent = nullptr);

    void setProjectRoot(const QString& root);
    const QString& projectRoot() const { return root_; }
    // Lists the frames and shows the source of the most specific one.
    void showFrames(const QVector<FrameRow>& frames);

    QListWidget* framesList() const { return frames_; }
    SourceViewer* viewer() const { return viewer_; }
    QPushButton* openInEditorButton() const { return open_in_editor_; }
    // What the panel says about the shown frame: its location, or why it cannot be shown.
    QString message() const;

  private:
    void showFrame(int row);
    void openInEditor();

    QString root_;
    QVector<FrameRow> shown_;
    QListWidget* frames_;
    SourceViewer* viewer_;
    QLabel* location_;
    QPushButton* open_in_editor_;
};

}  // namespace trainscope::ui
