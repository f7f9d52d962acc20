// SPDX-License-Identifier: Apache-2.0
#include "views/report_browser.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QListWidget>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include "settings/app_settings.h"
#include "source/project_root.h"
#include "views/compiled_page.h"
#include "views/entry_table_view.h"
#include "views/memory_page.h"
#include "views/modules_page.h"
#include "views/overview_page.h"
#include "views/run_filter.h"
#include "views/source_lines_page.h"
#include "views/source_panel.h"
#include "views/time_page.h"

namespace trainscope::ui {

ReportBrowser::ReportBrowser(std::unique_ptr<ReportRun> run, QWidget* parent)
    : QWidget(parent), run_(std::move(run)), filter_(new RunFilter(this)) {
    const RunContents& contents = run_->contents();
    source_panel_ = new SourcePanel;
    // A filter reads the tables again, without the selected row: its frames go too (and an
    // answer still on its way for it is dropped).
    connect(filter_, &RunFilter::changed, this, [this] {
        ++frames_asked_;
        source_panel_->clear();
    });
    source_panel_->setLineCostReader(
        [this](const QString& file, QObject* receiver, std::function<void(const LineCosts&)> done) {
            run_->readReports<LineCosts>(
                [file](const ReportFile* memory, const ReportFile* time) {
                    LineCosts costs;
                    for (const ReportFile* report : {time, memory}) {
                        if (report)
                            addLineCosts(*report, file, &costs);
                    }
                    return costs;
                },
                receiver, std::move(done));
        });
    applySourceFolders();
    connect(run_.get(), &ReportRun::libraryRootsRead, this, &ReportBrowser::applySourceFolders);
    connect(source_panel_, &SourcePanel::sourceFoldersAnswered, this, [this](bool allowed) {
        for (const QString& path : paths())
            AppSettings::setSourceFoldersAnswer(path, allowed);
        applySourceFolders();
    });

    tabs_ = new QTabWidget;
    auto* overview = new OverviewPage(*run_);
    overview_text_ = overview->text();
    // Scrolled where the window is too low for its charts (a small screen, a large scale
    // factor): the window never has to be taller than the screen.
    auto* overview_scroll = new QScrollArea;
    overview_scroll->setWidget(overview);
    overview_scroll->setWidgetResizable(true);
    overview_scroll->setFrameShape(QFrame::NoFrame);
    tabs_->addTab(overview_scroll, tr("Overview"));
    // A bar of the overview leads to its row, in the tab of its table.
    connect(overview, &OverviewPage::activationClicked, this, [this](qint64 id) {
        tabs_->setCurrentWidget(memory_page_);
        memory_page_->activationsView()->selectEntry(id, true);
    });
    connect(overview, &OverviewPage::weightsPartClicked, this, [this] {
        tabs_->setCurrentWidget(memory_page_);
        memory_page_->weightsView()->setFocus();
    });
    connect(overview, &OverviewPage::activationsPartClicked, this, [this] {
        tabs_->setCurrentWidget(memory_page_);
        memory_page_->activationsView()->setFocus();
    });
    connect(overview, &OverviewPage::timePartClicked, this, [this] {
        tabs_->setCurrentWidget(time_page_);
        time_page_->operationsView()->setFocus();
    });
    connect(overview, &OverviewPage::operationClicked, this, [this](qint64 id) {
        tabs_->setCurrentWidget(time_page_);
        time_page_->groupingChoice()->setCurrentIndex(0);
        time_page_->operationsView()->selectEntry(id, true);
    });
    if (contents.memory_summary) {
        memory_page_ = new MemoryPage(*run_, filter_);
        followSelection(memory_page_, memory_page_->weightsView(), ReportKind::Memory,
                        EntryTable::Weight);
        followSelection(memory_page_, memory_page_->activationsView(), ReportKind::Memory,
                        EntryTable::Activation);
        tabs_->addTab(memory_page_, tr("Memory"));
    }
    if (contents.time_summary) {
        time_page_ = new TimePage(*run_, filter_);
        followSelection(time_page_, time_page_->operationsView(), ReportKind::Time,
                        EntryTable::Operation);
        tabs_->addTab(time_page_, tr("Time"));
    }
    // A memory snapshot holds no modules or times: its blocks go by line, not by module.
    const bool snapshot_alone = !contents.time_summary && contents.memory_summary &&
                                contents.memory_summary->lists_blocks_at_peak;
    if (contents.memory_summary || contents.time_summary) {
        if (!snapshot_alone) {
            modules_tab_ = new QWidget;
            new QVBoxLayout(modules_tab_);
            modules_tab_->layout()->setContentsMargins(0, 0, 0, 0);
            tabs_->addTab(modules_tab_, tr("Modules"));
        }
        source_lines_tab_ = new QWidget;
        new QVBoxLayout(source_lines_tab_);
        source_lines_tab_->layout()->setContentsMargins(0, 0, 0, 0);
        tabs_->addTab(source_lines_tab_, tr("By Source Line"));
    }
    if (const auto& time = contents.time_summary;
        time &&
        (!time->compilations.empty() || time->kernels.kernels > 0 || !time->kernels.note.empty())) {
        compiled_page_ = new CompiledPage(*time);
        connect(compiled_page_, &CompiledPage::lineSelected, this,
                [this](const QVector<FrameRow>& line) {
                    ++frames_asked_;  // frames on their way are for an earlier selection
                    source_panel_->showFrames(line);
                });
        tabs_->addTab(compiled_page_, tr("Compiled"));
    }
    for (int i = 0; i < tabs_->count(); ++i)
        own_pages_.insert(tabs_->widget(i));
    connect(tabs_, &QTabWidget::currentChanged, this, &ReportBrowser::followTab);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(tabs_);
    split->addWidget(source_panel_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

ReportBrowser::~ReportBrowser() {
    // The models ask the run for pages: the widgets go first, then the run.
    qDeleteAll(findChildren<QObject*>(QString(), Qt::FindDirectChildrenOnly));
}

QStringList ReportBrowser::paths() const {
    return run_->contents().reportPaths();
}

void ReportBrowser::applySourceFolders() {
    const QString report = paths().value(0);
    QString chosen, recorded, note, error;
    QStringList libraries;
    int answer = -1;
    const RunContents& contents = run_->contents();
    for (const std::optional<ReportContents>* slot : {&contents.memory, &contents.time}) {
        if (!*slot)
            continue;
        const ReportContents& file = **slot;
        if (chosen.isEmpty())
            chosen = AppSettings::projectRootFor(file.path);
        if (answer < 0)
            answer = AppSettings::sourceFoldersAnswer(file.path);
        if (recorded.isEmpty())
            recorded = file.project_root;
        if (note.isEmpty())
            note = file.frames_note;
        if (error.isEmpty())
            error = file.metadata_error;
        // A relative root names where a library was, not a folder here (an imported trace's
        // "site-packages"): there is nothing to show from it.
        for (const QString& root : file.library_roots.value_or(QStringList())) {
            if (QDir::isAbsolutePath(root) && !libraries.contains(root))
                libraries << root;
        }
    }
    const QString real_recorded = realPath(recorded);
    const bool trusted = !trustedProjectRoot(recorded, report).isEmpty();
    QString root = QFileInfo(report).absolutePath();
    if (!chosen.isEmpty())
        root = chosen;
    else if (!real_recorded.isEmpty() && (trusted || answer == 1))
        root = real_recorded;
    // Unreadable metadata leaves the report's own folder as the root (the safe choice); the
    // frames list says why the recorded folders were not used.
    if (!error.isEmpty())
        note = tr("This report's source folders could not be read: %1").arg(error);
    source_panel_->setNoFramesReason(note);
    source_panel_->setProjectRoot(root);
    source_panel_->setLibrariesAllowed(answer == 1);

    QStringList untrusted;
    if (chosen.isEmpty() && !real_recorded.isEmpty() && !trusted)
        untrusted << real_recorded;
    untrusted << libraries;
    // A question asked before the library roots are known could not name them all, and its
    // answer would allow them too: it is asked once they are (ReportRun::libraryRootsRead).
    // Answered "Don't Show" (now or before): asked again only when a frame there is chosen.
    source_panel_->askAboutSourceFolders(
        answer != 1 && !untrusted.isEmpty() && contents.libraryRootsKnown()
            ? tr("This report's source is in %1. Show files from there?")
                  .arg(untrusted.join(QStringLiteral(", ")))
            : QString(),
        answer < 0);
}

const QString& ReportBrowser::projectRoot() const {
    return source_panel_->projectRoot();
}

void ReportBrowser::setProjectRoot(const QString& root) {
    const QString absolute = QDir(root).absolutePath();
    for (const QString& path : paths())
        AppSettings::setProjectRootFor(path, absolute);
    source_panel_->setProjectRoot(absolute);
}

EntryTableView* ReportBrowser::weightsView() const {
    return memory_page_ ? memory_page_->weightsView() : nullptr;
}

EntryTableView* ReportBrowser::activationsView() const {
    return memory_page_ ? memory_page_->activationsView() : nullptr;
}

EntryTableView* ReportBrowser::operationsView() const {
    return time_page_ ? time_page_->operationsView() : nullptr;
}

QListWidget* ReportBrowser::framesList() const {
    return source_panel_->framesList();
}

SourceLinesPage* ReportBrowser::sourceLinesPage() {
    if (!source_lines_page_ && source_lines_tab_) {
        source_lines_page_ = new SourceLinesPage(*run_, filter_);
        connect(source_lines_page_, &SourceLinesPage::lineSelected, this,
                [this](const QVector<FrameRow>& line) {
                    ++frames_asked_;  // frames on their way are for an earlier selection
                    source_panel_->showFrames(line);
                });
        source_lines_tab_->layout()->addWidget(source_lines_page_);
    }
    return source_lines_page_;
}

ModulesPage* ReportBrowser::modulesPage() {
    if (!modules_page_ && modules_tab_) {
        modules_page_ = new ModulesPage(*run_, filter_);
        connect(modules_page_, &ModulesPage::operationChosen, this, [this](qint64 number) {
            if (!run_->contents().time) {  // a memory report alone: no run time entry to show
                ++frames_asked_;
                source_panel_->clear();
                return;
            }
            showFrames(ReportKind::Time, [number](const ReportFile& report, QString* error) {
                return stackFrames(report, EntryTable::Operation, number, error);
            });
        });
        connect(modules_page_, &ModulesPage::nothingChosen, this, [this] {
            ++frames_asked_;
            source_panel_->clear();
        });
        modules_tab_->layout()->addWidget(modules_page_);
    }
    return modules_page_;
}

EntryTableView* ReportBrowser::currentTable() const {
    QWidget* page = tabs_->currentWidget();
    if (EntryTableView* chosen = last_selected_.value(page))
        return chosen;
    for (EntryTableView* table : page->findChildren<EntryTableView*>()) {
        if (table->isVisibleTo(page))
            return table;
    }
    return nullptr;
}

void ReportBrowser::selectOperation(qint64 entry_id) {
    if (time_page_ && !time_page_->grouped())
        time_page_->operationsView()->selectEntry(entry_id);
}

void ReportBrowser::followSelection(QWidget* page, EntryTableView* view, ReportKind kind,
                                    EntryTable table) {
    frames_source_.insert(view, {kind, table});
    // Rows of operations (and of the activations they allocated) filter the run to their name.
    view->offerFilterByName(table != EntryTable::Weight);
    connect(view, &EntryTableView::filterRequested, filter_, &RunFilter::setName);
    connect(view, &EntryTableView::rowSelected, this, [this, page, view, table](int row) {
        last_selected_.insert(page, view);
        showFramesOf(view, row);
        if (table == EntryTable::Operation && time_page_ && !time_page_->grouped())
            emit operationSelected(view->entryModel()->entryId(row));
    });
}

void ReportBrowser::showFramesOf(EntryTableView* view, int row) {
    const auto [kind, table] = frames_source_.value(view);
    ReportRun::FramesQuery query;
    if (table == EntryTable::Operation && time_page_->grouped()) {
        // A row of many calls: each line they were called from.
        query = [name = view->entryModel()->rawValue(row, 1).toString()](const ReportFile& report,
                                                                         QString* error) {
            return callSites(report, name, error);
        };
    } else {
        query = [table = table, id = view->entryModel()->entryId(row)](const ReportFile& report,
                                                                       QString* error) {
            return stackFrames(report, table, id, error);
        };
    }
    showFrames(kind, std::move(query));
}

void ReportBrowser::showFrames(ReportKind kind, ReportRun::FramesQuery query) {
    const quint64 asked = ++frames_asked_;
    run_->readFrames(
        kind, std::move(query), this,
        [this, asked](const QVector<FrameRow>& frames, const QString& error) {
            if (asked != frames_asked_)
                return;  // another entry was selected meanwhile
            source_panel_->showFrames(frames, error);
            if (!error.isEmpty())
                source_panel_->setMessage(tr("The stack frames cannot be read: %1").arg(error));
            emit framesShown();
        });
}

void ReportBrowser::followTab(int index) {
    QWidget* page = tabs_->widget(index);
    if (page == modules_tab_) {
        modulesPage()->announceSelection();
        return;
    }
    if (page == source_lines_tab_) {
        if (const auto line = sourceLinesPage()->selectedLine()) {
            ++frames_asked_;
            source_panel_->showFrames(*line);
            return;
        }
    } else if (EntryTableView* view = last_selected_.value(page);
               view && view->currentIndex().isValid()) {
        showFramesOf(view, view->currentIndex().row());
        return;
    }
    ++frames_asked_;  // frames on their way belong to the tab left
    source_panel_->clear();
    if (!own_pages_.contains(page))
        emit addedPageShown(page);
}

}  // namespace trainscope::ui
