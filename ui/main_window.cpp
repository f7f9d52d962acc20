// SPDX-License-Identifier: Apache-2.0
#include "main_window.h"

#include <sqlite3.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QShortcut>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QVBoxLayout>

#include <QProgressBar>
#include <QProgressDialog>
#include <QPushButton>
#include <algorithm>

#include "compare/compare_page.h"
#include "help/help_windows.h"
#include "reading/report_run.h"
#include "run/file_import.h"
#include "run/new_profile_dialog.h"
#include "run/profile_worker.h"
#include "settings/app_settings.h"
#include "settings/settings_dialog.h"
#include "sweep/batch_size_page.h"
#include "timeline/timeline_page.h"
#include "trainscope/imported_file.h"
#include "trainscope/imported_job.h"
#include "trainscope/profiler.h"
#include "trainscope/report_format.h"
#include "views/advice_page.h"
#include "views/elided_label.h"
#include "views/entry_table_view.h"
#include "views/modules_page.h"
#include "views/rank_summary_page.h"
#include "views/ranks_page.h"
#include "views/report_browser.h"
#include "views/source_panel.h"
#include "views/timeline_summary_page.h"
#include "views/welcome_page.h"

namespace trainscope::ui {
namespace {

// The desktop theme's icon, else Qt's own.
QIcon standardIcon(const char* theme_name, QStyle::StandardPixmap fallback) {
    return QIcon::fromTheme(QLatin1String(theme_name),
                            QApplication::style()->standardIcon(fallback));
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      runner_(new ProfileRunner(this)),
      run_status_(new QLabel),
      status_message_(new ElidedLabel),
      run_progress_(new QProgressBar),
      cancel_(new QPushButton(tr("Cancel"))),
      runs_folder_(defaultRunsFolder()) {
    setWindowTitle(tr("TrainScope"));
    setAcceptDrops(true);
    // The default size, within the screen at any scale factor.
    QSize size(1100, 760);
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size() * 0.95);
    resize(size);
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* new_profile =
        file->addAction(standardIcon("document-new", QStyle::SP_FileIcon), tr("&New Profile…"),
                        QKeySequence::New, this, &MainWindow::showNewProfileDialog);
    QAction* open =
        file->addAction(standardIcon("document-open", QStyle::SP_DialogOpenButton), tr("&Open…"),
                        QKeySequence::Open, this, &MainWindow::chooseAndOpen);
    file->addAction(tr("Open &Folder of Traces…"), this, &MainWindow::chooseFolderAndOpen);
    recent_menu_ = file->addMenu(tr("Open &Recent"));
    connect(recent_menu_, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    fillRecentMenu();
    compare_action_ = file->addAction(tr("Co&mpare With…"), QKeySequence(tr("Ctrl+D")), this,
                                      &MainWindow::chooseAndCompare);
    file->addAction(tr("&Close"), QKeySequence::Close, this, &MainWindow::closeReports);
    file->addSeparator();
    export_table_ = file->addAction(
        standardIcon("document-export", QStyle::SP_DialogSaveButton), tr("&Export Table as CSV…"),
        QKeySequence(tr("Ctrl+E")), this, [this] {
            if (EntryTableView* table = browser_ ? browser_->currentTable() : nullptr)
                table->chooseAndExportCsv();
            else
                statusBar()->showMessage(tr("The tab in front has no table to export."), 4000);
        });
    file->addSeparator();
    project_root_action_ =
        file->addAction(tr("Set &Project Root…"), this, &MainWindow::chooseProjectRoot);
    file->addAction(tr("&Settings…"), QKeySequence::Preferences, this, &MainWindow::showSettings);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* find = view->addAction(standardIcon("edit-find", QStyle::SP_FileDialogContentsView),
                                    tr("&Find…"), QKeySequence::Find, this, [this] {
                                        if (!findInFrontTab())
                                            statusBar()->showMessage(
                                                tr("The tab in front has no find field."), 4000);
                                    });
    // Ctrl+Tab as Qt's windows step through their children, and Ctrl+PgDown/PgUp as browsers
    // and terminals step through their tabs.
    QAction* next = view->addAction(tr("&Next Tab"), this, [this] { stepTab(1); });
    next->setShortcuts({QKeySequence::NextChild, QKeySequence(Qt::CTRL | Qt::Key_PageDown)});
    QAction* previous = view->addAction(tr("&Previous Tab"), this, [this] { stepTab(-1); });
    previous->setShortcuts({QKeySequence::PreviousChild, QKeySequence(Qt::CTRL | Qt::Key_PageUp),
                            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab)});

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* manual = help->addAction(standardIcon("help-contents", QStyle::SP_DialogHelpButton),
                                      tr("TrainScope &Manual"), QKeySequence::HelpContents, this,
                                      [this] { showManual(this); });
    help->addAction(tr("&Keyboard Shortcuts"), this,
                    [this] { showShortcuts(this, shortcutActions()); });
    help->addSeparator();
    help->addAction(tr("&About TrainScope"), this, &MainWindow::showAbout);

    QToolBar* tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->setMovable(false);
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->addAction(new_profile);
    tools->addAction(open);
    tools->addAction(export_table_);
    tools->addSeparator();
    tools->addAction(find);
    tools->addAction(manual);

    run_progress_->setMaximumWidth(160);
    // What the window says (left, elided in the middle when long: a path keeps its ends), then
    // the run's stage, progress and Cancel (right): side by side, never over each other.
    status_message_->setObjectName(QStringLiteral("statusMessage"));
    status_message_->setMinimumWidth(80);
    status_message_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    statusBar()->addWidget(status_message_, 1);
    statusBar()->addPermanentWidget(run_status_);
    statusBar()->addPermanentWidget(run_progress_);
    statusBar()->addPermanentWidget(cancel_);
    run_progress_->hide();
    cancel_->hide();
    connect(cancel_, &QPushButton::clicked, runner_, &ProfileRunner::cancel);
    connect(runner_, &ProfileRunner::progressed, this, &MainWindow::showProgress);
    connect(runner_, &ProfileRunner::finished, this, [this](const QStringList& paths) {
        runEnded(tr("Profile finished."));
        openReports(paths);
    });
    connect(runner_, &ProfileRunner::failed, this, [this](const QString& message) {
        runEnded(tr("The run failed."));
        showError(tr("The profiling run failed: %1").arg(message));
    });
    connect(runner_, &ProfileRunner::cancelled, this,
            [this] { runEnded(tr("The run was cancelled; no report was written.")); });
    closeReports();
}

NewProfileDialog* MainWindow::showNewProfileDialog() {
    auto* dialog = new NewProfileDialog(runs_folder_, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { startRun(dialog->request()); });
    dialog->open();
    return dialog;
}

void MainWindow::runExample() {
    QDir().mkpath(runs_folder_);
    startRun(exampleRunRequest(runs_folder_));
}

bool MainWindow::startRun(const RunRequest& request) {
    if (!runner_->start(request)) {
        showError(tr("A run is in progress; cancel it or wait for it to finish."));
        return false;
    }
    run_status_->setText(tr("Starting %1…").arg(QString::fromStdString(request.config.model)));
    status_message_->setFullText(QString());  // an earlier run's failure is not this run's
    run_progress_->setRange(0, 0);            // busy until the engine reports iterations
    run_progress_->show();
    cancel_->show();
    if (welcome_)
        welcome_->setEnabled(false);
    return true;
}

void MainWindow::showProgress(const RunProgress& progress) {
    run_status_->setText(progress.text());
    if (progress.run_planned > 0) {  // the whole run's iterations: it only moves forward
        run_progress_->setRange(0, progress.run_planned);
        run_progress_->setValue(progress.run_done);
    }
}

void MainWindow::runEnded(const QString& message) {
    run_status_->setText(message);
    run_progress_->hide();
    cancel_->hide();
    if (welcome_)
        welcome_->setEnabled(true);
}

QList<QAction*> MainWindow::shortcutActions() const {
    QList<QAction*> actions;
    for (QAction* menu : menuBar()->actions()) {
        if (menu->menu())
            actions << menu->menu()->actions();
    }
    return actions;
}

QTabWidget* MainWindow::frontTabs() const {
    return browser_ ? browser_->tabs() : timelines_;
}

bool MainWindow::findInFrontTab() {
    QTabWidget* tabs = frontTabs();
    QWidget* page = tabs ? tabs->currentWidget() : nullptr;
    if (!page)
        return false;
    for (QLineEdit* field : page->findChildren<QLineEdit*>(QStringLiteral("find"))) {
        if (field->isVisibleTo(page)) {
            field->setFocus(Qt::ShortcutFocusReason);
            field->selectAll();
            return true;
        }
    }
    return false;
}

void MainWindow::stepTab(int step) {
    QTabWidget* tabs = frontTabs();
    if (!tabs || tabs->count() == 0)
        return;
    tabs->setCurrentIndex((tabs->currentIndex() + step + tabs->count()) % tabs->count());
}

QString MainWindow::runStatus() const {
    return run_status_->text();
}

void MainWindow::chooseAndOpen() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open Report"), QString(),
        tr("Reports, traces and snapshots (*.sqlite *.db *.json *.json.gz *.pickle *.pkl);;"
           "Reports (*.sqlite *.db);;torch.profiler traces (*.json *.json.gz);;"
           "Memory snapshots (*.pickle *.pkl);;All files (*)"));
    if (!paths.isEmpty())
        openReports(paths);
}

