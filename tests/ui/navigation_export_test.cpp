// SPDX-License-Identifier: Apache-2.0
// The keyboard and the exports, as a user meets them: Ctrl+F, Ctrl+Tab and F1 in the window,
// a table written as CSV and read back, a chart saved as PNG and SVG.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPieSeries>
#include <QPieSlice>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>

#include "help/help_windows.h"
#include "i18n/language.h"
#include "main_window.h"
#include "reading/sql_table_model.h"
#include "ui/sample_run.h"
#include "views/elided_label.h"
#include "views/entry_table_view.h"
#include "views/export.h"
#include "views/memory_page.h"
#include "views/modules_page.h"
#include "views/report_browser.h"
#include "views/source_panel.h"
#include "views/time_page.h"

namespace trainscope::test {
namespace {

using ui::EntryTableView;

class NavigationExportTest : public OpenedRunTest {};

TEST_F(NavigationExportTest, CtrlFGoesToTheFindFieldOfTheTabInFront) {
    browser_->tabs()->setCurrentWidget(browser_->timePage());
    QTest::keyClick(&window_, Qt::Key_F, Qt::ControlModifier);
    EXPECT_EQ(QApplication::focusWidget(), browser_->timePage()->filterField());
    browser_->tabs()->setCurrentWidget(browser_->memoryPage());
    QTest::keyClick(&window_, Qt::Key_F, Qt::ControlModifier);
    auto* field = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    ASSERT_NE(field, nullptr);
    EXPECT_EQ(field->objectName(), QStringLiteral("find"));
    EXPECT_TRUE(browser_->memoryPage()->isAncestorOf(field));
    // Typing there filters the run, as the Time tab's field does; both fields show it.
    QTest::keyClicks(field, QStringLiteral("gelu"));
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return browser_->timePage()->filterField()->text() == QStringLiteral("gelu"); },
        2000));
    ui::ModulesPage* modules = browser_->modulesPage();
    browser_->tabs()->setCurrentWidget(modules->parentWidget());
    QTest::keyClick(&window_, Qt::Key_F, Qt::ControlModifier);
    EXPECT_EQ(QApplication::focusWidget(), modules->findField());
}

TEST_F(NavigationExportTest, CtrlTabStepsThroughTheTabs) {
    QTabWidget* tabs = browser_->tabs();
    tabs->setCurrentIndex(0);
    QTest::keyClick(&window_, Qt::Key_Tab, Qt::ControlModifier);
    EXPECT_EQ(tabs->currentIndex(), 1);
    QTest::keyClick(&window_, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(tabs->currentIndex(), 0);
    QTest::keyClick(&window_, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(tabs->currentIndex(), tabs->count() - 1) << "from the first to the last";
    // Ctrl+PgDown and Ctrl+PgUp as in browsers, also with the focus in a table.
    browser_->operationsView()->setFocus();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageDown, Qt::ControlModifier);
    EXPECT_EQ(tabs->currentIndex(), 0) << "from the last to the first";
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageUp, Qt::ControlModifier);
    EXPECT_EQ(tabs->currentIndex(), tabs->count() - 1);
}

TEST_F(NavigationExportTest, TabLeavesATableRatherThanMovingFromCellToCell) {
    browser_->tabs()->setCurrentWidget(browser_->timePage());
    EntryTableView* ops = browser_->operationsView();
    ops->setFocus();
    ASSERT_TRUE(QTest::qWaitFor([&] { return QApplication::focusWidget() == ops; }, 2000));
    const QModelIndex before = ops->currentIndex();
    QTest::keyClick(ops, Qt::Key_Tab);
    EXPECT_NE(QApplication::focusWidget(), ops);
    EXPECT_EQ(ops->currentIndex(), before);
}

TEST_F(NavigationExportTest, F1OpensTheManualAndTheShortcutsAreListed) {
    QTest::keyClick(&window_, Qt::Key_F1);
    QTextBrowser* manual = nullptr;
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            manual = window_.findChild<QTextBrowser*>(QStringLiteral("manual"));
            return manual != nullptr;
        },
        2000));
    ASSERT_NE(manual, nullptr);
    EXPECT_TRUE(manual->toPlainText().contains(QStringLiteral("TrainScope manual")));
    EXPECT_TRUE(manual->toPlainText().contains(QStringLiteral("Ctrl+F")));
    // What the app itself points users to, and every tab, are in it.
    for (const char* topic : {"Set Project Root", "Python entry point", "Summary of", "Ranks",
                              "Timeline", "By Source Line", "Modules"})
        EXPECT_TRUE(manual->toPlainText().contains(QLatin1String(topic))) << topic;
    const QString shortcuts = ui::shortcutsText(window_.shortcutActions());
    for (const char* line :
         {"Ctrl+F\tFind", "Ctrl+E\tExport Table as CSV", "F1\tTrainScope Manual"})
        EXPECT_TRUE(shortcuts.contains(QLatin1String(line))) << shortcuts.toStdString();
    // Keys as a keyboard names them: every key of an action, Shift+Tab's key not "Backtab".
    EXPECT_TRUE(
        shortcuts.contains(QRegularExpression(QStringLiteral("Ctrl\\+Tab[^\t]*\tNext Tab"))))
        << shortcuts.toStdString();
    EXPECT_TRUE(shortcuts.contains(
        QRegularExpression(QStringLiteral("Ctrl\\+Shift\\+Tab[^\t]*\tPrevious Tab"))))
        << shortcuts.toStdString();
    EXPECT_FALSE(shortcuts.contains(QStringLiteral("Backtab"))) << shortcuts.toStdString();
}

