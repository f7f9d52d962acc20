// SPDX-License-Identifier: Apache-2.0
#include "timeline/timeline_page.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <algorithm>
#include <optional>

#include "settings/app_settings.h"
#include "timeline/live_blocks_view.h"
#include "timeline/memory_curve_widget.h"
#include "timeline/time_axis.h"
#include "timeline/timeline_widget.h"
#include "trainscope/side_by_side.h"
#include "views/run_filter.h"
#include "views/run_filter_bar.h"
#include "views/source_panel.h"

namespace trainscope::ui {
namespace {

// A frame as the source panel takes it. torch_npu's frames are absolute paths of the machine
// that ran the job: they are shown like library frames, from their folder, only once the user
// allows the report's folders.
FrameRow frameRowOf(const TimelineFrame& frame) {
    const QString path = QString::fromStdString(frame.file_path);
    if (QDir::isAbsolutePath(path)) {
        const QFileInfo info(path);
        return {info.fileName(), frame.line, info.absolutePath()};
    }
    return {path, frame.line, QString::fromStdString(frame.library_root)};
}

// The frame a user looks for in a torch_npu call chain (absolute paths, innermost first): the
// innermost one of their own code, not of an installed package ("site-packages"), Python's
// standard library or generated code ("<string>"). -1 where there is none, or where frames are
// TrainScope's (relative, with the project told apart already).
int usersFrame(const std::vector<TimelineFrame>& chain) {
    static const QRegularExpression standard_library(QStringLiteral("/lib/python[0-9.]+/"));
    for (size_t i = 0; i < chain.size(); ++i) {
        const QString path = QString::fromStdString(chain[i].file_path);
        if (path.startsWith(QLatin1Char('<')))
            continue;
        if (!QDir::isAbsolutePath(path))
            return -1;
        if (!path.contains(QLatin1String("/site-packages/")) &&
            !path.contains(QLatin1String("/dist-packages/")) && !path.contains(standard_library))
            return int(i);
    }
    return -1;
}

// What a collapsed rank keeps of its file: its steps and extent (its title, the alignment and
// the step band), not its calls, memory and blocks.
std::shared_ptr<const TimelineData> outlineOf(const TimelineData& data) {
    auto outline = std::make_shared<TimelineData>();
    outline->path = data.path;
    outline->rank = data.rank;
    outline->steps = data.steps;
    outline->step_collectives = data.step_collectives;
    outline->first_ns = data.first_ns;
    outline->last_ns = data.last_ns;
    return outline;
}

// The tab's files: the first (a lone timeline, or a job's first rank) whole; of the other ranks
// what their summary needs, kept as their outline (eight ranks of a million calls each, all held
// whole, took 1.5 GB). Files are read side by side (readInOrder).
TimelineRanksLoad loadRanks(const QStringList& paths, const std::atomic<bool>* cancel) {
    TimelineRanksLoad load;
    try {
        struct Read {
            std::shared_ptr<const TimelineData> shown;
            std::optional<RankFacts> facts;
        };
        const bool several = paths.size() >= 2;
        auto read = [several, cancel](const QString& path, bool whole) {
            TimelineData data = loadTimelineData(
                path.toStdString(), whole ? TimelineParts::Whole : TimelineParts::CallsAndSteps,
                cancel);
            Read result;
            if (several)
                result.facts = rankFactsOf(data);
            result.shown =
                whole ? std::make_shared<const TimelineData>(std::move(data)) : outlineOf(data);
            return result;
        };
        auto facts = std::make_shared<std::vector<RankFacts>>();
        readInOrder(
            std::vector<QString>(paths.begin(), paths.end()),
            [&read](const QString& path, size_t i) { return read(path, i == 0); },
            [&](Read result, size_t i) {
                load.ranks << result.shown;
                load.expanded << (i == 0);
                if (result.facts)
                    facts->push_back(std::move(*result.facts));
            });
        load.facts = std::move(facts);
    } catch (const std::exception& e) {
        load.ranks.clear();
        load.expanded.clear();
        load.error = QString::fromStdString(e.what());
    }
    return load;
}

}  // namespace

TimelinePage::TimelinePage(const QStringList& paths, SourcePanel* source_panel, QWidget* parent)
    : QWidget(parent),
      paths_(paths),
      cancel_(std::make_shared<std::atomic<bool>>(false)),
      state_(new TimelineViewState(this)),
      stack_(new QStackedWidget),
      status_(new QLabel(tr("Reading %1…").arg(paths.join(QStringLiteral(", "))))),
      find_(new QLineEdit),
      source_panel_(source_panel ? source_panel : new SourcePanel),
      own_source_panel_(source_panel == nullptr) {
    auto* tools = new QToolBar;
    tools->setToolButtonStyle(Qt::ToolButtonTextOnly);
    QAction* fit = tools->addAction(tr("Fit"), state_, &TimelineViewState::fit);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    fit->setToolTip(tr("Show the whole timeline (Ctrl+0)"));
    QAction* zoom_in = tools->addAction(tr("Zoom In"), this, [this] {
        state_->zoom(2.0, (state_->viewStart() + state_->viewEnd()) / 2);
    });
    zoom_in->setShortcut(QKeySequence::ZoomIn);
    QAction* zoom_out = tools->addAction(tr("Zoom Out"), this, [this] {
        state_->zoom(0.5, (state_->viewStart() + state_->viewEnd()) / 2);
    });
    zoom_out->setShortcut(QKeySequence::ZoomOut);
    QAction* peak = tools->addAction(tr("Peak"), this, &TimelinePage::showPeak);
    peak->setToolTip(tr("List the blocks alive at the memory peak"));
    filter_to_view_ = tools->addAction(tr("Filter to View"), this, &TimelinePage::filterToView);
    filter_to_view_->setToolTip(
        tr("Keep, in the run's tables, the operations whose forward "
           "calls are in view"));
    filter_to_view_->setVisible(false);  // until there is a run filter to narrow
    for (QAction* action : {fit, zoom_in, zoom_out, peak})
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addActions({fit, zoom_in, zoom_out});
    tools->addSeparator();
    find_->setObjectName(QStringLiteral("find"));  // Ctrl+F (the window's View › Find) comes here
    find_->setPlaceholderText(tr("Find operation (Ctrl+F, Enter for next)"));
    find_->setClearButtonEnabled(true);
    find_->setMaximumWidth(320);
    tools->addWidget(find_);
    connect(find_, &QLineEdit::returnPressed, this, &TimelinePage::findNext);
    tools->setEnabled(false);

    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stack_->addWidget(new QWidget);
    layout_ = new QVBoxLayout(this);
    layout_->addWidget(tools);
    layout_->addWidget(status_);
    layout_->addWidget(stack_, 1);

    connect(&watcher_, &QFutureWatcher<TimelineRanksLoad>::finished, this, [this, tools] {
        const TimelineRanksLoad load = watcher_.result();
        display(load);
        tools->setEnabled(loaded_ && !state_->ranks().isEmpty());
        if (paths_.size() >= 2)
            emit ranksRead(load.facts, load.error);
    });
    // The worker gets copies only: the page may close before it ends (it then cancels).
    const QStringList files = paths_;
    const std::shared_ptr<std::atomic<bool>> cancel = cancel_;
    watcher_.setFuture(
        QtConcurrent::run([files, cancel] { return loadRanks(files, cancel.get()); }));
}

TimelinePage::~TimelinePage() {
    cancel_->store(true);
    watcher_.waitForFinished();  // a cancelled load stops within 65536 rows
    for (QFutureWatcher<ExpandedRank>* expanding : std::as_const(expanding_))
        expanding->waitForFinished();
}

void TimelinePage::toggleRank(int rank) {
    if (rank < 0 || rank >= state_->ranks().size() || expanding_.contains(rank))
        return;
    const TimelineData& shown = *state_->ranks()[rank];
    if (state_->isExpanded(rank)) {
        state_->setRank(rank, outlineOf(shown), false);
        return;
    }
    auto* watcher = new QFutureWatcher<ExpandedRank>(this);
    expanding_.insert(rank, watcher);
    timeline_->setReading(rank, true);
    const QString file = QFileInfo(QString::fromStdString(shown.path)).fileName();
    connect(watcher, &QFutureWatcher<ExpandedRank>::finished, this, [this, rank, watcher, file] {
        const ExpandedRank read = watcher->result();
        expanding_.remove(rank);
        watcher->deleteLater();
        timeline_->setReading(rank, false);
        if (read.data)
            state_->setRank(rank, read.data, true);
        else
            status_->setText(tr("Cannot read the calls of %1: %2").arg(file, read.error));
    });
    const std::string path = shown.path;
    const std::shared_ptr<std::atomic<bool>> cancel = cancel_;
    watcher->setFuture(QtConcurrent::run([path, cancel] {
        try {
            return ExpandedRank{
                std::make_shared<const TimelineData>(loadTimelineData(path, cancel.get())), {}};
        } catch (const std::exception& e) {
            return ExpandedRank{nullptr, QString::fromStdString(e.what())};
        }
    }));
}

void TimelinePage::display(const TimelineRanksLoad& load) {
    loaded_ = true;
    if (!load.error.isEmpty()) {
        status_->setText(tr("Cannot read the timeline: %1").arg(load.error));
        emit loadFinished(load.error);
        return;
    }
    state_->setRanks(load.ranks, load.expanded);
    timeline_ = new TimelineWidget(state_);
    connect(timeline_, &TimelineWidget::rankToggled, this, &TimelinePage::toggleRank);
    connect(state_, &TimelineViewState::ranksChanged, this, [this] {
        found_text_.clear();  // Find searches the ranks shown: again, at the next Enter
        found_.clear();
    });
    memory_ = new MemoryCurveWidget(state_);
    live_blocks_ = new LiveBlocksView(state_);
    scroll_ = new QScrollArea;
    scroll_->setWidget(timeline_);
    scroll_->setWidgetResizable(true);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(live_blocks_);
    if (own_source_panel_) {
        bottom->addWidget(source_panel_);
        // Our own timeline alone: frames relative to the folder it is in (or the one chosen).
        const QString chosen = AppSettings::projectRootFor(paths_.first());
        source_panel_->setProjectRoot(chosen.isEmpty() ? QFileInfo(paths_.first()).absolutePath()
                                                       : chosen);
        const int answer = AppSettings::sourceFoldersAnswer(paths_.first());
        source_panel_->setLibrariesAllowed(answer == 1);
        connect(source_panel_, &SourcePanel::sourceFoldersAnswered, this, [this](bool allowed) {
            for (const QString& path : paths_)
                AppSettings::setSourceFoldersAnswer(path, allowed);
            source_panel_->setLibrariesAllowed(allowed);
            source_panel_->askAboutSourceFolders({});
        });
        bool absolute = false;
        for (const auto& rank : load.ranks)
            for (const auto& chain : rank->callchains)
                for (const TimelineFrame& frame : chain)
                    absolute |= QDir::isAbsolutePath(QString::fromStdString(frame.file_path));
        if (absolute && answer < 0)
            source_panel_->askAboutSourceFolders(
                tr("This timeline names its source files by absolute paths of the machine "
                   "that recorded it. Show those files where they exist on this machine?"));
    }
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(scroll_);
    splitter->addWidget(memory_);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 2);
    content_ = splitter;
    stack_->addWidget(splitter);
    stack_->setCurrentWidget(splitter);