void MainWindow::chooseAndCompare() {
    if (!browser_) {
        statusBar()->showMessage(tr("Open a run first: it is the base of the comparison."), 4000);
        return;
    }
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Compare With"), QFileInfo(browser_->paths().value(0)).absolutePath(),
        tr("Reports (*.sqlite *.db);;All files (*)"));
    if (!path.isEmpty())
        compareWith(path);
}

bool MainWindow::isSettled() const {
    if (runner_->busy() || opening()) {
        return false;
    }
    auto settled = [](const QWidget* page) {
        const auto* settling = dynamic_cast<const SettlingPage*>(page);
        return !settling || settling->isSettled();
    };
    if (!settled(comparePage()) || !settled(sweepPage())) {
        return false;
    }
    if (const QTabWidget* tabs = browser_ ? browser_->tabs() : timelines_) {
        for (int i = 0; i < tabs->count(); ++i)
            if (!settled(tabs->widget(i))) {
                return false;
            }
    }
    return true;
}

ComparePage* MainWindow::comparePage() const {
    return compare_window_ ? compare_window_->findChild<ComparePage*>() : nullptr;
}

bool MainWindow::compareWith(const QString& path) {
    if (!browser_)
        return false;
    // The base: the open run's reports, and its timeline beside them.
    RunReports base;
    const RunContents& contents = browser_->run().contents();
    if (contents.memory)
        base.memory = contents.memory->path.toStdString();
    if (contents.time)
        base.time = contents.time->path.toStdString();
    // Its timeline as the run found it beside them (one rank's: a run of ours has one).
    if (contents.timelines.size() == 1)
        base.timeline = contents.timelines.front().toStdString();
    const QString first = browser_->paths().value(0);
    const QString suffix = runReportSuffix(first);
    const QString prefix = suffix.isEmpty() ? first : first.chopped(suffix.size());
    base.label = prefix.toStdString();
    // The new run: its prefix brings its siblings along.
    const QString new_suffix = runReportSuffix(path);
    const QString changed = new_suffix.isEmpty() ? path : path.chopped(new_suffix.size());

    delete compare_window_;
    compare_window_ = showOwnWindow(
        tr("Compare: %1 with %2").arg(QFileInfo(changed).fileName(), QFileInfo(prefix).fileName()),
        new ComparePage(base, changed, browser_->projectRoot()));
    connect(compare_window_, &QObject::destroyed, this, [this] { compare_window_ = nullptr; });
    return true;
}

