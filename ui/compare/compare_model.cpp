// SPDX-License-Identifier: Apache-2.0
#include "compare/compare_model.h"

#include <QApplication>
#include <QColor>
#include <QFont>
#include <QLocale>
#include <QPalette>
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "settings/theme.h"

namespace trainscope::ui {
namespace {

// The nodes of the tree (TreeModel): a section's is its row (fewer than kItemBase), an item's
// kItemBase + item * kItemStride, and its figure f's the item's + 1 + f.
constexpr quintptr kItemBase = 16;
constexpr quintptr kItemStride = 16;
static_assert(static_cast<quintptr>(Figure::PeakOther) + 2 <= kItemStride,
              "an item's figures fit in its stride");

bool isSection(quintptr node) {
    return node < kItemBase;
}
int itemOf(quintptr node) {  // of an item's or a figure's node
    return static_cast<int>((node - kItemBase) / kItemStride);
}
int figureOf(quintptr node) {  // -1: the item's own row
    return static_cast<int>((node - kItemBase) % kItemStride) - 1;
}
quintptr itemNode(int item) {
    return kItemBase + static_cast<quintptr>(item) * kItemStride;
}

// A figure in the unit that suits it, named: the rows range from microseconds to the whole
// iteration, so each cell has its own unit.
QString amount(double value, bool time) {
    const Unit unit = time ? timeUnit(std::abs(value)) : byteUnit(std::abs(value));
    return inUnit(value, unit) + QLatin1Char(' ') + unit.name;
}

QString signedAmount(double value, bool time) {
    const QString text = amount(std::abs(value), time);
    return value > 0 ? QLatin1Char('+') + text : value < 0 ? QChar(0x2212) + text : text;
}

int directionOf(const FigureChange& change) {
    if (!change.compared()) {
        return change.changed ? 1 : change.base ? -1 : 0;  // added costs, removed saves
    }
    if (!change.significant()) {
        return 0;
    }
    return change.delta() > 0 ? 1 : -1;
}

double magnitude(const FigureChange& change) {
    if (change.compared()) {
        return std::abs(change.delta());
    }
    return std::abs(change.base.value_or(change.changed.value_or(0.0)));
}

}  // namespace

CompareModel::CompareModel(std::shared_ptr<const Comparison> comparison, QObject* parent)
    : TreeModel(Count, parent), comparison_(std::move(comparison)) {
    rebuild();
}

QString CompareModel::itemName(const ComparedItem& item) {
    if (item.kind == ItemKind::Operation && item.entry_kind == EntryKind::RunTime) {
        // The comparison names a call by its place and its order there ("#1": the first); the
        // main window numbers each operation of a run (#34). Shown here: the main window's
        // numbers, the base run's and the new run's where they differ.
        QString name = QString::fromStdString(item.name);
        if (const int occurrence = name.lastIndexOf(QStringLiteral(" #")); occurrence >= 0)
            name.truncate(occurrence);
        const qint64 base = item.base_entry, changed = item.new_entry;
        const QString number = base > 0 && changed > 0 && base != changed
                                   ? QStringLiteral("#%1 → #%2").arg(base).arg(changed)
                                   : QStringLiteral("#%1").arg(base > 0 ? base : changed);
        return name + QLatin1Char(' ') + number;
    }
    if (item.kind != ItemKind::Total) {
        return QString::fromStdString(item.name);
    }
    static const QHash<QString, const char*> totals = {
        {QStringLiteral("iteration"), QT_TR_NOOP("Iteration (wall time, peak memory)")},
        {QStringLiteral("forward"), QT_TR_NOOP("Forward pass (activations)")},
        {QStringLiteral("backward"), QT_TR_NOOP("Backward pass (gradients)")},
        {QStringLiteral("after_backward"), QT_TR_NOOP("After the backward pass")},
        {QStringLiteral("optimizer"), QT_TR_NOOP("Optimizer step")},
        {QStringLiteral("weights"), QT_TR_NOOP("Weights")},
        {QStringLiteral("peak_weights"), QT_TR_NOOP("At the peak: weights")},
        {QStringLiteral("peak_gradients"), QT_TR_NOOP("At the peak: gradients")},
        {QStringLiteral("peak_optimizer_state"), QT_TR_NOOP("At the peak: optimizer state")},
        {QStringLiteral("peak_activations"), QT_TR_NOOP("At the peak: activations")},
        {QStringLiteral("peak_other"), QT_TR_NOOP("At the peak: other")},
    };
    const QString key = QString::fromStdString(item.name);
    const char* text = totals.value(key);
    return text ? tr(text) : key;
}

QString CompareModel::figureName(Figure figure) {
    switch (figure) {
        case Figure::IterationTime:
            return tr("Iteration (wall time)");
        case Figure::ForwardTime:
            return tr("Forward time");
        case Figure::BackwardTime:
            return tr("Backward time");
        case Figure::AfterBackwardTime:
            return tr("Time after backward");
        case Figure::OptimizerTime:
            return tr("Optimizer time");
        case Figure::ActivationBytes:
            return tr("Activations");
        case Figure::WeightBytes:
            return tr("Weights");
        case Figure::GradientBytes:
            return tr("Gradients");
        case Figure::PeakBytes:
            return tr("Peak");
        case Figure::PeakWeights:
            return tr("Weights at the peak");
        case Figure::PeakGradients:
            return tr("Gradients at the peak");
        case Figure::PeakOptimizerState:
            return tr("Optimizer state at the peak");
        case Figure::PeakActivations:
            return tr("Activations at the peak");
        case Figure::PeakOther:
            return tr("Other at the peak");
    }
    return {};
}

void CompareModel::rebuild() {
    const auto& items = comparison_->items;
    sections_.clear();
    section_of_kind_ = QVector<int>(4, -1);
    row_of_item_ = QVector<int>(static_cast<int>(items.size()), -1);
    for (int i = 0; i < static_cast<int>(items.size()); ++i) {
        const ComparedItem& item = items[i];
        if (!find_.isEmpty() && item.kind != ItemKind::Total &&
            !itemName(item).contains(find_, Qt::CaseInsensitive)) {
            continue;
        }
        const int kind = static_cast<int>(item.kind);
        if (section_of_kind_[kind] < 0) {
            section_of_kind_[kind] = sections_.size();
            sections_.push_back({item.kind, {}});
        }
        sections_[section_of_kind_[kind]].items.push_back(i);
    }
    std::sort(sections_.begin(), sections_.end(),
              [](const Section& a, const Section& b) { return a.kind < b.kind; });
    for (int s = 0; s < sections_.size(); ++s) {
        section_of_kind_[static_cast<int>(sections_[s].kind)] = s;
        QVector<int>& rows = sections_[s].items;
        if (sort_column_ == Name) {
            std::stable_sort(rows.begin(), rows.end(), [this](int a, int b) {
                return sort_order_ == Qt::AscendingOrder
                           ? comparison_->items[a].name < comparison_->items[b].name
                           : comparison_->items[a].name > comparison_->items[b].name;
            });
        } else {
            // Each row's key once (an item's time and memory are sums over its figures), not
            // twice per comparison: a million operations sort on the GUI thread.
            std::vector<std::pair<double, int>> keyed;
            keyed.reserve(rows.size());
            for (int item : rows)
                keyed.emplace_back(sortKey(item, sort_column_), item);
            std::stable_sort(keyed.begin(), keyed.end(), [this](const auto& a, const auto& b) {
                return sort_order_ == Qt::AscendingOrder ? a.first < b.first : a.first > b.first;
            });
            for (int r = 0; r < rows.size(); ++r)
                rows[r] = keyed[r].second;
        }
        for (int r = 0; r < rows.size(); ++r)
            row_of_item_[rows[r]] = r;
    }
}

double CompareModel::sortKey(int item_index, int column) const {
    const ComparedItem& item = comparison_->items[item_index];
    const bool time = column >= TimeBase && column <= TimePercent;
    const FigureChange change = time ? item.time() : item.memory();
    switch (column) {
        case Status:
            return static_cast<double>(item.presence);
        case TimeBase:
        case MemoryBase:
            return change.base.value_or(-1);
        case TimeNew:
        case MemoryNew:
            return change.changed.value_or(-1);
        case TimeDelta:
        case MemoryDelta:
            return magnitude(change);
        case TimePercent:
        case MemoryPercent:
            return std::abs(change.percent().value_or(change.compared() ? 0 : 1e300));
        default:
            return 0;
    }
}

void CompareModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= Count) {
        return;
    }
    emit layoutAboutToBeChanged();
    const QModelIndexList before = persistentIndexList();
    QVector<const ComparedItem*> items;
    for (const QModelIndex& index : before)
        items.push_back(itemAt(index));
    sort_column_ = column;
    sort_order_ = order;
    rebuild();
    QModelIndexList after;
    for (int i = 0; i < before.size(); ++i) {
        const QModelIndex& old = before[i];
        if (!old.parent().isValid()) {  // a section: its row may move if sections differ
            after.push_back(old);
        } else if (old.parent().parent().isValid()) {  // a figure: same row under the moved item
            const QModelIndex item = indexOfItem(items[i]);
            after.push_back(item.isValid() ? index(old.row(), old.column(), item) : QModelIndex());
        } else {
            const QModelIndex item = indexOfItem(items[i]);
            after.push_back(item.isValid() ? item.siblingAtColumn(old.column()) : QModelIndex());
        }
    }
    changePersistentIndexList(before, after);
    emit layoutChanged();
}