    connect(state_, &TimelineViewState::selectionChanged, this, [this] {
        const RankedSpan call = state_->selection();
        showCall(call);
        if (!following_ && call.valid() && call.rank == 0) {
            const int64_t ordinal = forwardCallOrdinal(*state_->ranks().front(), call.span);
            if (ordinal >= 0)
                emit operationSelected(ordinal + 1);
        }
    });
    connect(live_blocks_, &LiveBlocksView::callChosen, this, [this](const RankedSpan& call) {
        if (call.valid()) {
            state_->select(call);
            state_->reveal(call);
        }
    });
    QStringList names;
    for (const QString& path : paths_)
        names << QFileInfo(path).fileName();
    QString status = tr("%1. Wheel: zoom · drag: pan · Shift+drag: zoom to a range · click: "
                        "select · click the memory curve: blocks alive then")
                         .arg(names.join(QStringLiteral(", ")));
    // An imported snapshot without times: its axis is the events' order, not time.
    if (std::any_of(load.ranks.begin(), load.ranks.end(),
                    [](const auto& rank) { return rank->untimed; }))
        status = tr("No times in the file: its events are placed 1 µs apart in their order. %1")
                     .arg(status);
    status_->setText(status);
    if (pending_entry_ > 0)
        selectTimedOperation(pending_entry_);
    emit loadFinished({});
}

