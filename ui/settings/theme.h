// SPDX-License-Identifier: Apache-2.0
// Light and dark: by default the app takes the palette the desktop gives it (a dark GNOME or
// KDE theme makes it dark); Settings can force a light or a dark one. Charts and custom-drawn
// views follow whichever palette is in force (isDark()).
#pragma once

#include <QColor>
#include <QString>

#include "trainscope/timeline_data.h"

class QPalette;

namespace trainscope::ui {

enum class Theme { System, Light, Dark };

// "system", "light", "dark" (AppSettings' values), and back (anything else: System).
QString themeCode(Theme theme);
Theme themeFromCode(const QString& code);
// Applies `theme` to the application: System restores the palette and style it started with;
// Light and Dark use Qt's Fusion style with a light or a dark palette.
void applyTheme(Theme theme);
bool isDark(const QPalette& palette);

// The colours of a call's kind (forward blue, backward orange, optimizer green, ...), the same
// in the timeline and in every chart, in either theme.
QColor categoryColor(SpanCategory category);

}  // namespace trainscope::ui