QWidget* MainWindow::showOwnWindow(const QString& title, QWidget* content) {
    auto* window = new QWidget(this, Qt::Window);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setWindowTitle(title);
    auto* layout = new QVBoxLayout(window);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(content);
    // Each key once: two shortcuts of one key in a window are ambiguous, and neither fires.
    QList<QKeySequence> closing = QKeySequence::keyBindings(QKeySequence::Close);  // Ctrl+F4
    for (const QKeySequence& keys :
         {QKeySequence(Qt::Key_Escape), QKeySequence(Qt::CTRL | Qt::Key_W)})
        if (!closing.contains(keys))
            closing << keys;
    for (const QKeySequence& keys : closing) {
        auto* close = new QShortcut(keys, window);
        connect(close, &QShortcut::activated, window, &QWidget::close);
    }
    // The main window's size and place, frame included, moved up and cut where it would leave
    // the screen.
    const QRect inner = geometry(), outer = frameGeometry();
    const QMargins frame(inner.left() - outer.left(), inner.top() - outer.top(),
                         outer.right() - inner.right(), outer.bottom() - inner.bottom());
    QRect place = outer;
    if (const QScreen* shown = screen()) {
        const QRect screen = shown->availableGeometry();
        place.setSize(place.size().boundedTo(screen.size()));
        place.moveTop(std::clamp(place.top(), screen.top(), screen.bottom() + 1 - place.height()));
        place.moveLeft(std::clamp(place.left(), screen.left(), screen.right() + 1 - place.width()));
    }
    window->setGeometry(place.marginsRemoved(frame));
    window->show();
    return window;
}