// Under a German or Chinese interface the manual is in that language (it was English under
// German menus), and names the menu items and tabs as the interface does.
TEST(ManualLanguage, TheManualIsInTheInterfacesLanguage) {
    struct Case {
        const char* language;
        const char* heading;
    };
    for (const Case& c : {Case{"de", "TrainScope-Handbuch"}, Case{"zh_CN", "TrainScope 手册"},
                          Case{"en", "TrainScope manual"}}) {
        const QString language = QString::fromLatin1(c.language);
        ASSERT_TRUE(ui::installTranslations(QLocale(language)) || language == QLatin1String("en"));
        const QString manual = ui::manualText();
        EXPECT_TRUE(manual.contains(QString::fromUtf8(c.heading))) << c.language;
        auto shown = [](const char* context, const char* source) {
            return QCoreApplication::translate(context, source)
                .remove(QRegularExpression(QStringLiteral("\\(&.\\)|&")))
                .trimmed();
        };
        for (const auto& [context, source] :
             {std::pair{"trainscope::ui::MainWindow", "Set &Project Root…"},
              std::pair{"trainscope::ui::NewProfileDialog", "Python entry point"},
              std::pair{"trainscope::ui::NewProfileDialog", "Sweep batch sizes"},
              std::pair{"trainscope::ui::ReportBrowser", "By Source Line"},
              std::pair{"trainscope::ui::MainWindow", "Timeline"}})
            EXPECT_TRUE(manual.contains(shown(context, source)))
                << c.language << ": " << shown(context, source).toStdString();
    }
    ui::installTranslations(QLocale(QStringLiteral("en")));
}

TEST_F(NavigationExportTest, ATableExportsInFullAsCsvAndReadsBack) {
    browser_->tabs()->setCurrentWidget(browser_->timePage());
    EntryTableView* ops = browser_->operationsView();
    ASSERT_EQ(browser_->currentTable(), ops);
    const QString file = path(QStringLiteral("ops.csv"));
    QString error = QStringLiteral("not called");
    ops->exportCsv(file, [&](const QString& e) { error = e; });
    ASSERT_TRUE(QTest::qWaitFor([&] { return error != QStringLiteral("not called"); }, 5000));
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    QFile csv(file);
    ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
    const QVector<QStringList> records = ui::parseCsv(QString::fromUtf8(csv.readAll()));
    ui::SqlTableModel* model = ops->entryModel();
    ASSERT_EQ(records.size(), model->rowCount() + 1);
    EXPECT_EQ(records[0], (QStringList{"#", "Operation", "Forward (ms)", "Backward (ms)",
                                       "Total (ms)", "Share"}));
    // Each row holds the raw values: numbers as C writes them, a missing backward empty.
    for (int row = 0; row < model->rowCount(); ++row) {
        const QStringList& record = records[row + 1];
        EXPECT_EQ(record[0].toLongLong(), model->entryId(row));
        EXPECT_EQ(record[1], model->rawValue(row, 2).toString());
        EXPECT_EQ(record[2].toDouble(), model->rawValue(row, 3).toDouble());
        EXPECT_EQ(record[3].isEmpty(), model->rawValue(row, 4).isNull());
    }
    EXPECT_EQ(records[1][1], QStringLiteral("lin_0 · aten::linear"));
    EXPECT_EQ(records[1][2], QStringLiteral("1.5"));
    // A field with a comma or a quote is quoted, and reads back whole.
    const QStringList tricky{QStringLiteral("a,b"), QStringLiteral("say \"hi\""),
                             QStringLiteral("two\nlines")};
    EXPECT_EQ(ui::parseCsv(ui::csvRecord(tricky) + QLatin1Char('\n')),
              QVector<QStringList>{tricky});
    // A figure is written in the shortest form that reads back as the same double.
    EXPECT_EQ(ui::csvField(134.807324), QStringLiteral("134.807324"));
    EXPECT_EQ(ui::csvField(0.1 + 0.2), QStringLiteral("0.30000000000000004"));
}