void CompareModel::setFindText(const QString& text) {
    if (text == find_) {
        return;
    }
    beginResetModel();
    find_ = text;
    rebuild();
    endResetModel();
}

const ComparedItem* CompareModel::itemAt(const QModelIndex& index) const {
    const Node node = nodeOf(index);
    if (node == kRoot || isSection(node)) {
        return nullptr;
    }
    return &comparison_->items[itemOf(node)];
}

QModelIndex CompareModel::indexOfItem(const ComparedItem* item) const {
    if (!item) {
        return {};
    }
    const int i = static_cast<int>(item - comparison_->items.data());
    if (i < 0 || i >= row_of_item_.size() || row_of_item_[i] < 0 ||
        section_of_kind_[static_cast<int>(item->kind)] < 0) {
        return {};
    }
    return indexOfNode(itemNode(i));
}

QModelIndex CompareModel::sectionIndex(ItemKind kind) const {
    const int section = section_of_kind_[static_cast<int>(kind)];
    return section < 0 ? QModelIndex() : indexOfNode(Node(section));
}

int CompareModel::childCount(Node node) const {
    if (node == kRoot) {
        return sections_.size();
    }
    if (isSection(node)) {
        return sections_[static_cast<int>(node)].items.size();
    }
    if (figureOf(node) < 0) {
        return static_cast<int>(comparison_->items[itemOf(node)].figures.size());
    }
    return 0;
}

