#include "views/report_browser.h"

#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPieSeries>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace trainscope::ui {

ReportBrowser::ReportBrowser(std::unique_ptr<ReportFile> memory, std::unique_ptr<ReportFile> time,
                             QWidget* parent)
    : QWidget(parent), memory_(std::move(memory)), time_(std::move(time)) {
    QString error;
    if (memory_)
        memory_summary_ = ui::memorySummary(memory_->database(), &error);
    if (time_)
        time_summary_ = ui::timeSummary(time_->database(), &error);
    summary_error_ = error;

    tabs_ = new QTabWidget(this);
    tabs_->addTab(makeOverview(), tr("Overview"));
    if (memory_ && memory_summary_) {
        auto* split = new QSplitter(Qt::Vertical);
        weights_view_ = makeTable(weightsModel(memory_->database(), memory_summary_->peak, this),
                                  EntryTable::Weight, *memory_);
        activations_view_ =
            makeTable(activationsModel(memory_->database(), memory_summary_->peak, this),
                      EntryTable::Activation, *memory_);
        split->addWidget(weights_view_);
        split->addWidget(activations_view_);
        tabs_->addTab(split, tr("Memory"));
    }
    if (time_ && time_summary_) {
        const double iteration = time_summary_->forward_ms + time_summary_->backward_ms;
        operations_view_ = makeTable(operationsModel(time_->database(), iteration, this),
                                     EntryTable::Operation, *time_);
        tabs_->addTab(operations_view_, tr("Time"));
    }
    frames_ = new QListWidget;
    frames_->setToolTip(tr("Stack frames of the selected entry, most specific first"));

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(tabs_);
    split->addWidget(frames_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

ReportBrowser::~ReportBrowser() {
    // The models hold queries on the reports' connections: they go first, then the reports.
    qDeleteAll(findChildren<QObject*>(QString(), Qt::FindDirectChildrenOnly));
}

QString ReportBrowser::overviewText() const {
    return overview_text_;
}

QWidget* ReportBrowser::makeOverview() {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    QStringList lines;
    if (memory_summary_) {
        const MemorySummary& m = *memory_summary_;
        lines << tr("Peak memory: %1").arg(formatBytes(m.peak))
              << tr("Weights: %1   Gradients: %2   Activations: %3   Other: %4")
                     .arg(formatBytes(m.weights), formatBytes(m.gradients),
                          formatBytes(m.activations), formatBytes(m.other()));
        auto* series = new QPieSeries;
        series->append(tr("Weights"), m.weights);
        series->append(tr("Gradients"), m.gradients);
        series->append(tr("Activations"), m.activations);
        series->append(tr("Other"), m.other());
        for (QPieSlice* slice : series->slices()) {
            slice->setLabel(
                QStringLiteral("%1 %2").arg(slice->label(), formatBytes(qint64(slice->value()))));
            slice->setLabelVisible(slice->value() > 0);
        }
        auto* chart = new QChart;
        chart->addSeries(series);
        chart->setTitle(tr("Peak memory breakdown"));
        auto* view = new QChartView(chart);
        view->setMinimumHeight(260);
        view->setRenderHint(QPainter::Antialiasing);
        layout->addWidget(view, 1);
    }
    if (time_summary_) {
        const TimeSummary& t = *time_summary_;
        lines
            << tr("Iteration time (sum of operations): %1 ms   Forward: %2 ms   Backward: %3 ms   "
                  "Operations: %4")
                   .arg(t.forward_ms + t.backward_ms, 0, 'f', 3)
                   .arg(t.forward_ms, 0, 'f', 3)
                   .arg(t.backward_ms, 0, 'f', 3)
                   .arg(t.operations);
    }
    if (!summary_error_.isEmpty()) {
        lines << tr("Could not read the report's totals: %1").arg(summary_error_);
    }
    overview_text_ = lines.join(QLatin1Char('\n'));
    auto* label = new QLabel(overview_text_);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->insertWidget(0, label);
    return page;
}

QTableView* ReportBrowser::makeTable(SqlTableModel* model, EntryTable table,
                                     const ReportFile& file) {
    auto* view = new QTableView;
    view->setModel(model);
    view->hideColumn(0);
    view->setSortingEnabled(true);
    view->sortByColumn(0, Qt::AscendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->hide();
    connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, model, table, &file](const QModelIndex& current) {
                if (current.isValid())
                    showFrames(file, table, model->entryId(current.row()));
            });
    return view;
}

void ReportBrowser::showFrames(const ReportFile& file, EntryTable table, qint64 entry_id) {
    frames_->clear();
    for (const FrameRow& frame : stackFrames(file.database(), table, entry_id)) {
        frames_->addItem(QStringLiteral("%1:%2").arg(frame.file_path).arg(frame.line_number));
    }
    if (frames_->count() == 0)
        frames_->addItem(tr("(no frames in the project)"));
}

}  // namespace trainscope::ui
