// SPDX-License-Identifier: Apache-2.0
// The Compare view's tree: Totals, Modules, Operations and Parameters, each item with the base
// and new run's time and memory, Δ and Δ%, and below it one row per figure (forward time,
// activations, ...). Items are sorted within their section (by |Δ time| at first); a find
// text keeps the items whose name holds it.
#pragma once

#include <QVector>
#include <memory>

#include "reading/units.h"
#include "trainscope/comparison.h"
#include "views/tree_model.h"

namespace trainscope::ui {

class CompareModel : public TreeModel {
    Q_OBJECT
  public:
    enum Column {
        Name,
        Status,
        TimeBase,
        TimeNew,
        TimeDelta,
        TimePercent,
        MemoryBase,
        MemoryNew,
        MemoryDelta,
        MemoryPercent,
        Count
    };
    static constexpr int SortRole = Qt::UserRole + 1;  // the figure a column sorts by
    // Where a change goes: 1 worse (an increase beyond noise, or an added item), -1 better,
    // 0 neither (within noise, or no change).
    static constexpr int DirectionRole = Qt::UserRole + 2;

    explicit CompareModel(std::shared_ptr<const Comparison> comparison, QObject* parent = nullptr);

    const Comparison& comparison() const { return *comparison_; }
    // The item of a row (an item's, or one of its figures'); null for a section's row.
    const ComparedItem* itemAt(const QModelIndex& index) const;
    QModelIndex indexOfItem(const ComparedItem* item) const;
    QModelIndex sectionIndex(ItemKind kind) const;
    void setFindText(const QString& text);

    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    static QString itemName(const ComparedItem& item);
    static QString figureName(Figure figure);

  protected:
    // Nodes are numbers (a million items keep no node each): a section's is its row, an item's
    // kItemBase + item * kItemStride, its figures' the next numbers.
    int childCount(Node node) const override;
    Node child(Node node, int row) const override;
    Place placeOf(Node node) const override;

  private:
    struct Section {
        ItemKind kind;
        QVector<int> items;  // indices into comparison().items, in the order shown
    };
    void rebuild();
    QVariant cell(const FigureChange& change, bool time, int column, int role) const;
    double sortKey(int item, int column) const;

    std::shared_ptr<const Comparison> comparison_;
    QVector<Section> sections_;
    QVector<int> row_of_item_;      // comparison item -> its row in its section (-1: hidden)
    QVector<int> section_of_kind_;  // ItemKind -> section row (-1: none)
    QString find_;
    int sort_column_ = TimeDelta;
    Qt::SortOrder sort_order_ = Qt::DescendingOrder;
    Unit time_unit_, byte_unit_;
};

}  // namespace trainscope::ui
