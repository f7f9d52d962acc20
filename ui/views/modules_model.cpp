// SPDX-License-Identifier: Apache-2.0
#include "views/modules_model.h"

#include <QLocale>
#include "reading/report_run.h"

#include "reading/sql_table_model.h"

namespace trainscope::ui {

ModulesModel::ModulesModel(ReportRun& run, ModuleTree tree, QObject* parent)
    : TreeModel(Count, parent), run_(run), tree_(std::move(tree)) {
    total_ = tree_.node(ModuleTree::kRoot).inclusive;
    if (const auto& memory = run.contents().memory_summary)
        weights_named_ = memory->names_weights;
    fetched_.fill(Fetch::NotAsked, tree_.size());
    notes_.resize(tree_.size());
    module_children_.resize(tree_.size());
    row_of_module_.resize(tree_.size());
    // Rows for every module, parents first (the tree's order).
    for (int module = 0; module < tree_.size(); ++module) {
        const ModuleNode& node = tree_.node(module);
        Row row;
        row.module = module;
        row.parent = node.parent < 0 ? -1 : row_of_module_[node.parent];
        rows_.push_back(row);
        row_of_module_[module] = int(rows_.size()) - 1;
    }
    for (int module = 0; module < tree_.size(); ++module) {
        for (int child : tree_.node(module).children)
            rows_[row_of_module_[module]].children.push_back(row_of_module_[child]);
        module_children_[module] = int(tree_.node(module).children.size());
    }
    units_.resize(Count);
    // One unit for the times, that of the largest (the total).
    units_[Forward] = units_[Backward] = units_[AfterBackward] = units_[Optimizer] = units_[Total] =
        timeUnit(total_.totalMs());
    units_[Activations] = byteUnit(double(total_.activation_bytes));
    units_[Weights] = byteUnit(double(total_.weight_bytes));
    units_[Gradients] = byteUnit(double(total_.gradient_bytes));
}

void ModulesModel::setInclusive(bool inclusive) {
    if (inclusive == inclusive_)
        return;
    inclusive_ = inclusive;
    // Every module's figures change (operations have only their own).
    emit dataChanged(index(0, 0), index(0, Count - 1));
    for (int module = 0; module < tree_.size(); ++module) {
        const int children = module_children_[module];
        if (children == 0)
            continue;
        const QModelIndex parent = indexOfModule(module);
        emit dataChanged(index(0, 0, parent), index(children - 1, Count - 1, parent));
    }
}

QModelIndex ModulesModel::indexOfModule(int module) const {
    if (module < 0 || module >= tree_.size())
        return {};
    return indexOfNode(Node(row_of_module_[module]));
}

int ModulesModel::childCount(Node node) const {
    if (node == kRoot)
        return rows_.isEmpty() ? 0 : 1;  // the model's own row
    return int(rows_[int(node)].children.size());
}

TreeModel::Node ModulesModel::child(Node node, int row) const {
    return node == kRoot ? Node(0) : Node(rows_[int(node)].children[row]);
}

TreeModel::Place ModulesModel::placeOf(Node node) const {
    const int parent = rows_[int(node)].parent;
    if (parent < 0)
        return {kRoot, 0};
    return {Node(parent), int(rows_[parent].children.indexOf(int(node)))};
}

bool ModulesModel::hasChildren(const QModelIndex& parent) const {
    if (!parent.isValid())
        return !rows_.isEmpty();
    const Row& row = rows_[int(parent.internalId())];
    if (row.module < 0)
        return false;
    // Its operations, once expanded, even before they are read.
    const ModuleFigures& own = tree_.node(row.module).self;
    return !row.children.isEmpty() || (fetched_[row.module] != Fetch::Done &&
                                       (own.operations > 0 || own.activation_bytes > 0));
}

bool ModulesModel::canFetchMore(const QModelIndex& parent) const {
    if (!parent.isValid())
        return false;
    const Row& row = rows_[int(parent.internalId())];
    return row.module >= 0 && fetched_[row.module] == Fetch::NotAsked && hasChildren(parent);
}

void ModulesModel::fetchMore(const QModelIndex& parent) {
    if (canFetchMore(parent))
        readOperations(rows_[int(parent.internalId())].module);
}

void ModulesModel::readOperations(int module) {
    fetched_[module] = Fetch::Asked;
    const QString path = tree_.node(module).path;
    run_.readReports<ModuleOperations>(
        [path](const ReportFile* memory, const ReportFile* time) {
            return readModuleOperations(memory, time, path, kMaxOperations);
        },
        this,
        [this, module](const ModuleOperations& read) {
            fetched_[module] = Fetch::Done;
            notes_[module] = read.error;
            const int parent_row = row_of_module_[module];
            const QModelIndex parent = indexOfModule(module);
            const qint64 all =
                qMax(tree_.node(module).self.operations, qint64(read.operations.size()));
            if (read.error.isEmpty() && all > read.operations.size())
                notes_[module] = tr("%1 of its %2 operations are listed")
                                     .arg(formatNumber(double(read.operations.size()), 0),
                                          formatNumber(double(all), 0));
            if (!read.operations.isEmpty()) {
                const int first = int(rows_[parent_row].children.size());
                beginInsertRows(parent, first, first + int(read.operations.size()) - 1);
                for (const ModuleOperation& operation : read.operations) {
                    operations_.push_back(operation);
                    Row row;
                    row.operation = int(operations_.size()) - 1;
                    row.parent = parent_row;
                    rows_.push_back(row);
                    rows_[parent_row].children.push_back(int(rows_.size()) - 1);
                }
                endInsertRows();
            }
            emit dataChanged(parent, parent.siblingAtColumn(Count - 1));
            emit operationsRead(parent);
        });
}

double ModulesModel::figure(const ModuleFigures& f, int column) const {
    switch (column) {
        case Forward:
            return f.forward_ms;
        case Backward:
            return f.backward_ms;
        case AfterBackward:
            return f.after_backward_ms;
        case Optimizer:
            return f.optimizer_ms;
        case Total:
            return f.totalMs();
        case Activations:
            return double(f.activation_bytes);
        case Weights:
            return double(f.weight_bytes);
        case Gradients:
            return double(f.gradient_bytes);
        default:
            return 0;
    }
}

QString ModulesModel::cellText(const ModuleFigures& f, int column) const {
    const double value = figure(f, column);
    const double total = figure(total_, column);
    return tr("%1  (%2 %)").arg(inColumn(value, units_[column]), shareText(value, total));
}

QVariant ModulesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const Row& row = rows_[int(index.internalId())];
    const int column = index.column();
    ModuleFigures figures;
    if (row.module >= 0) {
        const ModuleNode& node = tree_.node(row.module);
        figures = inclusive_ ? node.inclusive : node.self;
    } else {
        const ModuleOperation& op = operations_[row.operation];
        figures.forward_ms = op.forward_ms;
        figures.backward_ms = op.backward_ms;
        figures.after_backward_ms = op.after_backward_ms;
        figures.optimizer_ms = op.optimizer_ms;
        figures.activation_bytes = op.activation_bytes;
    }
    if (role == ModuleRole)
        return row.module;
    if (role == NumberRole)
        return row.module >= 0 ? qint64(0) : operations_[row.operation].number;
    if (role == Qt::TextAlignmentRole && column >= Number)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (row.module >= 0) {
            const ModuleNode& node = tree_.node(row.module);
            QString tip = node.path.isEmpty()
                              ? tr("The model itself, and code outside its submodules")
                              : node.path;
            for (const QString& weight : node.self.tied_to)
                tip += QLatin1Char('\n') +
                       tr("A weight tied to %1: its bytes are counted once, under %1's module.")
                           .arg(weight);
            if (const auto& unit = node.self.fsdp_unit)
                tip += QLatin1Char('\n') + fsdpUnitText(*unit);
            if (!notes_[row.module].isEmpty())
                tip += QLatin1Char('\n') + notes_[row.module];
            if (!weights_named_)
                tip += QLatin1Char('\n') + tr("The imported file names no parameters: the "
                                              "module's weights and gradients are not known.");
            return tip;
        }
        return operations_[row.operation].name;
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool sort = role == SortRole;
    switch (column) {
        case Name:
            if (row.module >= 0) {
                const QString& name = tree_.node(row.module).name;
                return row.module == ModuleTree::kRoot ? tr("(model)") : name;
            }
            return operations_[row.operation].name;
        case Number: {
            if (row.module < 0) {
                const qint64 number = operations_[row.operation].number;
                if (sort)
                    return number;
                return number > 0 ? QStringLiteral("#%1").arg(number) : QStringLiteral("–");
            }
            // A module runs its operations in one stretch: their numbers' range.
            const ModuleFigures& all = tree_.node(row.module).inclusive;
            if (sort)
                return all.first_operation;
            if (all.first_operation == 0)
                return QString();
            return all.first_operation == all.last_operation
                       ? QStringLiteral("#%1").arg(all.first_operation)
                       : QStringLiteral("#%1–%2").arg(all.first_operation).arg(all.last_operation);
        }
        default:
            if (sort)
                return figure(figures, column);
            if (row.module < 0 && (column == Weights || column == Gradients))
                return QString();
            if (!weights_named_ && (column == Weights || column == Gradients))
                return tr("not named");
            // Weights only tied to another module's: where their bytes are, not a bare 0.
            if (row.module >= 0 && (column == Weights || column == Gradients) &&
                figure(figures, column) == 0 && !tree_.node(row.module).self.tied_to.isEmpty()) {
                QStringList names;
                for (const QString& weight : tree_.node(row.module).self.tied_to)
                    names << shortWeightName(weight);
                return tr("tied to %1").arg(names.join(QStringLiteral(", ")));
            }
            return cellText(figures, column);
    }
}

