// SPDX-License-Identifier: Apache-2.0
#include "views/modules_page.h"

#include <utility>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTreeView>
#include <QVBoxLayout>

#include "reading/report_run.h"
#include "views/export.h"
#include "views/icicle_chart.h"
#include "views/modules_model.h"
#include "views/run_filter.h"

namespace trainscope::ui {

struct ModuleTreeRead {
    ModuleTree tree;
    QString error;
};

ModulesPage::ModulesPage(ReportRun& run, RunFilter* filter, QWidget* parent)
    : QWidget(parent),
      run_(run),
      filter_(filter),
      sorted_(new QSortFilterProxyModel(this)),
      tree_(new QTreeView),
      chart_(new IcicleChart),
      figures_(new QComboBox),
      width_(new QComboBox),
      reset_zoom_(new QPushButton(tr("&Reset Zoom"))),
      find_(new QLineEdit),
      message_(new QLabel(tr("Reading the modules…"))) {
    // Keeps the modules and operations whose name contains the text, with their ancestors.
    find_->setObjectName(QStringLiteral("find"));
    find_->setPlaceholderText(tr("Find modules and operations"));
    find_->setClearButtonEnabled(true);
    sorted_->setRecursiveFilteringEnabled(true);
    sorted_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    sorted_->setFilterKeyColumn(ModulesModel::Name);
    connect(find_, &QLineEdit::textChanged, this, [this](const QString& text) {
        sorted_->setFilterFixedString(text);
        if (!text.isEmpty())
            tree_->expandAll();
    });
    figures_->addItem(tr("Inclusive (with submodules)"));
    figures_->addItem(tr("Self (its own operations)"));
    width_->addItem(tr("Time"));
    width_->addItem(tr("Activations"));
    width_->addItem(tr("Weights and gradients"));
    reset_zoom_->setEnabled(false);
    message_->setWordWrap(true);
    sorted_->setSortRole(ModulesModel::SortRole);
    tree_->setModel(sorted_);
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->setSortingEnabled(false);  // in the order modules run, until a header is clicked
    tree_->header()->setSortIndicatorShown(true);
    tree_->setContextMenuPolicy(Qt::CustomContextMenu);
    offerImageExport(chart_);

    auto* bar = new QHBoxLayout;
    auto* figures_label = new QLabel(tr("&Figures:"));
    figures_label->setBuddy(figures_);
    auto* width_label = new QLabel(tr("Chart &width:"));
    width_label->setBuddy(width_);
    bar->addWidget(figures_label);
    bar->addWidget(figures_);
    bar->addSpacing(12);
    bar->addWidget(width_label);
    bar->addWidget(width_);
    bar->addWidget(reset_zoom_);
    bar->addSpacing(12);
    bar->addWidget(find_, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(tree_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(message_);
    layout->addWidget(split, 1);

    connect(figures_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (model_)
            model_->setInclusive(index == 0);
    });
    connect(width_, &QComboBox::currentIndexChanged, this,
            [this](int index) { chart_->setWidthBy(static_cast<IcicleChart::WidthBy>(index)); });
    connect(reset_zoom_, &QPushButton::clicked, this,
            [this] { chart_->zoomTo(ModuleTree::kRoot); });
    connect(chart_, &IcicleChart::zoomChanged, this,
            [this](int module) { reset_zoom_->setEnabled(module != ModuleTree::kRoot); });
    connect(chart_, &IcicleChart::moduleClicked, this, &ModulesPage::selectModule);
    connect(tree_, &QTreeView::customContextMenuRequested, this, &ModulesPage::contextMenu);

    run_.readReports<ModuleTreeRead>(
        [](const ReportFile* memory, const ReportFile* time) {
            ModuleTreeRead read;
            read.tree = ModuleTree::build(readModuleFigures(memory, time, &read.error));
            return read;
        },
        this, [this](const ModuleTreeRead& read) { show(read); });
}

void ModulesPage::show(const ModuleTreeRead& result) {
    model_ = new ModulesModel(run_, result.tree, this);
    sorted_->setSourceModel(model_);
    chart_->setTree(&model_->tree());
    message_->setVisible(!result.error.isEmpty());
    message_->setText(result.error.isEmpty()
                          ? QString()
                          : tr("The modules could not be read in full: %1").arg(result.error));
    tree_->expand(sorted_->index(0, 0));
    for (int column = 0; column < ModulesModel::Count; ++column)
        tree_->resizeColumnToContents(column);
    // A step without clipping or an optimizer in it (or a report that does not tell): no column
    // of zeros.
    const ModuleFigures& all = model_->tree().node(ModuleTree::kRoot).inclusive;
    tree_->setColumnHidden(ModulesModel::AfterBackward, all.after_backward_ms == 0);
    tree_->setColumnHidden(ModulesModel::Optimizer, all.optimizer_ms == 0);
    // A module deeper down runs a range with as many digits at both ends as the last operation
    // ("#109–111"), wider than the ranges in view now: room for it before it is expanded.
    const qint64 last = model_->tree().node(ModuleTree::kRoot).inclusive.last_operation;
    const int margin =
        2 * (tree_->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, tree_) + 1);
    tree_->setColumnWidth(
        ModulesModel::Number,
        qMax(tree_->columnWidth(ModulesModel::Number),
             tree_->fontMetrics().horizontalAdvance(QStringLiteral("#%1\u2013%1").arg(last)) +
                 margin));
    // Operations' names are longer than modules': room for them once a module is expanded.
    tree_->setColumnWidth(ModulesModel::Name,
                          qMax(tree_->columnWidth(ModulesModel::Name),
                               tree_->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 28));
    connect(model_, &ModulesModel::operationsRead, this, [this] {
        const int width = tree_->columnWidth(ModulesModel::Name);
        tree_->resizeColumnToContents(ModulesModel::Name);
        tree_->setColumnWidth(ModulesModel::Name,
                              qMax(width, tree_->columnWidth(ModulesModel::Name)));
    });
    tree_->setSortingEnabled(true);
    tree_->header()->setSortIndicator(-1, Qt::AscendingOrder);  // the order they run
    sorted_->sort(-1);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ModulesPage::followCurrent);
    if (!pending_path_.isEmpty())
        selectModulePath(std::exchange(pending_path_, QString()));
    emit read();
}