void TimelinePage::selectTimedOperation(qint64 entry_id) {
    if (!loaded_ || state_->ranks().isEmpty()) {
        pending_entry_ = entry_id;
        return;
    }
    const SpanRef call = topLevelForwardCall(*state_->ranks().front(), entry_id - 1);
    if (call.valid()) {
        following_ = true;
        state_->select({0, call});
        following_ = false;
        state_->reveal({0, call});
    }
}

void TimelinePage::followRunFilter(RunFilter* filter) {
    run_filter_ = filter;
    filter_to_view_->setVisible(true);
    layout_->insertWidget(1, new RunFilterBar(filter));
    auto follow = [this] { state_->setNameFilter(run_filter_->current().name); };
    follow();
    connect(filter, &RunFilter::changed, this, follow);
}

void TimelinePage::filterToView() {
    if (!run_filter_ || state_->ranks().isEmpty())
        return;
    const TimelineData& data = *state_->ranks().front();
    const int64_t offset = data.alignment_ns();
    const auto [first, last] =
        forwardCallsIn(data, state_->viewStart() + offset, state_->viewEnd() + offset);
    if (first < 0) {
        status_->setText(tr("No forward call of an operation is in view: nothing to filter to."));
        return;
    }
    run_filter_->filterToEntries(
        {first + 1, last + 1},
        tr("in view in the timeline: %1 to %2")
            .arg(formatDuration(state_->viewStart()), formatDuration(state_->viewEnd())));
}