BatchSizePage* MainWindow::sweepPage() const {
    return sweep_window_ ? sweep_window_->findChild<BatchSizePage*>() : nullptr;
}

void MainWindow::openSweep(const QString& path) {
    delete sweep_window_;
    auto* page = new BatchSizePage(path);
    connect(page, &BatchSizePage::read, this, [this, path](bool ok) {
        if (ok)
            AppSettings::addRecentFile(path);
    });
    sweep_window_ = showOwnWindow(tr("Batch Size: %1").arg(QFileInfo(path).fileName()), page);
    connect(sweep_window_, &QObject::destroyed, this, [this] { sweep_window_ = nullptr; });
}

void MainWindow::openAdvice(const QString& path) {
    delete advice_window_;
    auto* page = new AdvicePage(path);
    connect(page, &AdvicePage::read, this, [path](bool ok) {
        if (ok)
            AppSettings::addRecentFile(path);
    });
    advice_window_ = showOwnWindow(tr("Advice: %1").arg(QFileInfo(path).fileName()), page);
    connect(advice_window_, &QObject::destroyed, this, [this] { advice_window_ = nullptr; });
}

void MainWindow::openReports(const QStringList& paths) {
    // A sweep's report and an advice report opened alone are no run's: each has a window of
    // its own (a run's advice is a tab of the run).
    QStringList runs, imported;
    for (const QString& path : paths) {
        if (QFileInfo(path).isDir()) {
            try {
                for (const std::string& trace : tracesInFolder(path.toStdString()))
                    imported << QString::fromStdString(trace);
            } catch (const std::exception& e) {
                showError(QString::fromStdString(e.what()));
                return;
            }
        } else if (path.endsWith(QLatin1String(report_format::kSweepSuffix))) {
            openSweep(path);
        } else if (path.endsWith(QLatin1String(report_format::kAdviceSuffix))) {
            openAdvice(path);
        } else if (importedFormatOf(path.toStdString()) != ImportedFormat::None) {
            imported << path;
        } else {
            runs << path;
        }
    }
    if (!imported.isEmpty())
        openImported(imported, runs);
    else if (!runs.isEmpty())
        openRunReports(runs);
}

void MainWindow::chooseFolderAndOpen() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open Folder of Traces"));
    if (!folder.isEmpty())
        openReports({folder});
}

void MainWindow::openImported(const QStringList& paths, const QStringList& others) {
    QList<QStringList> made;
    for (const QString& path : paths)
        made << FileImport::importedReports(path);
    if (!made.contains(QStringList())) {
        openImportedReports(paths, made, others);
        return;
    }
    delete import_;  // cancels an import under way
    delete import_progress_;
    import_ = new FileImport(paths, this);
    import_others_ = others;
    const QString name = paths.size() == 1 ? QFileInfo(paths.first()).fileName()
                                           : tr("%n traces", nullptr, int(paths.size()));
    import_progress_ =
        new QProgressDialog(tr("Importing %1…").arg(name), tr("Cancel"), 0, 100, this);
    import_progress_->setWindowTitle(tr("Import"));
    import_progress_->setMinimumDuration(400);  // a small file opens without a dialog
    import_progress_->setAutoClose(false);
    import_progress_->setAutoReset(false);
    import_progress_->setValue(0);
    connect(import_progress_, &QProgressDialog::canceled, import_, &FileImport::cancel);
    connect(import_, &FileImport::progressed, import_progress_, &QProgressDialog::setValue);
    connect(import_, &FileImport::finished, this, &MainWindow::importEnded);
    status_message_->setFullText(tr("Importing %1…").arg(name));
    import_->start();
}

