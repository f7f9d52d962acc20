// SPDX-License-Identifier: Apache-2.0
// trainscope: the desktop app. `trainscope [REPORT…]` opens the given reports.
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTimer>

#include <QTabWidget>
#include <QTreeView>

#include "compare/compare_page.h"
#include "i18n/language.h"
#include "main_window.h"
#include "report/sql_table_model.h"
#include "run/profile_worker.h"
#include "settings/app_settings.h"
#include "settings/theme.h"
#include "sweep/batch_size_page.h"
#include "timeline/timeline_page.h"
#include "trainscope/report_writer.h"
#include "views/entry_table_view.h"
#include "views/memory_page.h"
#include "views/modules_page.h"
#include "views/ranks_page.h"
#include "views/report_browser.h"
#include "views/source_lines_page.h"
#include "views/time_page.h"
#include "views/timeline_summary_page.h"

namespace {

// For screenshots and demos, timelines opened alone: the Ranks tab of several ranks ("ranks"),
// the first file's overview ("overview") or the Timeline tab ("timeline").
void showTimelinesTab(QTabWidget* tabs, const QString& name) {
    for (int i = 0; i < tabs->count(); ++i) {
        QWidget* page = tabs->widget(i);
        if ((name == QLatin1String("ranks") && qobject_cast<trainscope::ui::RanksPage*>(page)) ||
            (name == QLatin1String("overview") &&
             qobject_cast<trainscope::ui::TimelineSummaryPage*>(page)) ||
            (name == QLatin1String("timeline") &&
             qobject_cast<trainscope::ui::TimelinePage*>(page))) {
            tabs->setCurrentIndex(i);
            return;
        }
    }
}

// For screenshots and demos: a tab of the opened run, one of its rows selected.
void showTab(trainscope::ui::ReportBrowser* browser, const QString& name, int row) {
    using trainscope::ui::EntryTableView;
    if (!browser)
        return;  // timelines alone: showTimelinesTab
    EntryTableView* table = nullptr;
    QWidget* page = nullptr;
    if (name == QLatin1String("timeline")) {
        trainscope::ui::TimelinePage* timeline = nullptr;
        for (int i = 0; i < browser->tabs()->count() && !timeline; ++i)
            timeline = qobject_cast<trainscope::ui::TimelinePage*>(browser->tabs()->widget(i));
        if (timeline) {  // with the blocks alive at the peak listed, once read
            QObject::connect(timeline, &trainscope::ui::TimelinePage::loadFinished, timeline,
                             [timeline] { timeline->showPeak(); });
        }
        page = timeline;
    } else if (name == QLatin1String("memory") && browser->memoryPage()) {
        table = browser->activationsView();
        page = browser->memoryPage();
    } else if (name == QLatin1String("time") && browser->timePage()) {
        table = browser->operationsView();
        page = browser->timePage();
    } else if (name == QLatin1String("modules") && browser->modulesPage()) {
        auto* modules = browser->modulesPage();
        page = modules->parentWidget();
        if (row >= 0) {  // the module `row` of the tree (its nodes, in path order), expanded
            auto select = [modules, row] {
                modules->selectModule(row);
                modules->treeView()->expand(modules->treeView()->currentIndex());
            };
            if (modules->isRead())
                select();
            else
                QObject::connect(modules, &trainscope::ui::ModulesPage::read, modules, select,
                                 Qt::SingleShotConnection);
        }
    } else if (name == QLatin1String("lines") && browser->sourceLinesPage()) {
        auto* lines = browser->sourceLinesPage();
        table = lines->timeView() ? lines->timeView() : lines->memoryView();
        page = lines->parentWidget();
    }
    if (page)
        browser->tabs()->setCurrentWidget(page);
    if (!table || row < 0)
        return;
    auto select = [table, row] {
        if (row < table->model()->rowCount())
            table->selectRow(row);
    };
    if (table->entryModel()->busy())  // its first rows are still being read
        QObject::connect(table->entryModel(), &trainscope::ui::SqlTableModel::rowsRead, table,
                         select, Qt::SingleShotConnection);
    else
        select();
}

}  // namespace

