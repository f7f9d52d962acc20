// SPDX-License-Identifier: Apache-2.0
// The Compare window on real runs of the built-in transformer, two blocks against three: the
// added block is listed as added, the rows follow the sort and the find field, selecting an
// operation shows its source in both runs, and both memory curves are drawn.
#include <gtest/gtest.h>

#include <QAbstractSeries>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDropEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QPointer>
#include <QScreen>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUrl>

#include <sqlite3.h>

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QTabWidget>

#include "compare/compare_model.h"
#include "compare/compare_page.h"
#include "main_window.h"
#include "source/source_viewer.h"
#include "support/small_transformer.h"
#include "trainscope/builtin_models.h"
#include "ui/sample_run.h"
#include "views/entry_table_view.h"
#include "views/report_browser.h"
#include "views/source_panel.h"
#include "views/time_page.h"

namespace trainscope::test {
namespace {

using ui::CompareModel;

class CompareViewTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new QTemporaryDir;
        const std::string dir = dir_->path().toStdString();
        RunPlan two = smallTransformerPlan(dir + "/two");
        RunPlan three = smallTransformerPlan(dir + "/three");
        three.config.params["n_layers"] = "3";
        runAndWrite(two);
        runAndWrite(three);
    }
    static void TearDownTestSuite() { delete dir_; }
    static QString path(const QString& name) { return dir_->path() + QLatin1Char('/') + name; }

    void SetUp() override {
        window_.show();
        ASSERT_TRUE(openAndWait(window_, {path("two.memory.sqlite")}));
    }

    // Compares the open run with `other` and waits for the comparison.
    ui::ComparePage* compare(const QString& other) {
        EXPECT_TRUE(window_.compareWith(other));
        ui::ComparePage* page = window_.comparePage();
        EXPECT_NE(page, nullptr);
        if (page) {
            EXPECT_TRUE(QTest::qWaitFor(
                [page] { return page->isComputed() || !page->errorText().isEmpty(); }, 30000));
        }
        return page;
    }

    // The item rows of a section, as the tree shows them.
    static QStringList itemNames(ui::ComparePage* page, ItemKind kind) {
        CompareModel* model = page->model();
        const QModelIndex section = model->sectionIndex(kind);
        QStringList names;
        for (int row = 0; row < model->rowCount(section); ++row)
            names << model->index(row, CompareModel::Name, section).data().toString();
        return names;
    }

    // Selects the first operation of both runs inside a module (its frames end in the model's
    // source) and waits for both sides' frames.
    static bool selectSharedOperation(ui::ComparePage* page) {
        CompareModel* model = page->model();
        QTreeView* tree = page->tree();
        const QModelIndex operations = model->sectionIndex(ItemKind::Operation);
        tree->expand(operations);
        QModelIndex target;
        for (int row = 0; row < model->rowCount(operations) && !target.isValid(); ++row) {
            const ComparedItem* item = model->itemAt(model->index(row, 0, operations));
            if (item->presence == Presence::Both && !item->module_path.empty())
                target = model->index(row, 0, operations);
        }
        if (!target.isValid())
            return false;
        tree->scrollTo(target);
        QSignalSpy shown(page, &ui::ComparePage::framesShown);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(target).center());
        return shown.wait(10000);
    }

    // A copy of run `from`'s reports as run `to`, recorded in project folder `root`.
    static void copyRun(const char* from, const char* to, const QString& root) {
        for (const char* suffix : {".memory.sqlite", ".time.sqlite", ".timeline.sqlite"}) {
            const QString copy = path(QLatin1String(to) + QLatin1String(suffix));
            ASSERT_TRUE(QFile::copy(path(QLatin1String(from) + QLatin1String(suffix)), copy));
            QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);  // reports are not
            sqlite3* db = nullptr;
            ASSERT_EQ(sqlite3_open(copy.toUtf8().constData(), &db), SQLITE_OK);
            const bool timeline = QByteArray(suffix) == ".timeline.sqlite";  // Ascend's table
            const QString sql = QStringLiteral(
                                    "UPDATE %1 SET value = '%2' WHERE %3 = "
                                    "'project_root'")
                                    .arg(timeline ? "META_DATA" : "trainscope_metadata", root,
                                         timeline ? "name" : "key");
            EXPECT_EQ(sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, nullptr),
                      SQLITE_OK)
                << sqlite3_errmsg(db);
            sqlite3_close(db);
        }
    }

    static inline QTemporaryDir* dir_ = nullptr;
    ui::MainWindow window_;
};

