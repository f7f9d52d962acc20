// SPDX-License-Identifier: Apache-2.0
// Marks an English text of the engine that the desktop app shows (a built-in model's
// description, what a parameter expects). The engine uses the text as is; lupdate collects it
// under `context` (translations/CMakeLists.txt aliases QT_TRANSLATE_NOOP to this macro), and
// the app looks it up there (engineText() in ui/i18n). The core stays free of Qt.
#pragma once

#define TRAINSCOPE_TR(context, text) text