int main(int argc, char** argv) {
    trainscope::installTempFileCleanup();  // a killed app leaves no temporary report behind
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("TrainScope"));
    QApplication::setApplicationName(QStringLiteral("TrainScope"));
    QApplication::setApplicationVersion(QStringLiteral(TRAINSCOPE_VERSION));
    // Matches packaging/org.trainscope.TrainScope.desktop, for the desktop's icon and name.
    const QString app_id = QStringLiteral("org.trainscope.TrainScope");
    QGuiApplication::setDesktopFileName(app_id);
    QApplication::setWindowIcon(
        QIcon::fromTheme(app_id, QIcon(QStringLiteral(":/icons/%1.svg").arg(app_id))));
    trainscope::ui::installTranslations(
        trainscope::ui::interfaceLocale(trainscope::ui::AppSettings::language()));
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Training profile viewer"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("reports"),
                                 QApplication::translate("main", "Reports to open"),
                                 QStringLiteral("[REPORT…]"));
    // For documentation and checks: render the window with its reports to a PNG and exit.
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QApplication::translate("main",
                                                          "Save the window to FILE.png "
                                                          "once shown, then quit"),
                                  QStringLiteral("FILE"));
    parser.addOption(screenshot);
    QCommandLineOption tab(QStringLiteral("tab"),
                           QApplication::translate("main",
                                                   "Show the tab NAME (overview, memory, "
                                                   "time, modules, lines, timeline, ranks)"),
                           QStringLiteral("NAME"));
    QCommandLineOption select(
        QStringLiteral("select"),
        QApplication::translate("main", "Select row ROW of the tab's first table"),
        QStringLiteral("ROW"));
    QCommandLineOption example(QStringLiteral("run-example"),
                               QApplication::translate("main",
                                                       "Profile the built-in example at once "
                                                       "(what the first-launch button does)"));
    QCommandLineOption theme(QStringLiteral("theme"),
                             QApplication::translate("main",
                                                     "Use the THEME (system, light, dark) instead "
                                                     "of the one in Settings"),
                             QStringLiteral("THEME"));
    QCommandLineOption compare(QStringLiteral("compare"),
                               QApplication::translate("main",
                                                       "Compare the opened run with the run of "
                                                       "REPORT (File › Compare With…)"),
                               QStringLiteral("REPORT"));
    parser.addOption(compare);
    parser.addOption(theme);
    parser.addOption(example);
    parser.addOption(tab);
    parser.addOption(select);
    parser.process(app);

    const QString chosen_theme =
        parser.isSet(theme) ? parser.value(theme) : trainscope::ui::AppSettings::theme();
    if (chosen_theme != QLatin1String("system"))
        trainscope::ui::applyTheme(trainscope::ui::themeFromCode(chosen_theme));

    trainscope::ui::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty()) {
        if (parser.isSet(tab)) {
            QObject::connect(
                &window, &trainscope::ui::MainWindow::reportsOpened, &window,
                [&](bool shown) {
                    if (shown && window.browser())
                        showTab(window.browser(), parser.value(tab), parser.value(select).toInt());
                    else if (shown && window.timelines())
                        showTimelinesTab(window.timelines(), parser.value(tab));
                },
                Qt::SingleShotConnection);
        }
        if (parser.isSet(compare)) {
            QObject::connect(
                &window, &trainscope::ui::MainWindow::reportsOpened, &window,
                [&](bool shown) {
                    if (!shown || !window.compareWith(parser.value(compare)))
                        return;
                    // --select ROW: that operation of the comparison, with its source.
                    trainscope::ui::ComparePage* page = window.comparePage();
                    if (parser.isSet(select)) {
                        QObject::connect(page, &trainscope::ui::ComparePage::computed, page,
                                         [&, page](bool ok) {
                                             if (ok)
                                                 page->selectRow(trainscope::ItemKind::Operation,
                                                                 parser.value(select).toInt());
                                         });
                    }
                },
                Qt::SingleShotConnection);
        }
        window.openReports(parser.positionalArguments());
    }
    if (parser.isSet(example))
        window.runExample();
    if (parser.isSet(screenshot)) {
        // Once the window has settled and no run is in flight or opening.
        auto* poll = new QTimer(&window);
        QObject::connect(poll, &QTimer::timeout, &window, [&, poll] {
            if (window.runner()->busy() || window.opening())
                return;
            // A comparison asked for: its window, once computed.
            if (parser.isSet(compare) && window.browser()) {
                const trainscope::ui::ComparePage* comparing = window.comparePage();
                if (!comparing || (!comparing->isComputed() && comparing->errorText().isEmpty()))
                    return;
            }
            // A sweep's report: its Batch Size window, once read.
            if (const trainscope::ui::BatchSizePage* sweep = window.sweepPage();
                sweep && !sweep->isRead() && sweep->errorText().isEmpty())
                return;
            poll->stop();
            QTimer::singleShot(1000, &window, [&] {
                QWidget* shown = window.compareWindow() ? window.compareWindow()
                                 : window.sweepWindow() ? window.sweepWindow()
                                                        : static_cast<QWidget*>(&window);
                const bool saved = shown->grab().save(parser.value(screenshot));
                QApplication::exit(saved ? 0 : 1);
            });
        });
        poll->start(500);
    }
    return app.exec();
}
