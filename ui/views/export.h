// SPDX-License-Identifier: Apache-2.0
// Exports for other tools: a table as CSV (RFC 4180: comma-separated, fields with commas,
// quotes or line breaks quoted, raw values with '.' as the decimal mark, shares as fractions),
// a chart as PNG or SVG. Files are written whole or not at all (QSaveFile).
#pragma once

#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVector>

class QWidget;

namespace trainscope::ui {

// One CSV record (no line break at the end).
QString csvRecord(const QStringList& fields);
// Raw cell values as CSV fields: numbers in C notation, NULL as empty.
QString csvField(const QVariant& value);
// Parses CSV as csvRecord() writes it (for tests and round trips).
QVector<QStringList> parseCsv(const QString& text);

bool writeTextFile(const QString& path, const QString& text, QString* error);
// Saves what `widget` shows: SVG when `path` ends in .svg, else PNG.
bool saveWidgetImage(QWidget* widget, const QString& path, QString* error);
// Lets the user save `widget` (a chart) as PNG or SVG from its context menu.
void offerImageExport(QWidget* widget);

}  // namespace trainscope::ui
