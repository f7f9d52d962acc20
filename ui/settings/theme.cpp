// SPDX-License-Identifier: Apache-2.0
#include "settings/theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace trainscope::ui {
namespace {

QPalette darkPalette() {
    QPalette p;
    const QColor window(45, 45, 48), base(30, 30, 32), text(225, 225, 225);
    const QColor disabled(130, 130, 130), highlight(42, 130, 218);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(40, 40, 43));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, highlight.lighter(130));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, window.lighter(150));
    p.setColor(QPalette::Midlight, window.lighter(125));
    p.setColor(QPalette::Mid, window.darker(120));
    p.setColor(QPalette::Dark, window.darker(150));
    p.setColor(QPalette::Shadow, Qt::black);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

struct Startup {
    QString style;
    QPalette palette;
};

// What the application started with, for System (kept on the first change).
Startup& startup() {
    static Startup state{QApplication::style()->name(), QApplication::palette()};
    return state;
}

}  // namespace

QString themeCode(Theme theme) {
    switch (theme) {
        case Theme::Light:
            return QStringLiteral("light");
        case Theme::Dark:
            return QStringLiteral("dark");
        case Theme::System:
            break;
    }
    return QStringLiteral("system");
}

Theme themeFromCode(const QString& code) {
    if (code == QLatin1String("light"))
        return Theme::Light;
    if (code == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

void applyTheme(Theme theme) {
    const Startup& start = startup();
    if (theme == Theme::System) {
        QApplication::setStyle(QStyleFactory::create(start.style));
        QApplication::setPalette(start.palette);
        return;
    }
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(theme == Theme::Dark ? darkPalette()
                                                  : QApplication::style()->standardPalette());
}

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor categoryColor(SpanCategory category) {
    switch (category) {
        case SpanCategory::Forward:
            return QColor(0x4e, 0x79, 0xa7);
        case SpanCategory::Backward:
            return QColor(0xf2, 0x8e, 0x2b);
        case SpanCategory::Optimizer:
            return QColor(0x59, 0xa1, 0x4f);
        case SpanCategory::Other:
            return QColor(0xba, 0xb0, 0xac);
        case SpanCategory::Communication:
            return QColor(0x76, 0xb7, 0xb2);
        case SpanCategory::Cann:
            return QColor(0xb0, 0x7a, 0xa1);
        case SpanCategory::Device:
            return QColor(0xe1, 0x57, 0x59);
    }
    return Qt::gray;
}

}  // namespace trainscope::ui
