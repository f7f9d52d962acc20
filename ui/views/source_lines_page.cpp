// SPDX-License-Identifier: Apache-2.0
#include "views/source_lines_page.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "reading/report_run.h"
#include "views/entry_table_view.h"
#include "views/layout.h"
#include "views/run_filter.h"
#include "views/run_filter_bar.h"

namespace trainscope::ui {

namespace {

// The line a row shows as the source panel takes it: none for the entries without a frame.
QVector<FrameRow> lineOf(const EntryTableView* view, int row) {
    const SqlTableModel* model = view->entryModel();
    if (model->rawValue(row, 1).isNull())
        return {};
    return {{model->rawValue(row, 1).toString(), model->rawValue(row, 2).toInt(), QString()}};
}

}  // namespace

std::optional<QVector<FrameRow>> SourceLinesPage::selectedLine() const {
    if (!last_selected_ || !last_selected_->currentIndex().isValid())
        return std::nullopt;
    return lineOf(last_selected_, last_selected_->currentIndex().row());
}

SourceLinesPage::SourceLinesPage(ReportRun& run, RunFilter* filter, QWidget* parent)
    : QWidget(parent) {
    const RunContents& contents = run.contents();
    auto* split = new QSplitter(Qt::Vertical);
    // The time table keeps the run filter's range (its name is an operation's, not a file's).
    auto add = [&](const QString& title, ReportKind kind, SqlTableSpec spec) {
        auto* model = new SqlTableModel(run.rows(kind), std::move(spec), this,
                                        {QString(), filter->current().entries});
        auto* view = new EntryTableView;
        // The model's query already ranks by share (the last column), highest first.
        view->setEntryModel(model, model->columnCount() - 1, Qt::DescendingOrder);
        connect(view, &EntryTableView::rowSelected, this, [this, view](int row) {
            last_selected_ = view;
            emit lineSelected(lineOf(view, row));
        });
        split->addWidget(withHeader(new QLabel(title), view));
        return view;
    };
    if (const auto& time = contents.time_summary)
        time_ = add(tr("Time by source line (each part of the step, per most specific frame)"),
                    ReportKind::Time, timeBySourceLineTable(contents.time->tables, time->times));
    if (const auto& memory = contents.memory_summary)
        memory_ = add(memory->lists_blocks_at_peak
                          ? tr("Memory at the peak by source line (the blocks alive then, per "
                               "most specific frame)")
                          : tr("Memory by source line (weights and activations, per most "
                               "specific frame)"),
                      ReportKind::Memory,
                      memoryBySourceLineTable(memory->peak, memory->lists_blocks_at_peak));
    if (time_) {
        SqlTableModel* model = time_->entryModel();
        connect(filter, &RunFilter::changed, model, [model, filter] {
            model->setRowFilter({QString(), filter->current().entries});
        });
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new RunFilterBar(filter));
    layout->addWidget(split);
}

}  // namespace trainscope::ui
