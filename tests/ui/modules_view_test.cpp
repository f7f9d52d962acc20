// SPDX-License-Identifier: Apache-2.0
// The Modules tab on a real built-in transformer run: the tree's totals are the report's, a
// module's operations add up to its own figures, and the tree and the icicle chart select
// together, with the frames following.
#include <gtest/gtest.h>

#include <functional>

#include <QComboBox>
#include <QListWidget>
#include <QMenu>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "main_window.h"
#include "reading/sql_table_model.h"
#include "ui/sample_run.h"
#include "views/entry_table_view.h"
#include "views/icicle_chart.h"
#include "views/modules_model.h"
#include "views/modules_page.h"
#include "views/report_browser.h"
#include "views/run_filter.h"

namespace trainscope::test {
namespace {

using ui::ModulesModel;
using ui::ModuleTree;

class ModulesViewTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new QTemporaryDir;
        paths_ = copyBuiltinProfile(QStringLiteral("transformer"), dir_->path());
    }
    static void TearDownTestSuite() { delete dir_; }

    void SetUp() override {
        ASSERT_EQ(paths_.size(), 3);
        window_.show();
        ASSERT_TRUE(openAndWait(window_, {paths_[0]}));
        browser_ = window_.browser();
        page_ = browser_->modulesPage();
        ASSERT_NE(page_, nullptr);
        browser_->tabs()->setCurrentWidget(page_->parentWidget());
        ASSERT_TRUE(QTest::qWaitFor([&] { return page_->isRead(); }, 10000));
        model_ = page_->model();
    }

    const ModuleTree& tree() const { return model_->tree(); }

    static inline QTemporaryDir* dir_ = nullptr;
    static inline QStringList paths_;
    ui::MainWindow window_;
    ui::ReportBrowser* browser_ = nullptr;
    ui::ModulesPage* page_ = nullptr;
    ModulesModel* model_ = nullptr;
};

TEST_F(ModulesViewTest, TheTreesTotalsAreTheReportsTotals) {
    const ui::ModuleFigures& all = tree().node(ModuleTree::kRoot).inclusive;
    const auto& time = *browser_->timeSummary();
    const auto& memory = *browser_->memorySummary();
    EXPECT_NEAR(all.forward_ms, time.times.forward_ms, 1e-9 * time.times.forward_ms);
    EXPECT_NEAR(all.backward_ms, time.times.backward_ms, 1e-9 * time.times.backward_ms);
    EXPECT_NEAR(all.optimizer_ms, time.times.optimizer_ms, 1e-9 * time.times.optimizer_ms);
    EXPECT_NEAR(all.after_backward_ms, time.times.after_backward_ms, 1e-9);
    // A column for each part the run has, none of zeros.
    EXPECT_EQ(page_->treeView()->isColumnHidden(ModulesModel::Optimizer),
              time.times.optimizer_ms == 0);
    EXPECT_TRUE(page_->treeView()->isColumnHidden(ModulesModel::AfterBackward));
    EXPECT_EQ(all.operations, time.operations);
    EXPECT_EQ(all.activation_bytes, memory.activations);
    EXPECT_EQ(all.weight_bytes, memory.weights);
    EXPECT_EQ(all.gradient_bytes, memory.gradients);
    EXPECT_EQ(all.first_operation, 1);
    EXPECT_EQ(all.last_operation, time.operations);
    // Each module's figures are its own plus its submodules'.
    for (int module = 0; module < tree().size(); ++module) {
        ui::ModuleFigures sum = tree().node(module).self;
        for (int child : tree().node(module).children)
            sum.add(tree().node(child).inclusive);
        EXPECT_EQ(sum.activation_bytes, tree().node(module).inclusive.activation_bytes);
        EXPECT_EQ(sum.operations, tree().node(module).inclusive.operations);
    }
    // The transformer's modules, nested as their paths say.
    const int mlp = tree().find(QStringLiteral("blocks_0.mlp"));
    ASSERT_GE(mlp, 0);
    EXPECT_EQ(tree().node(tree().node(mlp).parent).path, QStringLiteral("blocks_0"));
    EXPECT_GE(tree().find(QStringLiteral("blocks_0.mlp.lin_0")), 0);
    EXPECT_GE(tree().find(QStringLiteral("lm_head")), 0);
}