QString shortWeightName(const QString& path) {
    const QStringList parts = path.split(QLatin1Char('.'));
    return parts.size() > 2 ? QStringLiteral("…") + parts.mid(parts.size() - 2).join('.') : path;
}

QString ModulesModel::fsdpUnitText(const FsdpUnitEntry& unit) {
    return tr("An FSDP unit: this rank holds %1 of its %2 parameters; gathered whole they are %3, "
              "all-gathered %4 times in the step (%5 of them prefetched) and held %6 ms in all; "
              "%7 of them at the peak; its largest reduce-scatter %8.")
               .arg(formatBytes(unit.sharded_bytes))
               .arg(unit.parameters)
               .arg(formatBytes(unit.unsharded_bytes))
               .arg(unit.gathers)
               .arg(unit.prefetched)
               .arg(QLocale().toString(unit.gathered_ms, 'f', 3))
               .arg(formatBytes(unit.unsharded_at_peak_bytes),
                    formatBytes(unit.reduce_scatter_bytes)) +
           collectivesText(tr("Its all-gathers (%1): %2, %3, %4 ms."), unit.gathering) +
           collectivesText(tr("Its reduce-scatters (%1): %2, %3, %4 ms."), unit.reducing);
}

QString ModulesModel::collectivesText(const QString& sentence,
                                      const FsdpUnitCollectives& collectives) {
    if (collectives.count == 0) {
        return {};
    }
    return QLatin1Char(' ') +
           sentence.arg(QString::fromStdString(collectives.name))
               .arg(collectives.count)
               .arg(collectives.bytes < 0 ? tr("bytes not known") : formatBytes(collectives.bytes))
               .arg(QLocale().toString(collectives.ms, 'f', 3));
}

QVariant ModulesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::InitialSortOrderRole)
        return section <= Number ? Qt::AscendingOrder : Qt::DescendingOrder;
    if (role == Qt::ToolTipRole && section == AfterBackward)
        return tr(
            "The time of its operations between the backward pass and the optimizer's "
            "step (gradient clipping)");
    if (role == Qt::ToolTipRole && section == Optimizer)
        return tr("The time of its operations in the optimizer's step");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Name:
            return tr("Module");
        case Number:
            return tr("#");
        case Forward:
            return tr("Forward (%1)").arg(units_[section].name);
        case Backward:
            return tr("Backward (%1)").arg(units_[section].name);
        case AfterBackward:
            return tr("After backward (%1)").arg(units_[section].name);
        case Optimizer:
            return tr("Optimizer (%1)").arg(units_[section].name);
        case Total:
            return tr("Total (%1)").arg(units_[section].name);
        case Activations:
            return tr("Activations (%1)").arg(units_[section].name);
        case Weights:
            return tr("Weights (%1)").arg(units_[section].name);
        case Gradients:
            return tr("Gradients (%1)").arg(units_[section].name);
        default:
            return {};
    }
}

}  // namespace trainscope::ui
