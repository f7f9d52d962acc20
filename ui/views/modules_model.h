// SPDX-License-Identifier: Apache-2.0
// The Modules tab's tree: modules nested as their paths say, each with its forward and backward
// time, activation, weight and gradient bytes, inclusive of its submodules or its own (self),
// each with its share of the run. Expanding a module reads its operations from the run.
#pragma once

#include <memory>

#include "reading/module_tree.h"
#include "reading/units.h"
#include "views/tree_model.h"

namespace trainscope::ui {

class ReportRun;

class ModulesModel : public TreeModel {
    Q_OBJECT
  public:
    enum Column {
        Name,
        Number,
        Forward,
        Backward,
        AfterBackward,  // clipping: hidden where the run has none
        Optimizer,      // the optimizer's step: hidden where the run's report has none
        Total,
        Activations,
        Weights,
        Gradients,
        Count
    };
    static constexpr int SortRole = Qt::UserRole + 1;  // the raw figure behind a cell
    // An operation row's # (0 for a module's row): its run time entry id.
    static constexpr int NumberRole = Qt::UserRole + 2;
    // A module row's index in tree() (-1 for an operation's row).
    static constexpr int ModuleRole = Qt::UserRole + 3;
    // Operations read when a module is expanded (the rest are counted in a last row).
    static constexpr int kMaxOperations = 2000;

    ModulesModel(ReportRun& run, ModuleTree tree, QObject* parent = nullptr);

    const ModuleTree& tree() const { return tree_; }
    // Inclusive (with submodules) or self figures.
    void setInclusive(bool inclusive);
    bool inclusive() const { return inclusive_; }
    QModelIndex indexOfModule(int module) const;

    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    // What the tooltip of an FSDP unit's row says of it.
    static QString fsdpUnitText(const FsdpUnitEntry& unit);
    static QString collectivesText(const QString& sentence, const FsdpUnitCollectives& collectives);

  signals:
    // The operations of a module were read (or why they could not be).
    void operationsRead(const QModelIndex& module);

  protected:
    // A node is a row's index in rows_.
    int childCount(Node node) const override;
    Node child(Node node, int row) const override;
    Place placeOf(Node node) const override;

  private:
    // A row: a module (its tree node) or one of a module's operations.
    struct Row {
        int module = -1;     // the tree node, for a module's row
        int operation = -1;  // index in operations_, for an operation's row
        int parent = -1;     // the parent row
        QVector<int> children;
    };
    enum class Fetch { NotAsked, Asked, Done };
    double figure(const ModuleFigures& figures, int column) const;
    QString cellText(const ModuleFigures& figures, int column) const;
    void readOperations(int module);

    ReportRun& run_;
    ModuleTree tree_;
    bool inclusive_ = true;
    // False for an imported file, which names no parameter: its weights and gradients per
    // module are not known, rather than 0.
    bool weights_named_ = true;
    QVector<Row> rows_;             // rows_[0]: the model itself
    QVector<int> row_of_module_;    // tree node -> row
    QVector<Fetch> fetched_;        // per tree node
    QVector<int> module_children_;  // per tree node: how many of its rows are submodules
    QVector<ModuleOperation> operations_;
    QVector<QString> notes_;  // per tree node: why operations are missing, if they are
    ModuleFigures total_;     // the root's inclusive figures: the shares' denominators
    QVector<Unit> units_;     // per column, for its largest figure (the total)
};

// A weight's name and its module's, the rest of its path left out ("…wte.weight" for
// "transformer.wte.weight"): where a cell names a weight of another module (a tied one), the
// whole path pushed the figures out of the window; the row's tooltip has it whole.
QString shortWeightName(const QString& path);

}  // namespace trainscope::ui