void MainWindow::importEnded() {
    FileImport* import = import_;
    import_ = nullptr;
    import_progress_->deleteLater();
    import_progress_ = nullptr;
    import->deleteLater();  // it is still emitting finished()
    if (import->cancelled()) {
        status_message_->setFullText(
            tr("Import of %1 cancelled.").arg(QFileInfo(import->paths().first()).fileName()));
        emit reportsOpened(false);
    } else if (!import->error().isEmpty()) {
        showError(import->error());
        emit reportsOpened(false);
    } else {
        openImportedReports(import->paths(), import->reports(), import_others_);
    }
}

void MainWindow::openImportedReports(const QStringList& paths, const QList<QStringList>& made,
                                     const QStringList& others) {
    for (auto path = paths.crbegin(); path != paths.crend(); ++path)
        AppSettings::addRecentFile(*path);
    const QString& path = paths.first();
    const QStringList& reports = made.first();
    // The other files' timelines beside the first's reports: a job's ranks, in one Timeline
    // tab and the Ranks tab.
    QStringList opened = reports;
    for (qsizetype i = 1; i < made.size(); ++i)
        for (const QString& report : made[i])
            if (report.endsWith(QLatin1String(report_format::kTimelineSuffix)))
                opened << report;
    auto has = [&reports](const char* suffix) {
        return std::any_of(reports.begin(), reports.end(), [suffix](const QString& report) {
            return report.endsWith(QLatin1String(suffix));
        });
    };
    const QString name = QFileInfo(path).fileName();
    QString lacks;
    if (!has(report_format::kTimeSuffix))
        lacks = tr("%1 is a memory snapshot: it holds no operation times, so there is no Time "
                   "tab.")
                    .arg(name);
    else if (!has(report_format::kMemorySuffix))
        lacks = tr("%1 has no memory events (recorded without profile_memory=True), so there is "
                   "no Memory tab.")
                    .arg(name);
    openRunReports(opened + others);
    if (!lacks.isEmpty()) {
        connect(
            this, &MainWindow::reportsOpened, this,
            [this, lacks](bool shown) {
                if (shown)
                    status_message_->setFullText(lacks);
            },
            Qt::SingleShotConnection);
    }
}

void MainWindow::openRunReports(const QStringList& paths) {
    delete opening_;  // stops its reading within milliseconds
    opening_ = new ReportRun(paths, this);
    connect(opening_, &ReportRun::opened, this, &MainWindow::showRun);
    QStringList names;
    for (const QString& path : paths)
        names << QFileInfo(path).fileName();
    status_message_->setFullText(tr("Opening %1…").arg(names.join(QStringLiteral(", "))));
}

