#include "views/source_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
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
      open_in_editor_(new QPushButton(tr("Open in Editor"))) {
    frames_->setToolTip(tr("Stack frames of the selected entry, most specific first"));
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
    layout->addWidget(split);

    connect(frames_, &QListWidget::currentRowChanged, this, &SourcePanel::showFrame);
    connect(frames_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { showFrame(frames_->row(item)); });
    connect(open_in_editor_, &QPushButton::clicked, this, &SourcePanel::openInEditor);
}

void SourcePanel::setProjectRoot(const QString& root) {
    root_ = root;
    showFrame(frames_->currentRow());
}

void SourcePanel::showFrames(const QVector<FrameRow>& frames) {
    shown_ = frames;
    const QSignalBlocker blocker(frames_);
    frames_->clear();
    for (const FrameRow& frame : frames)
        frames_->addItem(QStringLiteral("%1:%2").arg(frame.file_path).arg(frame.line_number));
    if (frames.isEmpty()) {
        frames_->addItem(tr("(no frames in the project)"));
        frames_->item(0)->setFlags(Qt::NoItemFlags);
        showFrame(-1);
        return;
    }
    frames_->setCurrentRow(0);
    showFrame(0);
}

void SourcePanel::showFrame(int row) {
    open_in_editor_->setEnabled(false);
    if (row < 0 || row >= shown_.size()) {
        viewer_->clearFile();
        location_->clear();
        return;
    }
    const FrameRow& frame = shown_[row];
    const ResolvedSource source = resolveSource(root_, frame.file_path);
    QString error = source.error;
    if (error.isEmpty() && viewer_->showFile(source.path, frame.line_number, &error)) {
        location_->setText(QStringLiteral("%1:%2").arg(source.path).arg(frame.line_number));
        open_in_editor_->setEnabled(true);
        return;
    }
    viewer_->clearFile();
    location_->setText(error);
}

void SourcePanel::openInEditor() {
    QString error;
    if (!launchEditor(AppSettings::editorCommand(), viewer_->currentFile(),
                      viewer_->highlightedLine(), &error))
        location_->setText(error);
}

QString SourcePanel::message() const {
    return location_->text();
}

}  // namespace trainscope::ui
