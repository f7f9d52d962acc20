// SPDX-License-Identifier: Apache-2.0
#include "views/source_panel.h"

#include <QDir>
#include <QFileInfo>

#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include "settings/app_settings.h"
#include "source/editor_command.h"
#include "source/project_root.h"
#include "source/source_viewer.h"
#include "views/layout.h"

namespace trainscope::ui {

SourcePanel::SourcePanel(QWidget* parent)
    : QWidget(parent),
      frames_(new QListWidget),
      viewer_(new SourceViewer),
      location_(new QLabel),
      open_in_editor_(new QPushButton(tr("Open in Editor"))),
      question_bar_(new QWidget),
      question_(new QLabel),
      allow_(new QPushButton(tr("Show Files"))) {
    question_->setWordWrap(true);
    auto* deny = new QPushButton(tr("Don't Show"));
    auto* question_layout = new QHBoxLayout(question_bar_);
    question_layout->setContentsMargins(4, 2, 4, 2);
    question_layout->addWidget(question_, 1);
    question_layout->addWidget(allow_);
    question_layout->addWidget(deny);
    question_bar_->hide();
    connect(allow_, &QPushButton::clicked, this, [this] {
        question_bar_->hide();
        emit sourceFoldersAnswered(true);
    });
    connect(deny, &QPushButton::clicked, this, [this] {
        question_bar_->hide();
        emit sourceFoldersAnswered(false);
    });
    frames_->setToolTip(tr("Stack frames of the selected entry, most specific first"));
    // A path too long for the list loses its leading folders, never its file and line.
    frames_->setTextElideMode(Qt::ElideLeft);
    location_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    location_->setWordWrap(true);
    open_in_editor_->setEnabled(false);
    open_in_editor_->setToolTip(tr("Runs the editor command from Settings"));

    auto* header = new QHBoxLayout;
    header->addWidget(location_, 1);
    header->addWidget(open_in_editor_);
    QWidget* source = withHeader(header, viewer_);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(frames_);
    split->addWidget(source);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(question_bar_);
    layout->addWidget(split);

    connect(frames_, &QListWidget::currentRowChanged, this, &SourcePanel::showFrame);
    connect(frames_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { showFrame(frames_->row(item)); });
    // A frame's context menu: the editor, or its location for a bug report or a terminal.
    frames_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(frames_, &QListWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const int row = frames_->indexAt(pos).row();
        if (row < 0 || row >= shown_.size())
            return;
        frames_->setCurrentRow(row);  // shows it, as a click would
        auto* menu = new QMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addAction(tr("&Open in Editor"), this, &SourcePanel::openInEditor)
            ->setEnabled(open_in_editor_->isEnabled());
        const FrameRow frame = shown_[row];
        menu->addAction(tr("&Copy Location"), this, [frame] {
            QGuiApplication::clipboard()->setText(
                QStringLiteral("%1:%2").arg(frame.file_path).arg(frame.line_number));
        });
        frames_context_menu_ = menu;
        menu->popup(frames_->viewport()->mapToGlobal(pos));
    });
    connect(open_in_editor_, &QPushButton::clicked, this, &SourcePanel::openInEditor);
}

void SourcePanel::setProjectRoot(const QString& root) {
    root_ = root;
    showFrame(frames_->currentRow());
}

void SourcePanel::setLibrariesAllowed(bool allowed) {
    libraries_allowed_ = allowed;
    showFrame(frames_->currentRow());
}

void SourcePanel::askAboutSourceFolders(const QString& question, bool now) {
    question_->setText(question);
    question_bar_->setVisible(now && !question.isEmpty());
    showFrame(frames_->currentRow());  // what the pane says of it depends on the question
}