TEST_F(CompareViewTest, TheAddedBlockIsListedAsAddedAndTheTotalsComeFirst) {
    // File › Compare With… is in the menu; the comparison itself is asked as the action does.
    bool in_menu = false;
    for (QAction* action : window_.menuBar()->actions().first()->menu()->actions())
        in_menu |= action->text().remove(QLatin1Char('&')).contains(QStringLiteral("Compare With"));
    EXPECT_TRUE(in_menu);

    ui::ComparePage* page = compare(path("three.time.sqlite"));
    ASSERT_TRUE(page && page->isComputed()) << page->errorText().toStdString();
    EXPECT_TRUE(window_.compareWindow()->isVisible());
    CompareModel* model = page->model();
    ASSERT_EQ(model->rowCount(), 4);
    EXPECT_EQ(model->index(0, 0).data().toString(), QStringLiteral("Totals"));
    EXPECT_TRUE(model->index(1, 0).data().toString().startsWith(QStringLiteral("Modules")));
    EXPECT_TRUE(model->index(2, 0).data().toString().startsWith(QStringLiteral("Operations")));
    EXPECT_TRUE(model->index(3, 0).data().toString().startsWith(QStringLiteral("Parameters")));
    EXPECT_TRUE(page->summary()->text().contains(QStringLiteral("0 removed")));

    const Comparison& c = model->comparison();
    ASSERT_GT(c.added_operations, 0);
    const QModelIndex operations = model->sectionIndex(ItemKind::Operation);
    EXPECT_EQ(model->rowCount(operations), c.matched_operations + c.added_operations);
    int added = 0;
    for (int row = 0; row < model->rowCount(operations); ++row) {
        const QModelIndex status = model->index(row, CompareModel::Status, operations);
        if (status.data().toString() != QStringLiteral("added"))
            continue;
        ++added;
        EXPECT_TRUE(model->index(row, 0, operations).data().toString().startsWith("blocks_2"));
        EXPECT_EQ(status.data(CompareModel::DirectionRole).toInt(), 1);  // a cost: red
        // Its time is the new run's alone: no base, no Δ.
        EXPECT_EQ(model->index(row, CompareModel::TimeBase, operations).data().toString(), "");
        EXPECT_NE(model->index(row, CompareModel::TimeNew, operations).data().toString(), "");
    }
    EXPECT_EQ(added, c.added_operations);
    EXPECT_TRUE(itemNames(page, ItemKind::Module).contains(QStringLiteral("blocks_2")));

    // The weights grew by exactly the third block's parameters: the totals row says so.
    const QModelIndex totals = model->sectionIndex(ItemKind::Total);
    int64_t block_bytes = 0;
    for (const ComparedItem& item : c.items)
        if (item.kind == ItemKind::Weight && item.name.rfind("blocks_2.", 0) == 0)
            block_bytes += static_cast<int64_t>(*item.figure(Figure::WeightBytes)->changed);
    bool weights_row = false;
    for (int row = 0; row < model->rowCount(totals); ++row) {
        const ComparedItem* item = model->itemAt(model->index(row, 0, totals));
        if (item->name == "weights") {
            weights_row = true;
            EXPECT_EQ(item->memory().delta(), static_cast<double>(block_bytes));
            EXPECT_EQ(model->index(row, CompareModel::MemoryDelta, totals)
                          .data(CompareModel::DirectionRole)
                          .toInt(),
                      1);
        }
    }
    EXPECT_TRUE(weights_row);
}

