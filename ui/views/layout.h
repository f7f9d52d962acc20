// SPDX-License-Identifier: Apache-2.0
// Small layout pieces the views share.
#pragma once

#include <QStringList>

class QLayout;
class QTableWidget;
class QWidget;

namespace trainscope::ui {

// A widget with `header` (a row of controls or a title) above `body`, which takes the rest of
// the height; no margins, so that it sits flush in a splitter.
QWidget* withHeader(QLayout* header, QWidget* body);
QWidget* withHeader(QWidget* header, QWidget* body);

// A read-only table of figures with these column headers, selected by rows, its last column
// stretched: the summaries' tables (a timeline's, the ranks').
QTableWidget* figuresTable(const QStringList& headers);

}  // namespace trainscope::ui
