// SPDX-License-Identifier: Apache-2.0
// The Modules tab: the run by module (ModulesModel) in a tree, above an icicle chart of the
// same hierarchy. Selecting a module or an operation in either selects it in both, and the
// report browser shows its frames. Read on the run's worker when the tab is first shown.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeView;
class QSortFilterProxyModel;

namespace trainscope::ui {

class IcicleChart;
class ModulesModel;
class ReportRun;
class RunFilter;
struct ModuleTreeRead;

class ModulesPage : public QWidget {
    Q_OBJECT
  public:
    ModulesPage(ReportRun& run, RunFilter* filter, QWidget* parent = nullptr);

    bool isRead() const { return model_ != nullptr; }
    ModulesModel* model() const { return model_; }
    QTreeView* treeView() const { return tree_; }
    IcicleChart* chart() const { return chart_; }
    QComboBox* figuresChoice() const { return figures_; }
    QComboBox* widthChoice() const { return width_; }
    QLabel* message() const { return message_; }
    QLineEdit* findField() const { return find_; }
    // Selects module `module` (a ModuleTree node) in the tree and the chart.
    void selectModule(int module);
    // Selects the module at `path` ("blocks_0.mlp"), once the tree is read; false when the
    // read tree has no such module.
    bool selectModulePath(const QString& path);
    // Says again what is selected (operationChosen() or nothingChosen()): the tab is back.
    void announceSelection();

  signals:
    void read();  // the tree is read and shown (or why it cannot be, in message())
    // The selection's frames: an operation's (its # is its run time entry id) or, for a
    // module, its first operation's, whose outer frames are the line that called the module.
    void operationChosen(qint64 number);
    void nothingChosen();

  private:
    void show(const ModuleTreeRead& result);
    void followCurrent(const QModelIndex& current);
    void contextMenu(const QPoint& pos);

    ReportRun& run_;
    RunFilter* filter_;
    QString pending_path_;  // asked before the tree was read
    ModulesModel* model_ = nullptr;
    QSortFilterProxyModel* sorted_;
    QTreeView* tree_;
    IcicleChart* chart_;
    QComboBox* figures_;
    QComboBox* width_;
    QPushButton* reset_zoom_;
    QLineEdit* find_;
    QLabel* message_;
};

}  // namespace trainscope::ui