TreeModel::Node CompareModel::child(Node node, int row) const {
    if (node == kRoot) {
        return Node(row);
    }
    if (isSection(node)) {
        return itemNode(sections_[static_cast<int>(node)].items[row]);
    }
    return node + 1 + static_cast<Node>(row);
}

TreeModel::Place CompareModel::placeOf(Node node) const {
    if (isSection(node)) {
        return {kRoot, static_cast<int>(node)};
    }
    const int item = itemOf(node);
    if (figureOf(node) >= 0) {
        return {itemNode(item), figureOf(node)};
    }
    const int section = section_of_kind_[static_cast<int>(comparison_->items[item].kind)];
    return {Node(section), row_of_item_[item]};
}

QVariant CompareModel::cell(const FigureChange& change, bool time, int column, int role) const {
    const int first = time ? TimeBase : MemoryBase;
    const int which = column - first;  // 0 base, 1 new, 2 Δ, 3 Δ%
    if (role == DirectionRole || (role == Qt::ForegroundRole && which >= 2)) {
        const int direction = directionOf(change);
        if (role == DirectionRole) {
            return direction;
        }
        const bool dark = isDark(QApplication::palette());
        if (direction > 0) {
            return QColor(dark ? QStringLiteral("#ef9a9a") : QStringLiteral("#c62828"));
        }
        if (direction < 0) {
            return QColor(dark ? QStringLiteral("#a5d6a7") : QStringLiteral("#2e7d32"));
        }
        return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
    }
    if (role == Qt::TextAlignmentRole) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) {
        return {};
    }
    // A grey change says why it is grey.
    if (role == Qt::ToolTipRole && which >= 2 && change.compared() && change.delta() != 0 &&
        !change.significant()) {
        return tr(
            "Within noise: the two runs' timed iterations overlap (or the change is a "
            "few microseconds), so it counts as neither an increase nor a decrease");
    }
    switch (which) {
        case 0:
            return change.base ? amount(*change.base, time) : QString();
        case 1:
            return change.changed ? amount(*change.changed, time) : QString();
        case 2:
            return change.compared() ? signedAmount(change.delta(), time) : QString();
        case 3: {
            if (!change.compared() || change.delta() == 0) {
                return QString();
            }
            const std::optional<double> percent = change.percent();
            if (!percent) {
                return tr("new");
            }
            const QString text = QLocale().toString(std::abs(*percent), 'f', 1) + QLatin1Char('%');
            return *percent > 0 ? QLatin1Char('+') + text : QChar(0x2212) + text;
        }
        default:
            return {};
    }
}