TEST_F(ModulesViewTest, ExpandingAModuleListsItsOperationsWhichAddUpToItsOwnFigures) {
    const int mlp = tree().find(QStringLiteral("blocks_0.mlp"));
    ASSERT_GE(mlp, 0);
    page_->selectModule(mlp);  // its parent expands, which reads the parent's operations
    const QModelIndex index = model_->indexOfModule(mlp);
    page_->treeView()->expand(
        qobject_cast<QSortFilterProxyModel*>(page_->treeView()->model())->mapFromSource(index));
    // Its own operations come after its two submodules.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return model_->rowCount(index) > tree().node(mlp).children.size(); }, 10000));
    const ui::ModuleFigures& own = tree().node(mlp).self;
    double forward = 0;
    qint64 activations = 0, operations = 0;
    for (int row = 0; row < model_->rowCount(index); ++row) {
        const QModelIndex child = model_->index(row, 0, index);
        if (child.data(ModulesModel::ModuleRole).toInt() >= 0)
            continue;  // a submodule
        ++operations;
        const qint64 number = child.data(ModulesModel::NumberRole).toLongLong();
        EXPECT_GE(number, tree().node(mlp).inclusive.first_operation);
        EXPECT_LE(number, tree().node(mlp).inclusive.last_operation);
        forward += model_->index(row, ModulesModel::Forward, index)
                       .data(ModulesModel::SortRole)
                       .toDouble();
        activations += model_->index(row, ModulesModel::Activations, index)
                           .data(ModulesModel::SortRole)
                           .toLongLong();
    }
    EXPECT_EQ(operations, own.operations);
    EXPECT_GT(operations, 0);  // the gelu between the two linear layers
    EXPECT_NEAR(forward, own.forward_ms, 1e-9);
    EXPECT_EQ(activations, own.activation_bytes);
}

TEST_F(ModulesViewTest, ClickingTheChartSelectsTheModuleAndShowsWhereItIsCalled) {
    const int attn = tree().find(QStringLiteral("blocks_1.attn"));
    ASSERT_GE(attn, 0);
    ui::IcicleChart* chart = page_->chart();
    const QRectF rect = chart->rectOf(attn);
    ASSERT_FALSE(rect.isEmpty());
    QTest::mouseClick(chart, Qt::LeftButton, {}, rect.center().toPoint());
    waitForReads();
    const QModelIndex current = page_->treeView()->currentIndex();
    ASSERT_TRUE(current.isValid());
    EXPECT_EQ(current.data(ModulesModel::ModuleRole).toInt(), attn);
    EXPECT_EQ(chart->selected(), attn);
    EXPECT_FALSE(items(browser_->framesList()).isEmpty());
    EXPECT_TRUE(chart->toolTipOf(attn).startsWith(QStringLiteral("blocks_1.attn\n")));
    // A double click zooms into it: it fills the width.
    QTest::mouseDClick(chart, Qt::LeftButton, {}, rect.center().toPoint());
    EXPECT_EQ(chart->zoomed(), attn);
    EXPECT_NEAR(chart->rectOf(attn).width(), chart->width(), 1.0);
}

TEST_F(ModulesViewTest, SelfFiguresLeaveOutTheSubmodules) {
    const QModelIndex root = model_->index(0, ModulesModel::Forward);
    const double inclusive = root.data(ModulesModel::SortRole).toDouble();
    page_->figuresChoice()->setCurrentIndex(1);
    EXPECT_FALSE(model_->inclusive());
    const double self = root.data(ModulesModel::SortRole).toDouble();
    EXPECT_LT(self, inclusive);
    EXPECT_DOUBLE_EQ(self, tree().node(ModuleTree::kRoot).self.forward_ms);
}

TEST_F(ModulesViewTest, FilteringToAModuleKeepsTheOperationsItRan) {
    const int block = tree().find(QStringLiteral("blocks_2"));
    ASSERT_GE(block, 0);
    page_->selectModule(block);
    const QModelIndex index = page_->treeView()->currentIndex();
    const QPoint at = page_->treeView()->visualRect(index).center();
    QMetaObject::invokeMethod(page_->treeView(), "customContextMenuRequested", Q_ARG(QPoint, at));
    auto* menu = page_->findChild<QMenu*>();
    ASSERT_NE(menu, nullptr);
    menu->actions().first()->trigger();
    const auto& entries = browser_->filter()->current().entries;
    ASSERT_TRUE(entries.has_value());
    EXPECT_EQ(entries->first, tree().node(block).inclusive.first_operation);
    EXPECT_EQ(entries->last, tree().node(block).inclusive.last_operation);
}

