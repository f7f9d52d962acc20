// SPDX-License-Identifier: Apache-2.0
#include "settings/settings_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

#include "i18n/language.h"
#include "settings/app_settings.h"
#include "settings/theme.h"
#include "source/editor_command.h"

namespace trainscope::ui {

SettingsDialog::SettingsDialog(QWidget* parent)
    : QDialog(parent),
      language_(new QComboBox),
      theme_(new QComboBox),
      restart_note_(new QLabel(tr("The new language applies when TrainScope next starts."))),
      presets_(new QComboBox),
      command_(new QLineEdit) {
    setWindowTitle(tr("Settings"));
    language_->addItem(tr("System default"), QString());
    for (const Language& language : availableLanguages())
        language_->addItem(language.native_name, language.code);
    const int chosen = language_->findData(AppSettings::language());
    language_->setCurrentIndex(chosen < 0 ? 0 : chosen);
    // Widgets are translated when they are made, so a change shows from the next start on.
    restart_note_->setWordWrap(true);
    restart_note_->setVisible(false);
    connect(language_, &QComboBox::currentIndexChanged, this, [this] {
        restart_note_->setVisible(language_->currentData().toString() != AppSettings::language());
    });

    theme_->addItem(tr("As the desktop"), themeCode(Theme::System));
    theme_->addItem(tr("Light"), themeCode(Theme::Light));
    theme_->addItem(tr("Dark"), themeCode(Theme::Dark));
    theme_->setCurrentIndex(qMax(0, theme_->findData(AppSettings::theme())));

    presets_->addItem(tr("Custom"));
    for (const EditorPreset& preset : editorPresets())
        presets_->addItem(preset.name, preset.command);
    command_->setText(AppSettings::editorCommand());
    command_->setMinimumWidth(360);
    const int preset = presets_->findData(command_->text());
    presets_->setCurrentIndex(preset < 0 ? 0 : preset);
    connect(presets_, &QComboBox::activated, this, [this](int index) {
        if (index > 0)
            command_->setText(presets_->itemData(index).toString());
    });
    connect(command_, &QLineEdit::textEdited, this, [this](const QString& text) {
        const int match = presets_->findData(text);
        presets_->setCurrentIndex(match < 0 ? 0 : match);
    });

    auto* hint = new QLabel(tr("%f is replaced by the file, %l by the line, %c by the column."));
    hint->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Language:"), language_);
    form->addRow(restart_note_);
    form->addRow(tr("Theme:"), theme_);
    form->addRow(tr("Editor:"), presets_);
    form->addRow(tr("Editor command:"), command_);
    form->addRow(hint);
    form->addRow(buttons);
}

void SettingsDialog::accept() {
    AppSettings::setEditorCommand(command_->text().trimmed());
    AppSettings::setLanguage(language_->currentData().toString());
    const QString theme = theme_->currentData().toString();
    if (theme != AppSettings::theme()) {
        AppSettings::setTheme(theme);
        applyTheme(themeFromCode(theme));  // at once: widgets and charts follow the palette
    }
    QDialog::accept();
}

}  // namespace trainscope::ui
