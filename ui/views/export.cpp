// SPDX-License-Identifier: Apache-2.0
#include "views/export.h"

#include <QBuffer>
#include <QFileDialog>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

namespace trainscope::ui {

QString csvField(const QVariant& value) {
    if (value.isNull())
        return {};
    switch (value.typeId()) {
        case QMetaType::Double:
            // The shortest text that reads back as the same double (134.807324, not
            // 134.80732399999999).
            return QString::number(value.toDouble(), 'g', QLocale::FloatingPointShortest);
        default:
            return value.toString();
    }
}

QString csvRecord(const QStringList& fields) {
    QStringList quoted;
    for (const QString& field : fields) {
        const bool plain = !field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"')) &&
                           !field.contains(QLatin1Char('\n')) && !field.contains(QLatin1Char('\r'));
        quoted << (plain ? field
                         : QLatin1Char('"') +
                               QString(field).replace(QLatin1String("\""), QLatin1String("\"\"")) +
                               QLatin1Char('"'));
    }
    return quoted.join(QLatin1Char(','));
}

QVector<QStringList> parseCsv(const QString& text) {
    QVector<QStringList> records;
    QStringList record;
    QString field;
    bool quoted = false;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            record << field;
            field.clear();
        } else if (c == QLatin1Char('\n')) {
            record << field;
            records << record;
            record.clear();
            field.clear();
        } else if (c != QLatin1Char('\r')) {
            field += c;
        }
    }
    if (!field.isEmpty() || !record.isEmpty())
        records << (record << field);
    return records;
}

bool writeTextFile(const QString& path, const QString& text, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool saveWidgetImage(QWidget* widget, const QString& path, QString* error) {
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        // Drawn into a buffer, then saved whole, as the CSV is.
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(widget->size());
        svg.setViewBox(QRect(QPoint(0, 0), widget->size()));
        svg.setTitle(widget->windowTitle());
        {
            QPainter painter(&svg);
            widget->render(&painter);
        }
        return writeTextFile(path, QString::fromUtf8(buffer.data()), error);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !widget->grab().save(&file, "PNG") || !file.commit()) {
        *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void offerImageExport(QWidget* widget) {
    widget->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(widget, &QWidget::customContextMenuRequested, widget, [widget](QPoint pos) {
        auto* menu = new QMenu(widget);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        auto save = [widget](const QString& filter, const QString& suffix) {
            QString path =
                QFileDialog::getSaveFileName(widget, QObject::tr("Save Chart"), QString(), filter);
            if (path.isEmpty())
                return;
            if (!path.endsWith(suffix, Qt::CaseInsensitive))
                path += suffix;
            QString error;
            if (!saveWidgetImage(widget, path, &error))
                QMessageBox::warning(widget, QObject::tr("Save Chart"), error);
        };
        menu->addAction(QObject::tr("Save Chart as &PNG…"), widget, [save] {
            save(QObject::tr("PNG images (*.png)"), QStringLiteral(".png"));
        });
        menu->addAction(QObject::tr("Save Chart as &SVG…"), widget, [save] {
            save(QObject::tr("SVG images (*.svg)"), QStringLiteral(".svg"));
        });
        menu->popup(widget->mapToGlobal(pos));
    });
}

}  // namespace trainscope::ui