void TimelinePage::showSelectedCall() {
    if (state_->selection().valid())
        showCall(state_->selection());
    else
        source_panel_->clear();
}

void TimelinePage::showPeak() {
    if (const auto peak = state_->peakMoment())
        state_->setMoment(*peak);
}

void TimelinePage::findNext() {
    const QString text = find_->text().trimmed();
    if (text.isEmpty() || state_->ranks().isEmpty())
        return;
    if (text != found_text_) {
        found_text_ = text;
        found_.clear();
        found_index_ = -1;
        for (int rank = 0; rank < state_->ranks().size(); ++rank)
            for (const SpanRef ref : findSpans(*state_->ranks()[rank], text.toStdString()))
                found_.push_back({rank, ref});
        std::stable_sort(
            found_.begin(), found_.end(), [this](const RankedSpan& a, const RankedSpan& b) {
                return state_->toAligned(a.rank, state_->ranks()[a.rank]->span(a.span).start_ns) <
                       state_->toAligned(b.rank, state_->ranks()[b.rank]->span(b.span).start_ns);
            });
    }
    if (found_.isEmpty()) {
        int collapsed = 0;
        for (int rank = 0; rank < state_->ranks().size(); ++rank)
            collapsed += !state_->isExpanded(rank);
        status_->setText(collapsed == 0
                             ? tr("No operation matches “%1”.").arg(text)
                             : tr("No operation of the ranks shown matches “%1” (%n collapsed "
                                  "rank(s) not searched: click a rank's title to show its calls).",
                                  nullptr, collapsed)
                                   .arg(text));
        return;
    }
    found_index_ = (found_index_ + 1) % int(found_.size());
    state_->select(found_[found_index_]);
    state_->reveal(found_[found_index_]);
    status_->setText(tr("“%1”: %2 of %3").arg(text).arg(found_index_ + 1).arg(found_.size()));
}

// The call chain of a call; a backward node has none of its own and shows its forward call's.
void TimelinePage::showCall(const RankedSpan& call) {
    // The browser's source panel shows what its visible tab chose: a selection made from the
    // Time table is shown there already.
    if (!call.valid() || (!own_source_panel_ && !isVisible()))
        return;
    const TimelineData& data = *state_->ranks()[call.rank];
    int32_t chain = data.span(call.span).callchain;
    for (const RankedSpan& partner : state_->partners()) {
        if (chain >= 0)
            break;
        chain = data.span(partner.span).callchain;
    }
    QVector<FrameRow> frames;
    int chosen = -1;
    if (chain >= 0) {
        for (const TimelineFrame& frame : data.callchains[size_t(chain)])
            frames << frameRowOf(frame);
        chosen = usersFrame(data.callchains[size_t(chain)]);
    }
    source_panel_->showFrames(frames, {}, chosen);
    if (scroll_ && timeline_) {
        const QPoint at = timeline_->pointOf(call);
        if (!at.isNull())
            scroll_->ensureVisible(0, at.y(), 0, 60);  // below the ruler and step band
    }
}

}  // namespace trainscope::ui
