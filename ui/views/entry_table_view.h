// SPDX-License-Identifier: Apache-2.0
// A table of report entries (an SqlTableModel): sortable by SQL, id column hidden, and a
// signal when the user moves to another row, whatever model it shows at the time. When the
// model's query fails, the reason is shown over the rows.
#pragma once

#include <QFontMetrics>
#include <QPointer>
#include <QTableView>
#include <functional>

class QLabel;
class QMenu;

namespace trainscope::ui {

class SqlTableModel;

// An entry's name elided to `width`: "module · operation" keeps its operation whole and loses
// the start of its module first ("…0.attn · aten::_scaled_dot_product_flash_attention_for_cpu.
// default"), where a middle cut hid the operation ("blocks.0.attn …or_cpu.default"); any
// other name, or an operation too long alone, loses its middle. The cell's tooltip has it whole.
QString elidedEntryName(const QString& name, const QFontMetrics& metrics, int width);

class EntryTableView : public QTableView {
    Q_OBJECT
  public:
    explicit EntryTableView(QWidget* parent = nullptr);
    // `sorted_column`: the order the model's query already has, shown in the header.
    void setEntryModel(SqlTableModel* model, int sorted_column = -1,
                       Qt::SortOrder order = Qt::AscendingOrder);
    SqlTableModel* entryModel() const;
    // Selects the row of entry `id` as another view chose it: without rowSelected(), unless
    // `as_user` (a click on its chart bar: the frames follow). Pages are read until it comes,
    // up to kMaxRevealedRows (a filter may hide it: nothing is selected then).
    void selectEntry(qint64 id, bool as_user = false);
    static constexpr int kMaxRevealedRows = 1 << 18;
    // The message shown over the rows when the model's query failed (hidden otherwise).
    QLabel* errorLabel() const { return error_label_; }

    // The selected rows as tab-separated text, the column headers first (hidden columns left
    // out): what Ctrl+C puts on the clipboard.
    QString selectedRowsText() const;
    // Writes the whole table (every row, in the current order and filter; the columns shown)
    // to `path` as CSV (export.h); `done` gets the error, empty when it was written.
    void exportCsv(const QString& path, std::function<void(const QString& error)> done);
    // Asks where, then exports (File › Export Table, the context menu).
    void chooseAndExportCsv();
    // The context menu offers "Filter to This Operation" (filterRequested with the row's
    // column 1, the operation's name): for tables of operations.
    void offerFilterByName(bool offer) { offer_filter_ = offer; }
    // The context menu shown last (for tests; null once closed).
    QMenu* contextMenu() const;
    // How narrow a column of text may become when the table is short of room (for tests).
    int narrowestTextColumn() const;

  signals:
    void rowSelected(int row);
    void filterRequested(const QString& name);

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

  private:
    // Columns sized to their contents, then the text narrowed until every column is seen.
    void fitColumns();
    void revealWantedEntry();
    void showError(const QString& message);
    void placeErrorLabel();
    QLabel* error_label_;
    qint64 wanted_entry_ = -1;  // selectEntry()'s, until its row is read
    bool wanted_as_user_ = false;
    bool selecting_ = false;  // a selection made by selectEntry(), not the user
    bool offer_filter_ = false;
    QPointer<QMenu> context_menu_;
};

}  // namespace trainscope::ui
