// SPDX-License-Identifier: Apache-2.0
#include "compare/compare_page.h"

#include <algorithm>

#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

#include "compare/compare_model.h"
#include "reading/units.h"
#include "settings/app_settings.h"
#include "source/project_root.h"
#include "source/source_viewer.h"
#include "views/charts.h"

namespace trainscope::ui {

// What a task off the GUI thread hands back: the comparison and the curves, or an item's
// frames on both sides, or why not.
struct ComparePage::Result {
    std::shared_ptr<const Comparison> comparison;
    RunReports changed;
    std::vector<MemorySample> curves[2];
    EntryFrames frames[2];
    quint64 asked = 0;
    QString error;
};

namespace {

// The Item column's width, in pixels, within which the figures beside it are fitted.
constexpr int kNarrowestNames = 200;
constexpr int kWidestNames = 420;

// The new run's report that names its project root.
QString reportOf(const RunReports& run) {
    return QString::fromStdString(!run.time.empty() ? run.time : run.memory);
}

// The folder the new run's frames are resolved against: the one the user chose for it, else
// the root it recorded when that is trusted (as the browser trusts one), or when the user
// allowed this run's source folders (Show Files), or when it is the folder the base run's
// files are shown from; else its report's folder.
QString rootOf(const RunReports& run, const std::string& recorded, const QString& base_root) {
    const QString report = reportOf(run);
    if (const QString chosen = AppSettings::projectRootFor(report); !chosen.isEmpty())
        return chosen;
    const QString real = realPath(QString::fromStdString(recorded));
    if (const QString trusted = trustedProjectRoot(real, report); !trusted.isEmpty())
        return trusted;
    if (!real.isEmpty() &&
        (AppSettings::sourceFoldersAnswer(report) == 1 || real == realPath(base_root)))
        return real;
    return QFileInfo(report).absolutePath();
}

QString sideTitle(int side, const RunReports& run) {
    const QString name = QFileInfo(QString::fromStdString(run.label)).fileName();
    return side == 0 ? ComparePage::tr("Base: %1").arg(name) : ComparePage::tr("New: %1").arg(name);
}

}  // namespace

ComparePage::ComparePage(RunReports base, QString changed, QString base_root, QWidget* parent)
    : QWidget(parent),
      runs_{std::move(base), RunReports{changed.toStdString(), {}, {}, {}}},
      roots_{std::move(base_root), QString()},
      summary_(new QLabel(tr("Comparing…"))),
      find_(new QLineEdit),
      tree_(new QTreeView),
      details_(new QTabWidget) {
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    find_->setObjectName(QStringLiteral("find"));
    find_->setPlaceholderText(tr("Find a module, operation or parameter"));
    find_->setClearButtonEnabled(true);
    tree_->setObjectName(QStringLiteral("compareTree"));
    tree_->setUniformRowHeights(true);
    tree_->setSortingEnabled(true);
    tree_->setAlternatingRowColors(true);

    auto* sources = new QSplitter(Qt::Horizontal);
    for (int side = 0; side < 2; ++side) {
        auto* column = new QWidget;
        auto* layout = new QVBoxLayout(column);
        layout->setContentsMargins(0, 0, 0, 0);
        titles_[side] = new QLabel(sideTitle(side, runs_[side]));
        frames_[side] = new QListWidget;
        frames_[side]->setMaximumHeight(90);
        viewers_[side] = new SourceViewer;
        layout->addWidget(titles_[side]);
        layout->addWidget(frames_[side]);
        layout->addWidget(viewers_[side], 1);
        sources->addWidget(column);
        connect(frames_[side], &QListWidget::currentRowChanged, this,
                [this, side](int row) { showFrame(side, row); });
    }
    details_->addTab(sources, tr("Source"));

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(tree_);
    split->addWidget(details_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(find_);
    layout->addWidget(split, 1);

    connect(find_, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (!model_)
            return;
        // The sections stay open as they were, and those with an item found open: the model
        // is made again, which closes every row.
        const ItemKind kinds[] = {ItemKind::Total, ItemKind::Module, ItemKind::Operation,
                                  ItemKind::Weight};
        QVector<ItemKind> open;
        for (ItemKind kind : kinds)
            if (tree_->isExpanded(model_->sectionIndex(kind)))
                open << kind;
        model_->setFindText(text.trimmed());
        for (ItemKind kind : kinds) {
            const QModelIndex section = model_->sectionIndex(kind);
            if (kind == ItemKind::Total || open.contains(kind) ||
                (!text.trimmed().isEmpty() && model_->rowCount(section) > 0))
                tree_->expand(section);
        }
    });
    connect(&computing_, &QFutureWatcher<std::shared_ptr<Result>>::finished, this,
            &ComparePage::showResult);
    connect(&reading_frames_, &QFutureWatcher<std::shared_ptr<Result>>::finished, this, [this] {
        const std::shared_ptr<Result> result = reading_frames_.result();
        if (result->asked != frames_asked_)
            return;  // an older selection's
        // The new run's root as its report recorded it (read with the frames).
        for (int side = 0; side < 2; ++side)
            recorded_[side] = realPath(QString::fromStdString(result->frames[side].project_root));
        if (!result->frames[1].project_root.empty())
            roots_[1] = rootOf(runs_[1], result->frames[1].project_root, roots_[0]);
        for (int side = 0; side < 2; ++side) {
            frames_[side]->clear();
            shown_frames_[side] = result->frames[side].frames;
            for (const StackFrame& frame : shown_frames_[side])
                frames_[side]->addItem(QStringLiteral("%1:%2")
                                           .arg(QString::fromStdString(frame.file_path))
                                           .arg(frame.line_number));
            if (!result->error.isEmpty())
                frames_[side]->addItem(result->error);
            if (shown_frames_[side].empty()) {
                viewers_[side]->clearFile();
                if (result->error.isEmpty())
                    frames_[side]->addItem(tr("No project frames on this side."));
            } else {
                frames_[side]->setCurrentRow(0);
            }
        }
        emit framesShown();
    });

    const RunReports base_run = runs_[0];
    const std::string new_spec = changed.toStdString();
    computing_.setFuture(QtConcurrent::run([base_run, new_spec] {
        auto result = std::make_shared<Result>();
        try {
            result->changed = findRunReports(new_spec);
            const RunReports& new_run = result->changed;
            result->comparison = std::make_shared<Comparison>(compareRuns(base_run, new_run));
            if (!base_run.timeline.empty() && !new_run.timeline.empty()) {
                result->curves[0] = readMemoryCurve(base_run.timeline);
                result->curves[1] = readMemoryCurve(new_run.timeline);
            }
        } catch (const std::exception& e) {
            result->error = QString::fromStdString(e.what());
        }
        return result;
    }));
}

ComparePage::~ComparePage() {
    // The tasks hold copies of what they read: they finish on their own and are dropped.
    computing_.disconnect(this);
    reading_frames_.disconnect(this);
}

void ComparePage::showResult() {
    const std::shared_ptr<Result> result = computing_.result();
    if (!result->comparison) {
        error_ = result->error;
        summary_->setText(tr("These runs cannot be compared: %1").arg(error_));
        emit computed(false);
        return;
    }
    const Comparison& c = *result->comparison;
    runs_[1] = result->changed;
    roots_[1] = rootOf(runs_[1], {}, roots_[0]);
    const auto model = [](const std::string& name) {
        return name.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(name));
    };
    const size_t significant = gateViolations(c, GateLimits{0.0, 0.0}).size();
    QString text = tr("<b>Base</b> %1%2 &nbsp; <b>New</b> %3%4")
                       .arg(QString::fromStdString(c.base.label).toHtmlEscaped(),
                            model(c.base_model).toHtmlEscaped(),
                            QString::fromStdString(c.changed.label).toHtmlEscaped(),
                            model(c.new_model).toHtmlEscaped());
    text += QStringLiteral("<br>") +
            tr("Operations: %1 matched, %2 added, %3 removed. %4 increases beyond noise.")
                .arg(c.matched_operations)
                .arg(c.added_operations)
                .arg(c.removed_operations)
                .arg(significant);
    // What the colours of the changes mean, next to the count they explain.
    text += QStringLiteral("<br>") +
            tr("Red: an increase beyond the runs' noise (the spread of their timed iterations); "
               "green: a decrease beyond it; grey: a change within it.");
    for (const std::string& note : c.notes)
        text += QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(note).toHtmlEscaped());
    summary_->setText(text);

    model_ = new CompareModel(result->comparison, this);
    tree_->setModel(model_);
    tree_->sortByColumn(CompareModel::TimeDelta, Qt::DescendingOrder);
    for (ItemKind kind : {ItemKind::Total, ItemKind::Module})
        tree_->expand(model_->sectionIndex(kind));
    tree_->header()->setSectionResizeMode(CompareModel::Name, QHeaderView::Interactive);
    // A name too long for its column loses its middle: an operation's number (#12) and a
    // figure's last words stay in view; the tooltip has it whole.
    tree_->setTextElideMode(Qt::ElideMiddle);
    figures_width_ = 0;
    for (int column = CompareModel::Status; column < CompareModel::Count; ++column) {
        tree_->resizeColumnToContents(column);
        figures_width_ += tree_->columnWidth(column);
    }
    fitNameColumn();
    connect(tree_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showItem(model_->itemAt(current)); });
    if (!result->curves[0].empty() && !result->curves[1].empty())
        showMemoryCurves(result->curves[0], result->curves[1]);
    emit computed(true);
}