TEST_F(CompareViewTest, TheWindowLiesWithinTheScreenAndEscOrCtrlWClosesIt) {
    // The main window low on the screen: the Compare window is moved up into it, not cut.
    const QRect screen = window_.screen()->availableGeometry();
    window_.setGeometry(screen.left() + 10, screen.bottom() - 300, screen.width() - 40,
                        screen.height() - 60);
    for (const QKeySequence& keys :
         {QKeySequence(Qt::Key_Escape), QKeySequence(Qt::CTRL | Qt::Key_W)}) {
        ui::ComparePage* page = compare(path("three.time.sqlite"));
        ASSERT_NE(page, nullptr);
        QPointer<QWidget> shown = window_.compareWindow();
        ASSERT_TRUE(shown && shown->isVisible());
        const QRect g = shown->frameGeometry();
        EXPECT_TRUE(screen.contains(g))
            << g.left() << "," << g.top() << " " << g.width() << "x" << g.height() << " in "
            << screen.width() << "x" << screen.height();
        ASSERT_TRUE(QTest::qWaitForWindowActive(shown));
        QTest::keySequence(shown, keys);
        EXPECT_TRUE(QTest::qWaitFor([&] { return shown.isNull() || !shown->isVisible(); }, 2000))
            << keys.toString().toStdString();
    }
}