void SourcePanel::showFrames(const QVector<FrameRow>& frames, const QString& unreadable,
                             int chosen) {
    shown_ = frames;
    const QSignalBlocker blocker(frames_);
    frames_->clear();
    for (const FrameRow& frame : frames) {
        const QString where = QStringLiteral("%1:%2").arg(frame.file_path).arg(frame.line_number);
        auto* item = new QListWidgetItem(where);
        item->setToolTip(where);
        if (frame.isLibrary()) {
            // Library code (torch, torchvision, ...) is context, not the user's code: dimmed.
            item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
            item->setToolTip(
                tr("%1\nLibrary frame, relative to %2").arg(where, frame.library_root));
        }
        frames_->addItem(item);
    }
    if (frames.isEmpty()) {
        if (!unreadable.isEmpty())
            frames_->addItem(tr("(the frames cannot be read)"));
        else if (no_frames_reason_.isEmpty())
            frames_->addItem(tr("(no frames in the project)"));
        else
            frames_->addItem(tr("(no frames in the project: %1)").arg(no_frames_reason_));
        frames_->item(0)->setFlags(Qt::NoItemFlags);
        frames_->item(0)->setToolTip(unreadable.isEmpty() ? no_frames_reason_ : unreadable);
        showFrame(-1);
        return;
    }
    // The most specific project frame is the one users look for; library frames lead to it.
    int first = 0;
    while (first < frames.size() && frames[first].isLibrary())
        ++first;
    first = first < frames.size() ? first : 0;
    if (chosen >= 0 && chosen < frames.size())
        first = chosen;
    frames_->setCurrentRow(first);
    showFrame(first);
}

void SourcePanel::clear() {
    shown_.clear();
    const QSignalBlocker blocker(frames_);
    frames_->clear();
    viewer_->clearFile();
    open_in_editor_->setEnabled(false);
    location_->clear();
}

void SourcePanel::showFrame(int row) {
    open_in_editor_->setEnabled(false);
    if (row < 0 || row >= shown_.size()) {
        viewer_->clearFile();
        location_->setText(row < 0 && !no_frames_reason_.isEmpty() && shown_.isEmpty()
                               ? tr("No project frames: %1").arg(no_frames_reason_)
                               : QString());
        return;
    }
    const FrameRow& frame = shown_[row];
    QString error;
    if (frame.isLibrary() && !libraries_allowed_) {
        error = tr("%1:%2 is library code in %3, a folder this report names; choose Show Files "
                   "above to show it.")
                    .arg(frame.file_path)
                    .arg(frame.line_number)
                    .arg(frame.library_root);
        // Asked again where it was answered "Don't Show": the answer is what shows it.
        question_bar_->setVisible(!question_->text().isEmpty());
    } else if (frame.isLibrary() &&
               !QFileInfo(QDir(frame.library_root).filePath(frame.file_path)).isFile()) {
        error = tr("%1:%2 is not on this machine (it was in %3 where the report was recorded).")
                    .arg(frame.file_path)
                    .arg(frame.line_number)
                    .arg(frame.library_root);
    } else {
        const ResolvedSource source =
            resolveSource(frame.isLibrary() ? frame.library_root : root_, frame.file_path);
        error = source.error;
        // Not here, but the report names other folders (the question above): the answer, not
        // another root, is what shows it.
        if (source.missing && !frame.isLibrary() && !question_bar_->isHidden())
            error = tr("%1 is not in %2, the report's own folder. The report names the folder "
                       "it was profiled in above: choose Show Files to show it from there.")
                        .arg(frame.file_path, root_);
        if (error.isEmpty() && viewer_->showFile(source.path, frame.line_number, &error)) {
            location_->setText(
                frame.isLibrary()
                    ? tr("%1:%2 (library code, read-only)").arg(source.path).arg(frame.line_number)
                    : QStringLiteral("%1:%2").arg(source.path).arg(frame.line_number));
            open_in_editor_->setEnabled(!frame.isLibrary());
            if (!frame.isLibrary())
                showLineCosts(frame.file_path, source.path);
            return;
        }
    }
    viewer_->showNothing();
    location_->setText(error);
}

void SourcePanel::showLineCosts(const QString& file, const QString& shown_path) {
    if (const auto it = costs_read_.constFind(file); it != costs_read_.cend()) {
        viewer_->setLineCosts(it->time_ms, it->bytes);
        return;
    }
    if (!line_costs_)
        return;
    line_costs_(file, this, [this, file, shown_path](const LineCosts& costs) {
        costs_read_.insert(file, costs);
        if (viewer_->currentFile() == shown_path)
            viewer_->setLineCosts(costs.time_ms, costs.bytes);
    });
}

QMenu* SourcePanel::framesContextMenu() const {
    return frames_context_menu_;
}

void SourcePanel::openInEditor() {
    QString error;
    if (!launchEditor(AppSettings::editorCommand(), viewer_->currentFile(),
                      viewer_->highlightedLine(), &error))
        location_->setText(error);
}

void SourcePanel::setMessage(const QString& message) {
    location_->setText(message);
}

QString SourcePanel::message() const {
    return location_->text();
}

}  // namespace trainscope::ui