void ComparePage::selectRow(ItemKind kind, int row) {
    if (!model_)
        return;
    const QModelIndex section = model_->sectionIndex(kind);
    const QModelIndex index = model_->index(row, 0, section);
    if (!index.isValid())
        return;
    for (ItemKind other : {ItemKind::Module, ItemKind::Operation, ItemKind::Weight})
        tree_->setExpanded(model_->sectionIndex(other), other == kind);
    tree_->setCurrentIndex(index);
    tree_->scrollTo(index);
}

void ComparePage::showItem(const ComparedItem* item) {
    const quint64 asked = ++frames_asked_;
    if (!item || item->entry_kind == EntryKind::None) {
        for (int side = 0; side < 2; ++side) {
            frames_[side]->clear();
            viewers_[side]->clearFile();
        }
        return;
    }
    const RunReports base = runs_[0], changed = runs_[1];
    const EntryKind kind = item->entry_kind;
    const int64_t ids[2] = {item->base_entry, item->new_entry};
    reading_frames_.setFuture(QtConcurrent::run([=] {
        auto result = std::make_shared<Result>();
        result->asked = asked;
        try {
            if (ids[0] > 0)
                result->frames[0] = readEntryFrames(base, kind, ids[0]);
            if (ids[1] > 0)
                result->frames[1] = readEntryFrames(changed, kind, ids[1]);
        } catch (const std::exception& e) {
            result->error = QString::fromStdString(e.what());
        }
        return result;
    }));
}

