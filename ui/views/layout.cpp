// SPDX-License-Identifier: Apache-2.0
#include "views/layout.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QWidget>

namespace trainscope::ui {

QWidget* withHeader(QLayout* header, QWidget* body) {
    auto* widget = new QWidget;
    auto* layout = new QVBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(body, 1);
    return widget;
}

QWidget* withHeader(QWidget* header, QWidget* body) {
    auto* row = new QHBoxLayout;
    row->addWidget(header);
    return withHeader(row, body);
}

QTableWidget* figuresTable(const QStringList& headers) {
    auto* table = new QTableWidget(0, int(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    // One line of text a row, as the report tables have (the style's default is twice that).
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->setTabKeyNavigation(false);  // Tab leaves the table; the arrows move between cells
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

}  // namespace trainscope::ui
