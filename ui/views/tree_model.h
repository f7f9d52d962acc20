// SPDX-License-Identifier: Apache-2.0
// The one way to a tree for Qt's item views, under every tree of the app (the Modules tab's, the
// Compare view's): a node is a number, held by its index, and a model says three things of its
// nodes: how many children a node has, which node is a node's row-th child, and where a node is
// (its parent and row). index(), parent() and rowCount() follow from those, written once here;
// the model says what its nodes hold (data()). Nodes need not exist as objects: a model of a
// million compared items encodes its rows in the numbers rather than keeping a node for each.
#pragma once

#include <QAbstractItemModel>

namespace trainscope::ui {

class TreeModel : public QAbstractItemModel {
  public:
    using Node = quintptr;
    static constexpr Node kRoot = ~Node(0);  // the invisible root: its children are the top rows

    TreeModel(int columns, QObject* parent);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const final;
    QModelIndex parent(const QModelIndex& child) const final;
    int rowCount(const QModelIndex& parent = {}) const final;  // only column 0 has children
    int columnCount(const QModelIndex& parent = {}) const final;

  protected:
    struct Place {
        Node parent = kRoot;
        int row = 0;
    };
    virtual int childCount(Node node) const = 0;
    virtual Node child(Node node, int row) const = 0;  // row < childCount(node)
    virtual Place placeOf(Node node) const = 0;        // of a node other than kRoot

    static Node nodeOf(const QModelIndex& index) {
        return index.isValid() ? index.internalId() : kRoot;
    }
    // The index of `node` at `column` (invalid for kRoot).
    QModelIndex indexOfNode(Node node, int column = 0) const;

  private:
    int columns_;
};

}  // namespace trainscope::ui