bool ModulesPage::selectModulePath(const QString& path) {
    if (!model_) {
        pending_path_ = path;
        return true;
    }
    const int module = model_->tree().find(path);
    if (module < 0)
        return false;
    selectModule(module);
    return true;
}

void ModulesPage::selectModule(int module) {
    if (!model_)
        return;
    const QModelIndex index = sorted_->mapFromSource(model_->indexOfModule(module));
    for (QModelIndex up = index.parent(); up.isValid(); up = up.parent())
        tree_->expand(up);
    tree_->setCurrentIndex(index);
    tree_->scrollTo(index);
}

void ModulesPage::announceSelection() {
    followCurrent(model_ ? tree_->currentIndex() : QModelIndex());
}

void ModulesPage::followCurrent(const QModelIndex& current) {
    if (!current.isValid()) {
        emit nothingChosen();
        return;
    }
    const QModelIndex source = sorted_->mapToSource(current);
    const int module = source.data(ModulesModel::ModuleRole).toInt();
    if (module >= 0) {
        chart_->setSelected(module);
        const qint64 first = model_->tree().node(module).inclusive.first_operation;
        if (first > 0)
            emit operationChosen(first);
        else
            emit nothingChosen();
        return;
    }
    chart_->setSelected(source.parent().data(ModulesModel::ModuleRole).toInt());
    const qint64 number = source.data(ModulesModel::NumberRole).toLongLong();
    if (number > 0)
        emit operationChosen(number);
    else
        emit nothingChosen();
}

void ModulesPage::contextMenu(const QPoint& pos) {
    const QModelIndex at = sorted_->mapToSource(tree_->indexAt(pos));
    if (!at.isValid())
        return;
    const int module = at.data(ModulesModel::ModuleRole).toInt();
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    if (module >= 0) {
        const ModuleNode& node = model_->tree().node(module);
        const ModuleFigures& all = node.inclusive;
        QAction* filter = menu->addAction(tr("&Filter to This Module"), this, [this, node] {
            const QString name = node.path.isEmpty() ? tr("(model)") : node.path;
            filter_->filterToEntries(
                {node.inclusive.first_operation, node.inclusive.last_operation},
                tr("%1 (#%2–%3)")
                    .arg(name)
                    .arg(node.inclusive.first_operation)
                    .arg(node.inclusive.last_operation));
        });
        filter->setEnabled(all.first_operation > 0);
        menu->addAction(tr("&Zoom Chart Here"), this, [this, module] { chart_->zoomTo(module); });
    }
    menu->popup(tree_->viewport()->mapToGlobal(pos));
}

}  // namespace trainscope::ui
