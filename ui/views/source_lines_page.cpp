#include "views/source_lines_page.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "views/entry_table_view.h"
#include "views/layout.h"

namespace trainscope::ui {

SourceLinesPage::SourceLinesPage(QSqlDatabase time, double iteration_ms, QSqlDatabase memory,
                                 qint64 peak, QWidget* parent)
    : QWidget(parent) {
    auto* split = new QSplitter(Qt::Vertical);
    auto add = [&](const QString& title, SqlTableModel* model) {
        auto* view = new EntryTableView;
        // The model's query already ranks by share (the last column), highest first.
        view->setEntryModel(model, model->columnCount() - 1, Qt::DescendingOrder);
        connect(view, &EntryTableView::rowSelected, this, [this, model](int row) {
            emit lineSelected(
                {model->rawValue(row, 1).toString(), model->rawValue(row, 2).toInt(), QString()});
        });
        split->addWidget(withHeader(new QLabel(title), view));
        return view;
    };
    if (time.isValid())
        time_ = add(tr("Time by source line (forward and backward, per most specific frame)"),
                    timeBySourceLineModel(time, iteration_ms, this));
    if (memory.isValid())
        memory_ = add(tr("Memory by source line (weights and activations, per most specific "
                         "frame)"),
                      memoryBySourceLineModel(memory, peak, this));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

}  // namespace trainscope::ui
