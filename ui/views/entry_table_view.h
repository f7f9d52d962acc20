// A table of report entries (an SqlTableModel): sortable by SQL, id column hidden, and a
// signal when the user moves to another row, whatever model it shows at the time.
#pragma once

#include <QTableView>

namespace trainscope::ui {

class SqlTableModel;

class EntryTableView : public QTableView {
    Q_OBJECT
  public:
    explicit EntryTableView(QWidget* parent = nullptr);
    // `sorted_column`: the order the model's query already has, shown in the header.
    void setEntryModel(SqlTableModel* model, int sorted_column = -1,
                       Qt::SortOrder order = Qt::AscendingOrder);
    SqlTableModel* entryModel() const;

  signals:
    void rowSelected(int row);
};

}  // namespace trainscope::ui