// A column of sizes or times has one unit, in its header and in none of its cells, chosen for
// the table's largest figure: the transformer's activations go up to 32 MiB, so every size there
// is in MiB, and one that would read "0.0" in it (the 1 KiB of aten::arange) reads "< 0.1",
// never 0 and never in a unit of its own.
// Every module's range of operations ("#98–120") reads whole once the tree is expanded: the
// column is as wide as the widest such range before a deeper module is shown.
TEST_F(ModulesViewTest, EveryModulesRangeOfOperationsReadsWhole) {
    QTreeView* view = page_->treeView();
    view->expandAll();
    QTest::qWait(50);
    const int width = view->columnWidth(ModulesModel::Number);
    int ranges = 0;
    std::function<void(const QModelIndex&)> visit = [&](const QModelIndex& parent) {
        for (int row = 0; row < view->model()->rowCount(parent); ++row) {
            const QModelIndex number = view->model()->index(row, ModulesModel::Number, parent);
            const QString text = number.data().toString();
            if (text.contains(QChar(0x2013))) {
                ++ranges;
                EXPECT_LE(view->sizeHintForIndex(number).width(), width) << text.toStdString();
            }
            visit(view->model()->index(row, 0, parent));
        }
    };
    visit({});
    EXPECT_GE(ranges, 3);
}

TEST_F(ModulesViewTest, EachColumnOfFiguresHasOneUnit) {
    waitForReads();
    QAbstractItemModel* activations = browser_->activationsView()->model();
    int size = -1;
    for (int column = 0; column < activations->columnCount(); ++column) {
        if (activations->headerData(column, Qt::Horizontal).toString().startsWith("Size"))
            size = column;
    }
    ASSERT_GE(size, 0);
    EXPECT_EQ(activations->headerData(size, Qt::Horizontal).toString(),
              QStringLiteral("Size (MiB)"));
    int too_small = 0;
    for (int row = 0; row < activations->rowCount(); ++row) {
        const QString text = activations->index(row, size).data().toString();
        const double bytes =
            activations->index(row, size).data(ui::SqlTableModel::SortRole).toDouble();
        EXPECT_FALSE(text.contains(QLatin1Char('B')))
            << "a unit in the cell: " << text.toStdString();
        if (bytes > 0 && bytes < 0.05 * (1 << 20)) {
            ++too_small;
            EXPECT_EQ(text, QStringLiteral("< 0.1"));
            continue;
        }
        EXPECT_EQ(text, QString::number(bytes / (1 << 20), 'f', 1)
                            .replace(QRegularExpression(QStringLiteral("(\\d)(?=(\\d{3})+\\.)")),
                                     QStringLiteral("\\1,")));
    }
    EXPECT_GE(too_small, 1);
    // The CSV's header names the raw values' unit instead.
    EXPECT_EQ(
        activations->headerData(size, Qt::Horizontal, ui::SqlTableModel::RawHeaderRole).toString(),
        QStringLiteral("Size (bytes)"));
    // The times of a table share one unit: forward, backward and total side by side.
    QAbstractItemModel* operations = browser_->operationsView()->model();
    EXPECT_EQ(operations->headerData(3, Qt::Horizontal).toString(), QStringLiteral("Forward (ms)"));
    EXPECT_EQ(operations->headerData(4, Qt::Horizontal).toString(),
              QStringLiteral("Backward (ms)"));
    EXPECT_EQ(operations->headerData(5, Qt::Horizontal).toString(), QStringLiteral("Total (ms)"));
    for (int row = 0; row < operations->rowCount(); ++row)
        for (int column = 3; column <= 5; ++column) {
            const QString text = operations->index(row, column).data().toString();
            EXPECT_FALSE(text.contains(QStringLiteral("s"))) << text.toStdString();
            EXPECT_NE(text, QStringLiteral("0.000")) << "a time that is not 0 reads 0";
        }
}

}  // namespace
}  // namespace trainscope::test

namespace trainscope::test {

// A weight tied to another module's is named by its last two parts in the cell (the whole
// path, "tied to transformer.wte.weight", pushed the Modules tab's figures out of the window).
TEST(ModulesTiedWeights, AreNamedByTheirLastTwoParts) {
    EXPECT_EQ(ui::shortWeightName(QStringLiteral("transformer.wte.weight")),
              QStringLiteral("…wte.weight"));
    EXPECT_EQ(ui::shortWeightName(QStringLiteral("wte.weight")), QStringLiteral("wte.weight"));
    EXPECT_EQ(ui::shortWeightName(QStringLiteral("weight")), QStringLiteral("weight"));
}

}  // namespace trainscope::test
