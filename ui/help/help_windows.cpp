// SPDX-License-Identifier: Apache-2.0
#include "help/help_windows.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace trainscope::ui {
namespace {

QDialog* textDialog(QWidget* parent, const QString& title, QTextBrowser* text) {
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(720, 560);
    return dialog;
}

}  // namespace

QString manualText() {
    // In the interface's language (its locale, as installTranslations set it), else English.
    const QLocale locale;
    for (const QString& name :
         {QStringLiteral(":/help/manual.%1.md").arg(locale.name()),
          QStringLiteral(":/help/manual.%1.md").arg(QLocale::languageToCode(locale.language())),
          QStringLiteral(":/help/manual.md")}) {
        QFile file(name);
        if (file.open(QIODevice::ReadOnly))
            return QString::fromUtf8(file.readAll());
    }
    return QString();
}

void showManual(QWidget* parent) {
    auto* text = new QTextBrowser;
    text->setObjectName(QStringLiteral("manual"));
    text->setOpenExternalLinks(true);
    text->setMarkdown(manualText());
    textDialog(parent, QObject::tr("TrainScope Manual"), text)->show();
}

QString shortcutsText(const QList<QAction*>& actions) {
    QStringList lines;
    for (const QAction* action : actions) {
        // Every key of the action, as a keyboard labels it: Qt names Shift+Tab's key
        // "Backtab" (QKeySequence::PreviousChild is "Ctrl+Shift+Backtab" first).
        QStringList keys;
        for (const QKeySequence& sequence : action->shortcuts()) {
            const QString key = sequence.toString(QKeySequence::NativeText)
                                    .replace(QStringLiteral("Backtab"), QStringLiteral("Tab"));
            if (!key.isEmpty() && !keys.contains(key))
                keys << key;
        }
        if (keys.isEmpty())
            continue;
        QString name = action->text();
        name.remove(QLatin1Char('&')).remove(QChar(0x2026));  // mnemonics, "…"
        lines << QStringLiteral("%1\t%2").arg(keys.join(QStringLiteral(", ")), name.trimmed());
    }
    return lines.join(QLatin1Char('\n'));
}

void showShortcuts(QWidget* parent, const QList<QAction*>& actions) {
    QString html = QStringLiteral("<table cellpadding=4>");
    for (const QString& line : shortcutsText(actions).split(QLatin1Char('\n'))) {
        const QStringList parts = line.split(QLatin1Char('\t'));
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(parts.value(0).toHtmlEscaped(), parts.value(1).toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    auto* text = new QTextBrowser;
    text->setObjectName(QStringLiteral("shortcuts"));
    text->setHtml(html);
    textDialog(parent, QObject::tr("Keyboard Shortcuts"), text)->show();
}

}  // namespace trainscope::ui
