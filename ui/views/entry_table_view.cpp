#include "views/entry_table_view.h"

#include <QHeaderView>

#include "report/sql_table_model.h"

namespace trainscope::ui {

EntryTableView::EntryTableView(QWidget* parent) : QTableView(parent) {
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setAlternatingRowColors(true);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setSortIndicatorShown(true);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
}

void EntryTableView::setEntryModel(SqlTableModel* model, int sorted_column, Qt::SortOrder order) {
    setSortingEnabled(false);  // so that setting the model does not re-run its query
    setModel(model);
    hideColumn(0);
    {
        const QSignalBlocker blocker(horizontalHeader());
        horizontalHeader()->setSortIndicator(sorted_column, order);
    }
    setSortingEnabled(true);
    resizeColumnsToContents();  // from the rows fetched so far, never the whole table
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    emit rowSelected(current.row());
            });
}

SqlTableModel* EntryTableView::entryModel() const {
    return qobject_cast<SqlTableModel*>(model());
}

}  // namespace trainscope::ui
