// SPDX-License-Identifier: Apache-2.0
// Help › TrainScope Manual (F1: docs/manual.md, built into the app) and Help › Keyboard
// Shortcuts (made from the window's own actions, so that it always says what the keys do).
#pragma once

#include <QList>
#include <QString>

class QAction;
class QWidget;

namespace trainscope::ui {

// The manual's Markdown, as built in.
QString manualText();
void showManual(QWidget* parent);
// "Ctrl+N<TAB>New Profile" lines for every action with a shortcut, mnemonics removed.
QString shortcutsText(const QList<QAction*>& actions);
void showShortcuts(QWidget* parent, const QList<QAction*>& actions);

}  // namespace trainscope::ui
