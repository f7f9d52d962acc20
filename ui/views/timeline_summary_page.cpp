// SPDX-License-Identifier: Apache-2.0
#include "views/timeline_summary_page.h"

#include <QLocale>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "reading/sql_table_model.h"
#include "trainscope/import_notes.h"
#include "views/layout.h"

namespace trainscope::ui {
namespace {

QString milliseconds(int64_t ns) {
    return QObject::tr("%1 ms").arg(QLocale().toString(double(ns) / 1e6, 'f', 3));
}

// A span of the file's times: milliseconds, or, in a file without times (an imported
// snapshot's, its events 1 µs apart in order), the events it spans.
QString span(int64_t ns, bool untimed) {
    if (!untimed)
        return milliseconds(ns);
    const qint64 events = ns / kUntimedEventNs;
    return events == 1 ? QObject::tr("1 event")
                       : QObject::tr("%1 events").arg(QLocale().toString(events));
}

QString exactBytes(int64_t bytes) {
    return QObject::tr("%1 (%2 bytes)").arg(formatBytes(bytes), QLocale().toString(qint64(bytes)));
}

void addRow(QTableWidget* table, const QStringList& cells) {
    const int row = table->rowCount();
    table->insertRow(row);
    for (int column = 0; column < cells.size(); ++column)
        table->setItem(row, column, new QTableWidgetItem(cells[column]));
}

// A name from the file within a sentence: a line's worth at most (a file may hold any text).
QString inSentence(const std::string& name) {
    constexpr int kLongest = 60;
    const QString text = QString::fromStdString(name);
    return text.size() <= kLongest ? text : text.left(kLongest - 1) + QChar(0x2026);
}

// A kind of framework call (ENUM_API_TYPE's name) and how many, as a user reads it: "op 124"
// said nothing.
QString callsOfType(const std::string& type, int64_t count) {
    const QString n = QLocale().toString(qint64(count));
    if (type == "op")
        return QObject::tr("operations: %1").arg(n);
    if (type == "hccl")
        return QObject::tr("collectives: %1").arg(n);
    if (type == "queue")
        return QObject::tr("task queue calls: %1").arg(n);
    if (type == "trace")
        return QObject::tr("Python trace calls: %1").arg(n);
    if (type == "mstx")
        return QObject::tr("mstx marks: %1").arg(n);
    return QObject::tr("%1 calls: %2").arg(inSentence(type), n);
}

// A MEMORY_RECORD component as a user reads it: torch_npu's abbreviations spelled out.
QString componentName(const std::string& component) {
    if (component == "PTA")
        return QObject::tr("PyTorch's allocator (PTA)");
    if (component == "GE")
        return QObject::tr("the graph engine (GE)");
    if (component == "PTA+GE")
        return QObject::tr("PyTorch's allocator and the graph engine (PTA+GE)");
    if (component == "WORKSPACE")
        return QObject::tr("the workspace");
    return inSentence(component);
}

// The summary in words: what a user looks at first.
QString totalsText(const ReportFileSummary& s) {
    QStringList lines;
    if (s.untimed)
        lines << QObject::tr(
            "The file holds no times: its events are placed in their order, so "
            "the spans below count events.");
    const auto milliseconds = [&s](int64_t ns) { return span(ns, s.untimed); };
    const StepsDigest steps = digestSteps(s.steps);
    for (const TimelineStep& step : steps.listed) {
        const QString duration = milliseconds(stepDuration(step));
        lines << (step.memory_step
                      ? QObject::tr("Memory step %1: %2, with the memory meter (the run time "
                                    "report's iterations are timed without it)")
                            .arg(step.id)
                            .arg(duration)
                      : QObject::tr("Step %1: %2").arg(step.id).arg(duration));
    }
    if (steps.others > 0)
        lines << QObject::tr("… and %1 more steps; all %2: shortest %3, median %4, longest %5")
                     .arg(QLocale().toString(qint64(steps.others)))
                     .arg(QLocale().toString(qint64(s.steps.size())))
                     .arg(milliseconds(steps.shortest_ns), milliseconds(steps.median_ns),
                          milliseconds(steps.longest_ns));
    if (s.api_calls > 0) {
        QStringList types;
        for (const NamedCount& type : s.calls_by_type)
            types << callsOfType(type.name, type.count);
        const QString spanning = milliseconds(s.last_ns - s.first_ns);
        const QString kinds = types.join(QStringLiteral(", "));
        lines << (s.threads == 1
                      ? QObject::tr("Framework calls: %1 on one thread, spanning %2 (%3)")
                            .arg(QLocale().toString(qint64(s.api_calls)))
                            .arg(spanning, kinds)
                      : QObject::tr("Framework calls: %1 on %2 threads, spanning %3 (%4)")
                            .arg(QLocale().toString(qint64(s.api_calls)))
                            .arg(QLocale().toString(qint64(s.threads)))
                            .arg(spanning, kinds));
    }
    for (const ComponentPeak& m : s.memory) {
        lines << QObject::tr("Memory of %1: peak allocated %2, peak reserved %3")
                     .arg(componentName(m.component), exactBytes(m.peak_allocated),
                          m.reservedRecorded() ? exactBytes(m.peak_reserved)
                                               : QObject::tr("not recorded"));
    }
    if (s.blocks > 0)
        lines << QObject::tr("Blocks: %1, of which %2 never freed in the recording")
                     .arg(QLocale().toString(qint64(s.blocks)))
                     .arg(QLocale().toString(qint64(s.blocks_never_freed)));
    if (s.device_tasks > 0 || s.cann_calls > 0)
        lines << QObject::tr("Device: %1 tasks, %2 CANN calls")
                     .arg(QLocale().toString(qint64(s.device_tasks)),
                          QLocale().toString(qint64(s.cann_calls)));
    if (!s.schema_version.empty())
        lines << QObject::tr("Schema version %1").arg(QString::fromStdString(s.schema_version));
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

TimelineSummaryPage::TimelineSummaryPage(const QString& path, QWidget* parent)
    : QWidget(parent),
      path_(path),
      totals_(new QLabel(tr("Reading %1…").arg(path))),
      operations_(figuresTable({tr("Total"), tr("Calls"), tr("Operation")})),
      allocations_(figuresTable({tr("Size"), tr("Freed after"), tr("Operation")})) {
    totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    totals_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(totals_);
    layout->addWidget(
        new QLabel(tr("Operations by total time (nested calls count inside their "
                      "parents too)")));
    layout->addWidget(operations_, 1);
    layout->addWidget(new QLabel(tr("Largest allocations")));
    layout->addWidget(allocations_, 1);

    connect(&watcher_, &QFutureWatcher<TimelineLoad>::finished, this,
            [this] { display(watcher_.result()); });
    // The worker gets a copy of the path only: the page may close before it ends.
    const std::string file = path.toStdString();
    watcher_.setFuture(QtConcurrent::run([file] {
        TimelineLoad load;
        try {
            load.summary = std::make_shared<const ReportFileSummary>(summarizeReportFile(file, 50));
        } catch (const std::exception& e) {
            load.error = QString::fromStdString(e.what());
        }
        return load;
    }));
}

void TimelineSummaryPage::display(const TimelineLoad& load) {
    loaded_ = true;
    if (!load.summary) {
        totals_->setText(tr("Cannot read %1: %2").arg(path_, load.error));
        emit loadFinished(load.error);
        return;
    }
    const ReportFileSummary& s = *load.summary;
    totals_->setText(totalsText(s));
    if (s.blocks_by_category)  // a snapshot's blocks: named by category, not operation
        allocations_->setHorizontalHeaderLabels({tr("Size"), tr("Freed after"), tr("Category")});
    for (const OperationTotal& op : s.top_operations)
        addRow(operations_, {span(op.total_ns, s.untimed), QLocale().toString(qint64(op.calls)),
                             QString::fromStdString(op.name)});
    for (const LargeAllocation& a : s.largest_allocations)
        addRow(allocations_, {exactBytes(a.size_bytes),
                              a.released_ns ? span(*a.released_ns - a.allocated_ns, s.untimed)
                                            : tr("never freed"),
                              QString::fromStdString(a.operation)});
    operations_->resizeColumnsToContents();
    allocations_->resizeColumnsToContents();
    emit loadFinished({});
}

}  // namespace trainscope::ui