TEST_F(CompareViewTest, RowsFollowTheSortAndTheFindField) {
    ui::ComparePage* page = compare(path("three"));
    ASSERT_TRUE(page && page->isComputed());
    CompareModel* model = page->model();
    const QModelIndex operations = model->sectionIndex(ItemKind::Operation);
    const auto sortedBy = [&](int column) {
        double previous = 1e300;
        for (int row = 0; row < model->rowCount(operations); ++row) {
            const double key =
                model->index(row, column, operations).data(CompareModel::SortRole).toDouble();
            if (key > previous)
                return false;
            previous = key;
        }
        return true;
    };
    EXPECT_TRUE(sortedBy(CompareModel::TimeDelta));  // by |Δ time|, the largest first
    // A click on the Δ memory header sorts by it (ascending, then descending).
    QHeaderView* header = page->tree()->header();
    const QPoint at(header->sectionViewportPosition(CompareModel::MemoryDelta) + 5,
                    header->height() / 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
    if (header->sortIndicatorOrder() != Qt::DescendingOrder)
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
    EXPECT_EQ(header->sortIndicatorSection(), CompareModel::MemoryDelta);
    EXPECT_TRUE(sortedBy(CompareModel::MemoryDelta));

    QTest::keyClicks(page->findField(), QStringLiteral("blocks_2"));
    // Every section with an item found is open, so that what was found is seen.
    for (ItemKind kind : {ItemKind::Module, ItemKind::Operation, ItemKind::Weight})
        EXPECT_TRUE(page->tree()->isExpanded(model->sectionIndex(kind))) << static_cast<int>(kind);
    const QStringList modules = itemNames(page, ItemKind::Module);
    ASSERT_FALSE(modules.isEmpty());
    for (const QString& name : modules)
        EXPECT_TRUE(name.startsWith(QStringLiteral("blocks_2"))) << name.toStdString();
    const QStringList ops = itemNames(page, ItemKind::Operation);
    EXPECT_EQ(ops.size(), model->comparison().added_operations);
    EXPECT_FALSE(itemNames(page, ItemKind::Total).isEmpty());  // the totals stay
    page->findField()->clear();
    EXPECT_EQ(model->rowCount(model->sectionIndex(ItemKind::Operation)),
              model->comparison().matched_operations + model->comparison().added_operations);
}

TEST_F(CompareViewTest, SelectingAnOperationShowsItsSourceInBothRuns) {
    ui::ComparePage* page = compare(path("three.memory.sqlite"));
    ASSERT_TRUE(page && page->isComputed());
    ASSERT_TRUE(selectSharedOperation(page));
    for (int side = 0; side < 2; ++side) {
        SCOPED_TRACE(side);
        QListWidget* frames = page->framesList(side);
        ASSERT_GT(frames->count(), 0);
        const QString first = frames->item(0)->text();
        EXPECT_TRUE(first.contains(QStringLiteral("transformer.py:"))) << first.toStdString();
        const int line = first.section(QLatin1Char(':'), -1).toInt();
        EXPECT_TRUE(page->sourceViewer(side)->currentFile().endsWith("transformer.py"));
        EXPECT_EQ(page->sourceViewer(side)->highlightedLine(), line);
    }
    // The same operation: the same line on both sides.
    EXPECT_EQ(page->framesList(0)->item(0)->text(), page->framesList(1)->item(0)->text());
}

// Every figure is in view in the Compare window as it opens: the names take what the figures
// leave (the last Δ% column was once behind a horizontal scroll bar at 1100 px).
TEST_F(CompareViewTest, EveryFigureIsInViewWithoutScrollingSideways) {
    ui::ComparePage* page = compare(path("three.time.sqlite"));
    ASSERT_TRUE(page && page->isComputed());
    page->window()->resize(1100, 760);  // the default size of the main window
    QTest::qWait(20);
    QTreeView* tree = page->tree();
    QHeaderView* header = tree->header();
    const int last = CompareModel::Count - 1;
    EXPECT_LE(header->sectionViewportPosition(last) +
                  static_cast<QAbstractItemView*>(tree)->sizeHintForColumn(last),
              tree->viewport()->width())
        << "the window is " << page->window()->width() << " px wide";
    EXPECT_GE(tree->columnWidth(CompareModel::Name), 200);
    // A name too long for its column loses its middle, not its end (an operation's #number, a
    // figure's last words), and its tooltip has it whole.
    EXPECT_EQ(tree->textElideMode(), Qt::ElideMiddle);
    CompareModel* model = page->model();
    const QModelIndex operations = model->sectionIndex(ItemKind::Operation);
    ASSERT_GT(model->rowCount(operations), 0);
    const QModelIndex operation = model->index(0, CompareModel::Name, operations);
    EXPECT_TRUE(operation.data(Qt::ToolTipRole).toString().startsWith(operation.data().toString()))
        << operation.data(Qt::ToolTipRole).toString().toStdString();
    const QModelIndex totals = model->sectionIndex(ItemKind::Total);
    ASSERT_GT(model->rowCount(totals), 0);
    const QModelIndex item = model->index(0, 0, totals);
    ASSERT_GT(model->rowCount(item), 0);
    const QModelIndex figure = model->index(0, CompareModel::Name, item);
    EXPECT_FALSE(figure.data().toString().isEmpty());
    EXPECT_EQ(figure.data(Qt::ToolTipRole), figure.data());
}

// An operation is numbered as the main window numbers it (#34, the run's operation number), the
// new run's number beside it where it differs; the find field finds it by that number.
TEST_F(CompareViewTest, OperationsCarryTheMainWindowsNumbers) {
    ui::ComparePage* page = compare(path("three.memory.sqlite"));
    ASSERT_TRUE(page && page->isComputed());
    CompareModel* model = page->model();
    const QModelIndex operations = model->sectionIndex(ItemKind::Operation);
    int renumbered = 0;
    QString last;
    for (int row = 0; row < model->rowCount(operations); ++row) {
        const QModelIndex index = model->index(row, CompareModel::Name, operations);
        const ComparedItem* item = model->itemAt(index);
        ASSERT_EQ(item->entry_kind, EntryKind::RunTime);
        const QString shown = index.data().toString();
        const QString expected =
            item->base_entry > 0 && item->new_entry > 0 && item->base_entry != item->new_entry
                ? QStringLiteral(" #%1 → #%2").arg(item->base_entry).arg(item->new_entry)
                : QStringLiteral(" #%1").arg(item->base_entry > 0 ? item->base_entry
                                                                  : item->new_entry);
        EXPECT_TRUE(shown.endsWith(expected)) << shown.toStdString();
        EXPECT_TRUE(shown.contains(QString::fromStdString(item->operation)));
        renumbered += shown.contains(QStringLiteral(" → #"));
        last = expected.section(QLatin1Char(' '), -1);
    }
    // The third block's operations come after the second's: later operations move.
    EXPECT_GT(renumbered, 0);
    page->findField()->setText(last);
    const QModelIndex found = model->sectionIndex(ItemKind::Operation);  // the sections changed
    ASSERT_TRUE(found.isValid());
    EXPECT_GE(model->rowCount(found), 1);
    for (int row = 0; row < model->rowCount(found); ++row)
        EXPECT_TRUE(model->index(row, CompareModel::Name, found).data().toString().contains(last));
}

// Runs profiled in a project folder that does not hold their reports (train.py in proj/,
// reports in runs/): the main window asks before it shows files from there, and its source
// pane says so too; once the user said Show Files, Compare shows both runs' source from it,
// and a run of another folder says where its file is, in lines that fit the pane.
TEST_F(CompareViewTest, RunsOfAProjectElsewhereShowTheirSourceOnceTheUserAllowsIt) {
    const QString proj = path("proj"), other = path("proj2");
    for (const QString& folder : {proj, other}) {
        ASSERT_TRUE(QDir().mkpath(folder));
        const QDir builtins(QString::fromStdString(builtinModelsDir()));
        for (const QString& file : builtins.entryList({QStringLiteral("*.py")}, QDir::Files))
            QFile::copy(builtins.filePath(file), QDir(folder).filePath(file));
    }
    ASSERT_TRUE(QDir().mkpath(path("runs")));
    copyRun("two", "runs/mine_two", proj);
    copyRun("three", "runs/mine_three", proj);
    copyRun("three", "runs/their_three", other);

    window_.closeReports();
    ASSERT_TRUE(openAndWait(window_, {path("runs/mine_two.time.sqlite")}));
    ui::ReportBrowser* browser = window_.browser();
    ui::SourcePanel* panel = browser->sourcePanel();
    ASSERT_TRUE(panel->questionBar()->isVisibleTo(browser));
    browser->tabs()->setCurrentWidget(browser->timePage());
    test::clickRow(browser->operationsView(), 0);
    ASSERT_GT(panel->framesList()->count(), 0);
    // The pane points at the question, not at another root.
    EXPECT_TRUE(panel->message().contains(QStringLiteral("Show Files")))
        << panel->message().toStdString();
    EXPECT_FALSE(panel->message().contains(QStringLiteral("Set Project Root")));
    panel->allowButton()->click();
    EXPECT_TRUE(panel->viewer()->currentFile().startsWith(QDir(proj).canonicalPath()))
        << panel->viewer()->currentFile().toStdString();

    ui::ComparePage* page = compare(path("runs/mine_three"));
    ASSERT_TRUE(page && page->isComputed());
    ASSERT_TRUE(selectSharedOperation(page));
    for (int side = 0; side < 2; ++side)
        EXPECT_TRUE(page->sourceViewer(side)->currentFile().startsWith(QDir(proj).canonicalPath()))
            << side << " " << page->sourceViewer(side)->currentFile().toStdString();

    page = compare(path("runs/their_three"));
    ASSERT_TRUE(page && page->isComputed());
    ASSERT_TRUE(selectSharedOperation(page));
    EXPECT_FALSE(page->sourceViewer(0)->currentFile().isEmpty());
    ui::SourceViewer* theirs = page->sourceViewer(1);
    EXPECT_TRUE(theirs->currentFile().isEmpty());
    EXPECT_TRUE(theirs->toPlainText().contains(QDir(other).canonicalPath()))
        << theirs->toPlainText().toStdString();
    EXPECT_TRUE(theirs->toPlainText().contains(QStringLiteral("Show Files")));
    EXPECT_EQ(theirs->lineWrapMode(), QPlainTextEdit::WidgetWidth);
}

TEST_F(CompareViewTest, BothRunsMemoryCurvesAreDrawnOverEachOther) {
    ui::ComparePage* page = compare(path("three"));
    ASSERT_TRUE(page && page->isComputed());
    ASSERT_NE(page->memoryChart(), nullptr);
    const QList<QAbstractSeries*> series = page->memoryChart()->chart()->series();
    ASSERT_EQ(series.size(), 2);
    for (QAbstractSeries* s : series)
        EXPECT_GT(static_cast<QLineSeries*>(s)->count(), 10);
    // The third block's weights and activations: the new run's curve goes higher.
    const auto highest = [](QAbstractSeries* s) {
        double y = 0;
        for (const QPointF& p : static_cast<QLineSeries*>(s)->points())
            y = std::max(y, p.y());
        return y;
    };
    EXPECT_GT(highest(series[1]), highest(series[0]));
}

TEST_F(CompareViewTest, ADroppedRunCanBeComparedAndANonReportIsRefusedWithAMessage) {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path("three.time.sqlite"))});
    // As the window system delivers a drag to the window: it enters, then drops.
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.windowHandle(), &enter);
    ASSERT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.windowHandle(), &drop);
    QMenu* menu = nullptr;
    ASSERT_TRUE(QTest::qWaitFor([&] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* m = qobject_cast<QMenu*>(w); m && m->isVisible())
                menu = m;
        return menu != nullptr;
    }));
    QAction* compare_action = nullptr;
    for (QAction* action : menu->actions())
        if (action->text().contains(QStringLiteral("Compare")))
            compare_action = action;
    ASSERT_NE(compare_action, nullptr);
    compare_action->trigger();
    menu->close();
    ui::ComparePage* page = window_.comparePage();
    ASSERT_NE(page, nullptr);
    ASSERT_TRUE(QTest::qWaitFor([page] { return page->isComputed(); }, 30000));

    const QString junk = path("junk.sqlite");
    QFile file(junk);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("not a database");
    file.close();
    ui::ComparePage* refused = compare(junk);
    ASSERT_NE(refused, nullptr);
    EXPECT_FALSE(refused->isComputed());
    EXPECT_TRUE(refused->summary()->text().contains(QStringLiteral("cannot be compared")));
    EXPECT_TRUE(refused->summary()->text().contains(QStringLiteral("junk.sqlite")));
}