TEST_F(NavigationExportTest, AChartSavesAsPngAndSvg) {
    browser_->tabs()->setCurrentWidget(browser_->timePage());
    waitForReads();
    auto* chart = browser_->timePage()->findChild<QChartView*>();
    ASSERT_NE(chart, nullptr);
    QString error;
    ASSERT_TRUE(ui::saveWidgetImage(chart, path(QStringLiteral("chart.png")), &error))
        << error.toStdString();
    const QImage png(path(QStringLiteral("chart.png")));
    EXPECT_EQ(png.size(), chart->size() * chart->devicePixelRatio());
    ASSERT_TRUE(ui::saveWidgetImage(chart, path(QStringLiteral("chart.svg")), &error))
        << error.toStdString();
    QFile svg(path(QStringLiteral("chart.svg")));
    ASSERT_TRUE(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    EXPECT_TRUE(text.contains("<svg")) << text.left(200).toStdString();
    EXPECT_TRUE(text.contains("Top operations by time"));  // its title, as text
    // A folder that cannot be written says so, and writes nothing.
    EXPECT_FALSE(ui::saveWidgetImage(chart, QStringLiteral("/proc/no/chart.svg"), &error));
    EXPECT_FALSE(error.isEmpty());
}

// A pie's slice leads to the table of its entries: memory's to the Memory tab, time's to Time.
TEST_F(NavigationExportTest, APieSliceLeadsToTheTableOfItsEntries) {
    QTabWidget* tabs = browser_->tabs();
    tabs->setCurrentIndex(0);
    QPieSeries* memory = nullptr;
    QPieSeries* time = nullptr;
    for (QChartView* view : tabs->widget(0)->findChildren<QChartView*>()) {
        for (QAbstractSeries* series : view->chart()->series()) {
            if (auto* pie = qobject_cast<QPieSeries*>(series))
                (view->chart()->title().startsWith(QStringLiteral("Sum")) ? time : memory) = pie;
        }
    }
    ASSERT_NE(memory, nullptr);
    ASSERT_NE(time, nullptr);
    emit memory->slices().last()->clicked();  // activations
    EXPECT_EQ(tabs->currentWidget(), browser_->memoryPage());
    tabs->setCurrentIndex(0);
    emit time->slices().first()->clicked();  // forward
    EXPECT_EQ(tabs->currentWidget(), browser_->timePage());
}

// A frame's context menu opens it in the editor or copies its location.
TEST_F(NavigationExportTest, AFramesContextMenuCopiesItsLocation) {
    browser_->tabs()->setCurrentWidget(browser_->timePage());
    clickRow(browser_->operationsView(), 0);
    QListWidget* frames = browser_->framesList();
    ASSERT_EQ(frames->count(), 2);
    const QPoint at = frames->visualItemRect(frames->item(1)).center();
    emit frames->customContextMenuRequested(at);
    QMenu* menu = browser_->sourcePanel()->framesContextMenu();
    ASSERT_NE(menu, nullptr);
    ASSERT_EQ(menu->actions().size(), 2);
    EXPECT_EQ(menu->actions()[0]->text(), QStringLiteral("&Open in Editor"));
    EXPECT_TRUE(menu->actions()[0]->isEnabled());
    menu->actions()[1]->trigger();
    EXPECT_EQ(QApplication::clipboard()->text(), QStringLiteral("model.py:12"));
    EXPECT_EQ(frames->currentRow(), 1);
    menu->close();
}

// The status bar's parts sit side by side: a long message is shortened in its middle, with
// the whole of it in the tooltip, and never runs under the run's stage or progress.
TEST_F(NavigationExportTest, TheStatusBarShortensALongMessageBesideTheRunsParts) {
    ui::ElidedLabel* message = window_.statusMessage();
    const QString path = QStringLiteral("/home/user/") + QString(300, QLatin1Char('d')) +
                         QStringLiteral("/run.time.sqlite");
    message->setFullText(QStringLiteral("Opened ") + path);
    window_.runProgress()->show();
    QApplication::processEvents();
    EXPECT_TRUE(message->text().contains(QChar(0x2026))) << message->text().toStdString();
    EXPECT_TRUE(message->text().endsWith(QStringLiteral("run.time.sqlite")));
    EXPECT_EQ(message->toolTip(), QStringLiteral("Opened ") + path);
    EXPECT_LE(message->fontMetrics().horizontalAdvance(message->text()), message->width());
    EXPECT_LT(message->geometry().right(), window_.runProgress()->geometry().left());
}

}  // namespace
}  // namespace trainscope::test