void MainWindow::showRun() {
    ReportRun* run = opening_;
    opening_ = nullptr;
    const RunContents contents = run->contents();
    if (!contents.errors.isEmpty())
        showError(contents.errors.join(QLatin1Char('\n')));
    else
        statusBar()->clearMessage();
    if (contents.isEmpty()) {
        run->deleteLater();  // it is still emitting opened()
        emit reportsOpened(false);
        return;
    }

    // The browser, with a tab for each timeline; timelines alone (torch_npu's databases, one
    // per rank) in tabs of their own.
    QTabWidget* tabs = nullptr;
    if (contents.memory || contents.time) {
        run->setParent(nullptr);
        browser_ = new ReportBrowser(std::unique_ptr<ReportRun>(run), this);
        timelines_ = nullptr;
        tabs = browser_->tabs();
        setCentralWidget(browser_);
    } else {
        run->deleteLater();  // the timeline pages read their files themselves
        browser_ = nullptr;
        timelines_ = tabs = new QTabWidget;
        setCentralWidget(tabs);
    }
    welcome_ = nullptr;
    project_root_action_->setEnabled(browser_ != nullptr);
    // The timeline of every rank in one tab (aligned at the step), then each file's summary.
    const QStringList& timelines = contents.timelines;
    TimelinePage* timeline_page = nullptr;
    if (!timelines.isEmpty()) {
        auto* page = timeline_page =
            new TimelinePage(timelines, browser_ ? browser_->sourcePanel() : nullptr);
        if (browser_) {  // one selection: the Time table's and the timeline's follow each other
            connect(browser_, &ReportBrowser::operationSelected, page,
                    &TimelinePage::selectTimedOperation);
            connect(page, &TimelinePage::operationSelected, browser_,
                    &ReportBrowser::selectOperation);
            // The source panel shows the selected call's frames when the tab comes forward.
            connect(browser_, &ReportBrowser::addedPageShown, page, [page](QWidget* shown) {
                if (shown == page)
                    page->showSelectedCall();
            });
            page->followRunFilter(browser_->filter());
        }
        const int index = tabs->addTab(page, tr("Timeline"));
        tabs->setTabToolTip(index, timelines.join(QLatin1Char('\n')));
        if (!browser_)
            tabs->setCurrentIndex(index);
    }
    // The run's what-ifs (python3 -m trainscope advise), where they lie beside its reports: a
    // click on one shows its module, with its source line, in the Modules tab.
    QString advice_opened;  // named in the status line with the reports
    if (browser_) {
        QString prefix = browser_->paths().value(0);
        for (const char* suffix : {report_format::kMemorySuffix, report_format::kTimeSuffix})
            if (prefix.endsWith(QLatin1String(suffix)))
                prefix.chop(int(qstrlen(suffix)));
        const QString advice = prefix + QLatin1String(report_format::kAdviceSuffix);
        if (QFileInfo(advice).isFile()) {
            advice_opened = advice;
            auto* page = new AdvicePage(advice);
            ReportBrowser* browser = browser_;
            connect(page, &AdvicePage::moduleChosen, browser, [browser](const QString& module) {
                ModulesPage* modules = browser->modulesPage();
                if (modules && modules->selectModulePath(module))
                    browser->tabs()->setCurrentWidget(modules->parentWidget());  // its tab
            });
            connect(page, &AdvicePage::lineChosen, browser,
                    [browser](const QString& file, int line) {
                        browser->sourcePanel()->showFrames({FrameRow{file, line, {}}});
                    });
            tabs->setTabToolTip(tabs->addTab(page, tr("Advice")), advice);
        }
    }
    // Each timeline's figures (steps, peaks, top operations, largest blocks): beside the
    // browser's overview, or as the overview of timelines opened alone (first, as there); of
    // several (a job's ranks), in one tab with a chooser.
    if (timelines.size() == 1) {
        const QString name = QFileInfo(timelines.first()).fileName();
        auto* summary = new TimelineSummaryPage(timelines.first());
        if (browser_)
            tabs->addTab(summary, tr("Summary of %1").arg(name));
        else
            tabs->insertTab(0, summary, tr("Overview"));
        tabs->setTabToolTip(tabs->indexOf(summary), timelines.first());
    } else if (timelines.size() > 1) {
        auto* summary = new RankSummaryPage(timelines);
        if (browser_)
            tabs->addTab(summary, tr("Summary of a Rank"));
        else
            tabs->insertTab(0, summary, tr("Overview of a Rank"));
    }
    // Several timelines: the ranks of one job side by side, first among timelines opened alone.
    if (timelines.size() >= 2) {
        auto* ranks = new RanksPage(timelines);
        // One reading of the files: the Timeline tab's worker hands over what the summary needs.
        connect(timeline_page, &TimelinePage::ranksRead, ranks, &RanksPage::summarize);
        if (browser_)
            tabs->addTab(ranks, tr("Ranks"));
        else
            tabs->insertTab(0, ranks, tr("Ranks"));
        tabs->setTabToolTip(tabs->indexOf(ranks), timelines.join(QLatin1Char('\n')));
    }
    // File names in the title: two full paths do not fit. The tooltip has the full paths.
    QStringList opened = contents.paths();
    if (!advice_opened.isEmpty())
        opened << advice_opened;
    QStringList names;
    for (const QString& path : opened)
        names << QFileInfo(path).fileName();
    // Open Recent: a run once (its first report brings the others along); timelines opened
    // alone, each file (a rank). Added last first, so that the first is on top.
    const QStringList recent = browser_ ? QStringList{opened.first()} : timelines;
    for (auto path = recent.crbegin(); path != recent.crend(); ++path)
        AppSettings::addRecentFile(*path);
    setWindowTitle(tr("%1 — TrainScope").arg(runName(opened.first())));
    if (contents.errors.isEmpty())
        status_message_->setFullText(tr("Opened %1").arg(names.join(QStringLiteral(", "))));
    statusBar()->setToolTip(opened.join(QLatin1Char('\n')));
    emit reportsOpened(true);
}