QVariant CompareModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const int column = index.column();
    if (isSection(nodeOf(index))) {
        if (role == Qt::DisplayRole && column == Name) {
            const Section& section = sections_[index.row()];
            switch (section.kind) {
                case ItemKind::Total:
                    return tr("Totals");
                case ItemKind::Module:
                    return tr("Modules (%n)", nullptr, section.items.size());
                case ItemKind::Operation:
                    return tr("Operations (%n)", nullptr, section.items.size());
                case ItemKind::Weight:
                    return tr("Parameters (%n)", nullptr, section.items.size());
            }
        }
        if (role == Qt::FontRole) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    }
    const ComparedItem* item = itemAt(index);
    const bool figure_row = figureOf(nodeOf(index)) >= 0;
    if (figure_row) {
        const FigureChange& change = item->figures[index.row()];
        if (column == Name) {  // whole in its tooltip, where the column elides it
            return role == Qt::DisplayRole || role == Qt::ToolTipRole ? figureName(change.figure)
                                                                      : QVariant();
        }
        if (column == Status) {
            if (role == Qt::DisplayRole && change.compared() && change.delta() != 0 &&
                !change.significant()) {
                return tr("within noise");
            }
            if (role == Qt::ToolTipRole && change.base_spread && change.new_spread) {
                return tr("Fastest to slowest measured iteration: base %1 to %2, new %3 to %4")
                    .arg(amount(change.base_spread->min_ms, true),
                         amount(change.base_spread->max_ms, true),
                         amount(change.new_spread->min_ms, true),
                         amount(change.new_spread->max_ms, true));
            }
            return {};
        }
        const bool time = column >= TimeBase && column <= TimePercent;
        if (time != isTime(change.figure)) {
            return {};
        }
        return cell(change, time, column, role);
    }
    if (column == Name) {
        if (role == Qt::DisplayRole) {
            return itemName(*item);
        }
        if (role == Qt::ToolTipRole) {  // its name whole, and where it was called
            const QString name = itemName(*item);
            return item->location.empty()
                       ? name
                       : name + QLatin1Char('\n') + QString::fromStdString(item->location);
        }
        return {};
    }
    if (column == Status) {
        if (role == Qt::DisplayRole) {
            return item->presence == Presence::Added     ? tr("added")
                   : item->presence == Presence::Removed ? tr("removed")
                                                         : QString();
        }
        if (role == DirectionRole || role == Qt::ForegroundRole) {
            const FigureChange presence = item->presence == Presence::Both ? FigureChange{}
                                          : item->presence == Presence::Added
                                              ? FigureChange{Figure::ForwardTime, {}, 1.0, {}, {}}
                                              : FigureChange{Figure::ForwardTime, 1.0, {}, {}, {}};
            return cell(presence, true, TimeDelta, role);
        }
        return {};
    }
    const bool time = column >= TimeBase && column <= TimePercent;
    if (role == SortRole) {
        return sortKey(static_cast<int>(item - comparison_->items.data()), column);
    }
    const FigureChange change = time ? item->time() : item->memory();
    if (!change.base && !change.changed) {
        return {};
    }
    return cell(change, time, column, role);
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::ToolTipRole) {
        if (section >= TimeBase && section <= TimePercent)
            return tr(
                "Forward + backward time (for the iteration: its wall time). A change "
                "counts when the runs' fastest and slowest iterations do not overlap.");
        if (section >= MemoryBase && section <= MemoryPercent)
            return tr(
                "Activations + weights + gradients (for the iteration: the peak). "
                "Memory is exact: every change counts.");
        return {};
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case Name:
            return tr("Item");
        case Status:
            return tr("Status");
        case TimeBase:
            return tr("Time: base");
        case TimeNew:
            return tr("new");
        case TimeDelta:
            return tr("Δ time");
        case TimePercent:
            return tr("Δ%");
        case MemoryBase:
            return tr("Memory: base");
        case MemoryNew:
            return tr("new");
        case MemoryDelta:
            return tr("Δ memory");
        case MemoryPercent:
            return tr("Δ%");
        default:
            return {};
    }
}

}  // namespace trainscope::ui
