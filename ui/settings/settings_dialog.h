// Settings: the editor command behind "Open in Editor", typed or taken from a preset.
#pragma once

#include <QDialog>

class QComboBox;
class QLineEdit;

namespace trainscope::ui {

class SettingsDialog : public QDialog {
    Q_OBJECT
  public:
    explicit SettingsDialog(QWidget* parent = nullptr);
    QLineEdit* editorCommandField() const { return command_; }
    QComboBox* presetChoice() const { return presets_; }

    void accept() override;

  private:
    QComboBox* presets_;
    QLineEdit* command_;
};

}  // namespace trainscope::ui