void MainWindow::closeReports() {
    delete opening_;
    opening_ = nullptr;
    browser_ = nullptr;
    timelines_ = nullptr;
    statusBar()->setToolTip({});
    if (project_root_action_)
        project_root_action_->setEnabled(false);
    welcome_ = new WelcomePage;
    welcome_->setEnabled(!runner_->busy());
    connect(welcome_, &WelcomePage::exampleRequested, this, &MainWindow::runExample);
    connect(welcome_, &WelcomePage::newProfileRequested, this, &MainWindow::showNewProfileDialog);
    connect(welcome_, &WelcomePage::openRequested, this, &MainWindow::chooseAndOpen);
    connect(welcome_, &WelcomePage::recentRequested, this,
            [this](const QString& path) { openReports({path}); });
    setCentralWidget(welcome_);  // deletes the browser and closes its connections
    setWindowTitle(tr("TrainScope"));
}

void MainWindow::chooseProjectRoot() {
    if (!browser_)
        return;
    auto* dialog = new QFileDialog(this, tr("Project Root"), browser_->projectRoot());
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString& root) {
        if (browser_) {
            browser_->setProjectRoot(root);
            status_message_->setFullText(tr("Project root: %1").arg(browser_->projectRoot()));
        }
    });
    dialog->open();
}

QString MainWindow::aboutText() {
    return tr("<h3>TrainScope %1</h3>"
              "<p>Where the time and the memory of a PyTorch training iteration go.</p>"
              "<p>Licensed under the Apache License, Version 2.0.</p>"
              "<p>LibTorch %2 · Qt %3 · SQLite %4</p>")
        .arg(QString::fromStdString(version()), QString::fromStdString(torchVersion()),
             QString::fromLatin1(qVersion()), QString::fromLatin1(sqlite3_libversion()));
}

void MainWindow::showAbout() {
    auto* box = new QMessageBox(QMessageBox::Information, tr("About TrainScope"), aboutText(),
                                QMessageBox::Ok, this);
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showSettings() {
    auto* dialog = new SettingsDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::fillRecentMenu() {
    recent_menu_->clear();
    const QStringList files = AppSettings::recentFiles();
    const QFontMetrics metrics(recent_menu_->font());
    for (const QString& path : files) {
        recent_menu_
            ->addAction(recentRunTitle(path, metrics), this, [this, path] { openReports({path}); })
            ->setToolTip(path);
    }
    if (files.isEmpty()) {
        recent_menu_->addAction(tr("No recent reports"))->setEnabled(false);
        return;
    }
    recent_menu_->addSeparator();
    recent_menu_->addAction(tr("Clear List"), this, [] { AppSettings::clearRecentFiles(); });
}

void MainWindow::showError(const QString& message) {
    last_error_ = message;
    status_message_->setFullText(message.section(QLatin1Char('\n'), 0, 0));
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("TrainScope"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();  // window-modal, without a nested event loop
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    if (paths.isEmpty())
        return;
    if (!browser_ || paths.size() != 1) {
        openReports(paths);
        return;
    }
    // One report dropped on an open run: open it instead, or compare the two.
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Open %1").arg(QFileInfo(paths[0]).fileName()), this,
                    [this, paths] { openReports(paths); });
    menu->addAction(tr("Compare With the Open Run"), this,
                    [this, paths] { compareWith(paths[0]); });
    menu->popup(mapToGlobal(event->position().toPoint()));
}

}  // namespace trainscope::ui
