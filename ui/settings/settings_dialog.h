// SPDX-License-Identifier: Apache-2.0
// Settings: the interface language, and the editor command behind "Open in Editor", typed or
// taken from a preset.
#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;

namespace trainscope::ui {

class SettingsDialog : public QDialog {
    Q_OBJECT
  public:
    explicit SettingsDialog(QWidget* parent = nullptr);
    QLineEdit* editorCommandField() const { return command_; }
    QComboBox* presetChoice() const { return presets_; }
    QComboBox* languageChoice() const { return language_; }
    QComboBox* themeChoice() const { return theme_; }
    QLabel* restartNote() const { return restart_note_; }

    void accept() override;

  private:
    QComboBox* language_;
    QComboBox* theme_;
    QLabel* restart_note_;
    QComboBox* presets_;
    QLineEdit* command_;
};

}  // namespace trainscope::ui