// A change within noise is grey and says why; one beyond it is coloured. Recorded figures with
// known spreads: the verdict is certain, not a live timing's.
TEST(CompareModelColours, AChangeWithinNoiseIsGreyAndSaysWhy) {
    auto comparison = std::make_shared<Comparison>();
    ComparedItem item;
    item.kind = ItemKind::Operation;
    item.name = "lin_0 · aten::linear #1";
    FigureChange within;  // +49% but the runs' iterations overlap
    within.figure = Figure::ForwardTime;
    within.base = 1.0;
    within.changed = 1.49;
    within.base_spread = Spread{0.8, 1.6};
    within.new_spread = Spread{1.2, 1.9};
    within.min_change = 0.01;
    FigureChange beyond = within;  // the new run's fastest is slower than the base's slowest
    beyond.figure = Figure::BackwardTime;
    beyond.new_spread = Spread{1.7, 1.9};
    item.figures = {within, beyond};
    comparison->items.push_back(item);
    ASSERT_FALSE(within.significant());
    ASSERT_TRUE(beyond.significant());

    CompareModel model(comparison);
    const QModelIndex section = model.sectionIndex(ItemKind::Operation);
    ASSERT_TRUE(section.isValid());
    const QModelIndex row = model.index(0, CompareModel::TimeDelta, section);
    ASSERT_TRUE(row.isValid());
    const QModelIndex figures = model.index(0, 0, section);
    ASSERT_EQ(model.rowCount(figures), 2);
    const QModelIndex grey = model.index(0, CompareModel::TimeDelta, figures);
    const QModelIndex red = model.index(1, CompareModel::TimeDelta, figures);
    EXPECT_EQ(grey.data(Qt::ForegroundRole).value<QColor>(),
              QApplication::palette().color(QPalette::Disabled, QPalette::Text));
    EXPECT_TRUE(grey.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Within noise")))
        << grey.data(Qt::ToolTipRole).toString().toStdString();
    EXPECT_NE(red.data(Qt::ForegroundRole).value<QColor>(),
              QApplication::palette().color(QPalette::Disabled, QPalette::Text));
    EXPECT_FALSE(red.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Within noise")));
}

}  // namespace
}  // namespace trainscope::test