void ComparePage::fitNameColumn() {
    if (!model_)
        return;
    tree_->setColumnWidth(
        CompareModel::Name,
        std::clamp(tree_->viewport()->width() - figures_width_, kNarrowestNames, kWidestNames));
}

void ComparePage::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitNameColumn();
}

void ComparePage::showFrame(int side, int row) {
    if (row < 0 || row >= static_cast<int>(shown_frames_[side].size()))
        return;
    const StackFrame& frame = shown_frames_[side][row];
    const ResolvedSource source =
        resolveSource(roots_[side], QString::fromStdString(frame.file_path));
    QString error = source.error;
    if (!source.path.isEmpty() && viewers_[side]->showFile(source.path, frame.line_number, &error))
        return;
    // A run recorded in a folder that is not shown here: say which, and how to show it.
    if (source.missing && !recorded_[side].isEmpty() && recorded_[side] != realPath(roots_[side]) &&
        QFileInfo(QDir(recorded_[side]).filePath(QString::fromStdString(frame.file_path))).isFile())
        error = tr("%1 is in %2, the folder this run was profiled in. To show it, open this run "
                   "and choose Show Files, or set its project root (File › Set Project Root…).")
                    .arg(QString::fromStdString(frame.file_path), recorded_[side]);
    viewers_[side]->showMessage(error);
}

void ComparePage::showMemoryCurves(const std::vector<MemorySample>& base,
                                   const std::vector<MemorySample>& changed) {
    double largest = 0, longest = 0;
    for (const auto* curve : {&base, &changed}) {
        for (const MemorySample& s : *curve)
            largest = std::max(largest, static_cast<double>(s.total_allocated));
        longest = std::max(longest, curve->back().timestamp_ns / 1e6);
    }
    const Unit unit = byteUnit(largest);
    auto* chart = new QChart;
    int side = 0;
    for (const auto* curve : {&base, &changed}) {
        auto* series = new QLineSeries;
        series->setName(side++ == 0 ? tr("Base") : tr("New"));
        // A step curve: the total holds until the next allocation or free.
        double last = 0;
        for (const MemorySample& s : *curve) {
            const double ms = s.timestamp_ns / 1e6;
            series->append(ms, last);
            last = unit.of(static_cast<double>(s.total_allocated));
            series->append(ms, last);
        }
        chart->addSeries(series);
    }
    auto* x = new QValueAxis;
    x->setTitleText(tr("Time since the first allocation (ms)"));
    x->setRange(0, longest);
    auto* y = new QValueAxis;
    y->setTitleText(tr("Allocated (%1)").arg(unit.name));
    y->setRange(0, unit.of(largest) * 1.05);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* series : chart->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    chart->setTitle(tr("Memory over one iteration"));
    chart_ = chartView(chart);
    chart_->setObjectName(QStringLiteral("compareMemoryChart"));
    details_->addTab(chart_, tr("Memory over Time"));
}

}  // namespace trainscope::ui
