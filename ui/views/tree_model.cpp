// SPDX-License-Identifier: Apache-2.0
#include "views/tree_model.h"

namespace trainscope::ui {

TreeModel::TreeModel(int columns, QObject* parent)
    : QAbstractItemModel(parent), columns_(columns) {}

QModelIndex TreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= columns_ || row >= rowCount(parent))
        return {};
    return createIndex(row, column, child(nodeOf(parent), row));
}

QModelIndex TreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid())
        return {};
    return indexOfNode(placeOf(nodeOf(child)).parent);
}

int TreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.column() > 0)
        return 0;
    return childCount(nodeOf(parent));
}

int TreeModel::columnCount(const QModelIndex&) const {
    return columns_;
}

QModelIndex TreeModel::indexOfNode(Node node, int column) const {
    if (node == kRoot)
        return {};
    return createIndex(placeOf(node).row, column, node);
}

}  // namespace trainscope::ui
