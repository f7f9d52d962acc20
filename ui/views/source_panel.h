// SPDX-License-Identifier: Apache-2.0
// The bottom of the report browser: the selected entry's stack frames (most specific first)
// and the source behind the chosen frame, resolved against the project root, with
// "Open in Editor".
#pragma once

#include <QHash>
#include <QPointer>
#include <QWidget>
#include <functional>

#include "reading/report_queries.h"

class QLabel;
class QListWidget;
class QMenu;
class QPushButton;

namespace trainscope::ui {

class SourceViewer;

class SourcePanel : public QWidget {
    Q_OBJECT
  public:
    explicit SourcePanel(QWidget* parent = nullptr);

    void setProjectRoot(const QString& root);
    const QString& projectRoot() const { return root_; }
    // Whether library frames may be read from the library folders the report recorded (the
    // user allowed the report's source folders). They are only ever shown, never edited.
    void setLibrariesAllowed(bool allowed);
    // Asks, in a bar above the frames, whether to show files from the folders the report
    // recorded; the answer comes as sourceFoldersAnswered(). An empty question hides the bar.
    // Not `now` (answered "Don't Show" before): the bar shows when a frame in those folders is
    // chosen, since only the answer shows it.
    void askAboutSourceFolders(const QString& question, bool now = true);
    QWidget* questionBar() const { return question_bar_; }
    QPushButton* allowButton() const { return allow_; }
    // Why the report has no project frames, shown when an entry has none.
    void setNoFramesReason(const QString& reason) { no_frames_reason_ = reason; }
    // How the panel reads the costs of a project file's lines for the viewer's margin (the
    // report browser reads them from the run); unset, the margin shows line numbers alone.
    using LineCostReader = std::function<void(const QString& file, QObject* receiver,
                                              std::function<void(const LineCosts&)> done)>;
    void setLineCostReader(LineCostReader reader) { line_costs_ = std::move(reader); }
    // Lists the frames and shows the source of the most specific one.
    // `unreadable`: why the frames could not be read, said in the list in place of them.
    // Selects frame `chosen`, or by default the first project frame (else the first frame).
    void showFrames(const QVector<FrameRow>& frames, const QString& unreadable = {},
                    int chosen = -1);
    // Shows nothing: the current tab has no selection.
    void clear();

    QListWidget* framesList() const { return frames_; }
    // The frames list's context menu shown last (for tests; null once closed).
    QMenu* framesContextMenu() const;
    SourceViewer* viewer() const { return viewer_; }
    QPushButton* openInEditorButton() const { return open_in_editor_; }
    // What the panel says about the shown frame: its location, or why it cannot be shown.
    QString message() const;
    void setMessage(const QString& message);

  signals:
    void sourceFoldersAnswered(bool allowed);

  private:
    void showFrame(int row);
    void showLineCosts(const QString& file, const QString& shown_path);
    void openInEditor();

    QString root_;
    bool libraries_allowed_ = false;
    QString no_frames_reason_;
    QVector<FrameRow> shown_;
    LineCostReader line_costs_;
    QHash<QString, LineCosts> costs_read_;  // by project file, as the frames name it
    QListWidget* frames_;
    QPointer<QMenu> frames_context_menu_;
    SourceViewer* viewer_;
    QLabel* location_;
    QPushButton* open_in_editor_;
    QWidget* question_bar_;
    QLabel* question_;
    QPushButton* allow_;
};

}  // namespace trainscope::ui
