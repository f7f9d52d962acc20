// SPDX-License-Identifier: Apache-2.0
// trainscope: the desktop app. `trainscope [REPORT…]` opens the given reports.
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTimer>

#include <cstdio>

#include <QTabWidget>
#include <QTreeView>

#include "compare/compare_page.h"
#include "i18n/language.h"
#include "main_window.h"
#include "reading/sql_table_model.h"
#include "run/profile_worker.h"
#include "settings/app_settings.h"
#include "settings/theme.h"
#include "sweep/batch_size_page.h"
#include "timeline/timeline_page.h"
#include "trainscope/report_writer.h"
#include "views/advice_page.h"
#include "views/compiled_page.h"
#include "views/entry_table_view.h"
#include "views/memory_page.h"
#include "views/modules_page.h"
#include "views/ranks_page.h"
#include "views/report_browser.h"
#include "views/source_lines_page.h"
#include "views/time_page.h"
#include "views/timeline_summary_page.h"

namespace {

// The tab NAME among pages of the timelines (opened alone or beside a run's reports): the Ranks
// tab of several ranks ("ranks"), a file's summary ("summary", or "overview" when timelines are
// opened alone, where it is the overview) or the Timeline tab ("timeline"); -1: none.
int timelinesTab(QTabWidget* tabs, const QString& name, bool alone) {
    for (int i = 0; i < tabs->count(); ++i) {
        QWidget* page = tabs->widget(i);
        const bool summary = qobject_cast<trainscope::ui::TimelineSummaryPage*>(page);
        if ((name == QLatin1String("ranks") && qobject_cast<trainscope::ui::RanksPage*>(page)) ||
            (name == QLatin1String("summary") && summary) ||
            (alone && name == QLatin1String("overview") && summary) ||
            (name == QLatin1String("timeline") &&
             qobject_cast<trainscope::ui::TimelinePage*>(page)))
            return i;
    }
    return -1;
}

// Why --tab NAME is not shown, in one line.
void sayNoSuchTab(const QString& name) {
    const QString why =
        name == QLatin1String("ranks")
            ? QStringLiteral("the Ranks tab needs the timelines of two ranks or more")
            : QStringLiteral(
                  "these reports have no such tab (overview, memory, time, modules, "
                  "lines, compiled, advice, timeline, summary, ranks)");
    std::fprintf(stderr, "trainscope: --tab %s: %s\n", qPrintable(name), qPrintable(why));
}

// For screenshots and demos: a tab of the opened run, one of its rows selected.
bool showTab(trainscope::ui::ReportBrowser* browser, const QString& name, int row) {
    using trainscope::ui::EntryTableView;
    EntryTableView* table = nullptr;
    QWidget* page = nullptr;
    if (name == QLatin1String("overview")) {
        page = browser->tabs()->widget(0);
    } else if (const int other = timelinesTab(browser->tabs(), name, false);
               other >= 0 && name != QLatin1String("timeline")) {
        page = browser->tabs()->widget(other);
    } else if (name == QLatin1String("timeline")) {
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
    } else if (name == QLatin1String("compiled") && browser->compiledPage()) {
        QTableWidget* compilations = browser->compiledPage()->compilationsTable();
        browser->tabs()->setCurrentWidget(browser->compiledPage());  // then its line shows
        if (row >= 0 && row < compilations->rowCount())
            compilations->selectRow(row);
        return true;
    } else if (name == QLatin1String("advice")) {
        for (int i = 0; i < browser->tabs()->count() && !page; ++i)
            if (auto* advice =
                    qobject_cast<trainscope::ui::AdvicePage*>(browser->tabs()->widget(i)))
                page = advice;
    } else if (name == QLatin1String("lines") && browser->sourceLinesPage()) {
        auto* lines = browser->sourceLinesPage();
        table = lines->timeView() ? lines->timeView() : lines->memoryView();
        page = lines->parentWidget();
    }
    if (!page)
        return false;
    browser->tabs()->setCurrentWidget(page);
    if (!table || row < 0)
        return true;
    auto select = [table, row] {
        if (row < table->model()->rowCount())
            table->selectRow(row);
    };
    if (table->entryModel()->busy())  // its first rows are still being read
        QObject::connect(table->entryModel(), &trainscope::ui::SqlTableModel::rowsRead, table,
                         select, Qt::SingleShotConnection);
    else
        select();
    return true;
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
                                                   "time, modules, lines, compiled, advice, "
                                                   "timeline, summary, ranks)"),
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
    // --tab: once the reports are open (given, or those of --run-example).
    if (parser.isSet(tab)) {
        QObject::connect(
            &window, &trainscope::ui::MainWindow::reportsOpened, &window,
            [&](bool shown) {
                if (!shown)
                    return;
                const QString name = parser.value(tab);
                bool found = false;
                if (window.browser()) {
                    found = showTab(window.browser(), name, parser.value(select).toInt());
                } else if (QTabWidget* tabs = window.timelines()) {
                    const int index = timelinesTab(tabs, name, true);
                    if ((found = index >= 0))
                        tabs->setCurrentIndex(index);
                }
                if (!found)
                    sayNoSuchTab(name);
            },
            Qt::SingleShotConnection);
    }
    if (!parser.positionalArguments().isEmpty()) {
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
            // A comparison asked for: its window, once it is made.
            if (parser.isSet(compare) && window.browser() && !window.comparePage())
                return;
            if (!window.isSettled())
                return;
            poll->stop();
            QTimer::singleShot(1000, &window, [&] {
                QWidget* shown = window.compareWindow() ? window.compareWindow()
                                 : window.sweepWindow() ? window.sweepWindow()
                                                        : static_cast<QWidget*>(&window);
                const bool saved = shown->grab().save(parser.value(screenshot));
                // What it shows, for the script that asked: the tab in front, or the window.
                QString what = shown->windowTitle();
                if (QTabWidget* tabs =
                        window.browser() ? window.browser()->tabs() : window.timelines();
                    tabs && shown == &window)
                    what = tabs->tabText(tabs->currentIndex()).remove(QLatin1Char('&'));
                if (saved)
                    std::printf("Saved %s: %s\n", qPrintable(parser.value(screenshot)),
                                qPrintable(what));
                QApplication::exit(saved ? 0 : 1);
            });
        });
        poll->start(500);
    }
    return app.exec();
}
