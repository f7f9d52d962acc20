// SPDX-License-Identifier: Apache-2.0
#include "views/advice_page.h"

#include <QChartView>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLocale>
#include <QRegularExpression>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <algorithm>
#include <optional>

#include "reading/sql_table_model.h"
#include "reading/units.h"
#include "views/charts.h"
#include "views/layout.h"

namespace trainscope::ui {
namespace {

enum Column {
    WhatIfColumn,
    PeakPredicted,
    PeakMeasured,
    ActivationsPredicted,
    ActivationsMeasured,
    StepPredicted,
    StepMeasured,
    StepRatioColumn,
};

// (predicted - measured) / measured, for a measured cell's tooltip.
QString predictionError(double predicted, double measured) {
    if (predicted == measured)
        return AdvicePage::tr("the prediction was exact");
    if (measured == 0)
        return {};
    return AdvicePage::tr("the prediction was off by %1 %")
        .arg(QLocale().toString((predicted - measured) / measured * 100.0, 'f', 2));
}

// The report's words for a change and its target, in the interface's language where they are
// words ("checkpoint each block"), as they are where they are names ("GELU -> ReLU", a path).
QString shown(const std::string& text) {
    if (text == "checkpoint each block")
        return AdvicePage::tr("checkpoint each block");
    if (text == "bfloat16 autocast of the forward")
        return AdvicePage::tr("bfloat16 autocast of the forward");
    // Words followed by module paths: the words translated, the paths as they are.
    const std::string fewest = "checkpoint the fewest blocks that fit the budget: ";
    if (text.compare(0, fewest.size(), fewest) == 0)
        return AdvicePage::tr("checkpoint the fewest blocks that fit the budget: %1")
            .arg(QString::fromStdString(text.substr(fewest.size())));
    // "batch size 8 -> 107", with what it says of the budget.
    const std::string batch = "batch size ";
    if (text.compare(0, batch.size(), batch) == 0) {
        const QString change = QString::fromStdString(text.substr(batch.size()));
        const QString sizes = change.section(QLatin1Char(' '), 0, 2);  // "8 -> 107"
        const QString rest = change.section(QLatin1Char(' '), 3);
        if (rest.isEmpty())
            return AdvicePage::tr("batch size %1").arg(sizes);
        if (rest == QLatin1String("(the first above the budget)"))
            return AdvicePage::tr("batch size %1 (the first above the budget)").arg(sizes);
        if (rest == QLatin1String("(no batch fits the budget)"))
            return AdvicePage::tr("batch size %1 (no batch fits the budget)").arg(sizes);
    }
    // "the job over 4 ranks" at "rank 3"; "optimizer state sharded over 4 ranks (ZeRO-1)".
    const QString words = QString::fromStdString(text);
    static const QRegularExpression job(QStringLiteral("^the job over (\\d+) ranks$")),
        rank(QStringLiteral("^rank (\\d+)$")),
        zero(QStringLiteral("^optimizer state sharded over (\\d+) ranks \\(ZeRO-1\\)$"));
    if (const QRegularExpressionMatch m = job.match(words); m.hasMatch())
        return AdvicePage::tr("the job over %1 ranks").arg(m.captured(1));
    if (const QRegularExpressionMatch m = rank.match(words); m.hasMatch())
        return AdvicePage::tr("rank %1").arg(m.captured(1));
    if (const QRegularExpressionMatch m = zero.match(words); m.hasMatch())
        return AdvicePage::tr("optimizer state sharded over %1 ranks (ZeRO-1)").arg(m.captured(1));
    if (text == "the largest batch size within the budget")
        return AdvicePage::tr("the largest batch size within the budget");
    if (text == "every such module")
        return AdvicePage::tr("every such module");
    if (text == "the optimizer")
        return AdvicePage::tr("the optimizer");
    if (text == "the inputs")
        return AdvicePage::tr("the inputs");
    if (text == "the gradients")
        return AdvicePage::tr("the gradients");
    if (text == "the model")
        return AdvicePage::tr("the model");
    return QString::fromStdString(text);
}

// "+14.4 KiB", "−1.0 KiB", "0 B": a change of memory.
QString signedBytes(int64_t change) {
    if (change == 0)
        return formatBytes(0);
    return (change > 0 ? QStringLiteral("+") : QString(QChar(0x2212))) +
           formatBytes(change > 0 ? change : -change);
}

// The targets that name no one module: several, the optimizer, the inputs, the gradients, the
// model as a whole.
bool namesNoModule(const QString& target) {
    for (const char* words :
         {"every such module", "the optimizer", "the inputs", "the gradients", "the model"})
        if (target == QLatin1String(words))
            return true;
    return false;
}

}  // namespace

AdvicePage::AdvicePage(const QString& path, QWidget* parent)
    : QWidget(parent),
      path_(path),
      layout_(new QVBoxLayout(new QWidget)),
      heading_(new QLabel(tr("Reading %1…").arg(QFileInfo(path).fileName()))),
      table_(figuresTable({tr("What if"), tr("Peak\npredicted"), tr("Peak\nmeasured"),
                           tr("Activations\npredicted"), tr("Activations\nmeasured"),
                           tr("Step\npredicted"), tr("Step\nmeasured"),
                           tr("Step ratio\ntimed in turns")})) {
    heading_->setWordWrap(true);
    heading_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The page scrolls as one: the table with every what-if whole, then the chart with a band
    // tall enough for each one's name and bars (a dozen what-ifs do not fit a window's height).
    auto* scrolled = new QScrollArea;
    scrolled->setWidgetResizable(true);
    scrolled->setFrameShape(QFrame::NoFrame);
    scrolled->setWidget(layout_->parentWidget());
    auto* page = new QVBoxLayout(this);
    page->setContentsMargins(0, 0, 0, 0);
    page->addWidget(scrolled);
    layout_->addWidget(heading_);
    layout_->addWidget(table_);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    table_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) { choose(row); });
    connect(&watcher_, &QFutureWatcher<AdviceRead>::finished, this,
            [this] { show(watcher_.result()); });
    watcher_.setFuture(QtConcurrent::run([path = path.toStdString()] {
        AdviceRead result;
        try {
            result.report = std::make_shared<const AdviceReport>(readAdviceReport(path));
        } catch (const std::exception& e) {
            result.error = QString::fromStdString(e.what());
        }
        return result;
    }));
}

AdvicePage::~AdvicePage() {
    watcher_.waitForFinished();
}

namespace {

// "train.py:42": a line of the user's code (file, line), else none.
std::optional<std::pair<QString, int>> lineOf(const QString& target) {
    const qsizetype colon = target.lastIndexOf(QLatin1Char(':'));
    bool number = false;
    const int line = colon > 0 ? target.mid(colon + 1).toInt(&number) : 0;
    if (!number || line < 1 || !target.left(colon).endsWith(QLatin1String(".py")))
        return std::nullopt;
    return std::pair(target.left(colon), line);
}

}  // namespace

QString AdvicePage::moduleOf(int row) const {
    if (!report_ || row < 0 || row >= int(report_->what_ifs.size()))
        return {};
    const QString target = QString::fromStdString(report_->what_ifs[size_t(row)].target);
    return namesNoModule(target) || lineOf(target) ? QString() : target;
}

void AdvicePage::choose(int row) {
    if (!report_ || row < 0 || row >= int(report_->what_ifs.size()))
        return;
    const WhatIf& what_if = report_->what_ifs[size_t(row)];
    const QString target = QString::fromStdString(what_if.target);
    if (const auto line = lineOf(target)) {
        emit lineChosen(line->first, line->second);
        return;
    }
    if (const QString module = moduleOf(row); !module.isEmpty())
        emit moduleChosen(module);
    // The line to change (where the module or the optimizer is built, where the blocks are
    // called), after the module: the source panel shows it rather than the module's call.
    if (!what_if.source_file.empty() && what_if.source_line > 0)
        emit lineChosen(QString::fromStdString(what_if.source_file), what_if.source_line);
}

void AdvicePage::show(const AdviceRead& result) {
    read_ = true;
    if (!result.report) {
        error_ = result.error;
        heading_->setText(tr("Cannot read the what-ifs: %1").arg(result.error));
        emit read(false);
        return;
    }
    report_ = result.report;
    const AdviceReport& report = *report_;
    heading_->setText(
        tr("The step as it is: peak %1, activations %2, step %3. Each what-if below was "
           "predicted from what the step's forward saved for backward; a measured figure is the "
           "step run with the change, on a copy of the model. Click one to see its module.")
            .arg(formatBytes(report.baseline.peak_bytes),
                 formatBytes(report.baseline.activation_bytes),
                 tr("%1 ms").arg(QLocale().toString(report.baseline.step_ms, 'f', 1))));
    // One unit per column pair, chosen by the largest figure of the pair.
    double largest_peak = 0, largest_activations = 0, largest_step = 0;
    for (const WhatIf& w : report.what_ifs) {
        const StepFigures measured = w.measured.value_or(w.predicted);
        largest_peak =
            std::max({largest_peak, double(w.predicted.peak_bytes), double(measured.peak_bytes)});
        largest_activations = std::max({largest_activations, double(w.predicted.activation_bytes),
                                        double(measured.activation_bytes)});
        largest_step = std::max(
            {largest_step, w.step_predicted ? w.predicted.step_ms : 0.0, measured.step_ms});
    }
    const Unit peak = byteUnit(largest_peak), activations = byteUnit(largest_activations),
               step = timeUnit(largest_step);
    // Each header's first line names the figure, with its column's unit.
    const std::pair<Column, const Unit*> units[] = {{PeakPredicted, &peak},
                                                    {PeakMeasured, &peak},
                                                    {ActivationsPredicted, &activations},
                                                    {ActivationsMeasured, &activations},
                                                    {StepPredicted, &step},
                                                    {StepMeasured, &step}};
    for (const auto& [column, unit] : units) {
        QTableWidgetItem* header = table_->horizontalHeaderItem(column);
        QStringList lines = header->text().split(QLatin1Char('\n'));
        lines.first() = tr("%1 (%2)").arg(lines.first(), unit->name);
        header->setText(lines.join(QLatin1Char('\n')));
    }
    QStringList names;
    QVector<double> predicted_peaks;
    QVector<std::optional<double>> measured_peaks;
    for (const WhatIf& w : report.what_ifs) {
        const int row = table_->rowCount();
        table_->insertRow(row);
        const MemoryEffect effect = memoryEffect(w, report.baseline);
        QString name = tr("%1 at %2").arg(shown(w.change), shown(w.target));
        if (effect.worse)
            name = tr("%1 (worse)").arg(name);
        names << name;
        predicted_peaks << double(w.predicted.peak_bytes);
        measured_peaks << (w.measured ? std::optional<double>(double(w.measured->peak_bytes))
                                      : std::nullopt);
        auto* what_if = new QTableWidgetItem(name);
        if (effect.worse) {
            const QString peak_change = signedBytes(effect.peak_change),
                          activation_change = signedBytes(effect.activation_change);
            what_if->setToolTip(
                effect.measured
                    ? tr("Not advised: as measured, it makes the step worse than it is (peak %1, "
                         "activations %2).")
                          .arg(peak_change, activation_change)
                    : tr("Not advised: as predicted, it makes the step worse than it is (peak "
                         "%1, activations %2).")
                          .arg(peak_change, activation_change));
        }
        table_->setItem(row, WhatIfColumn, what_if);
        // Every cell but the what-if's is a figure or a word in its place: right-aligned.
        auto cell = [&](Column column, const QString& text, const QString& tooltip = {}) {
            auto* item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(tooltip);
            table_->setItem(row, column, item);
            return item;
        };
        auto figure = [&](Column column, double value, const Unit& unit) {
            return cell(column, inColumn(value, unit));
        };
        QTableWidgetItem* predicted_peak =
            figure(PeakPredicted, double(w.predicted.peak_bytes), peak);
        if (!w.not_predicted.empty()) {
            // What the prediction leaves out (a checkpoint's recomputation): marked where the
            // figure is, said in its tooltip.
            predicted_peak->setIcon(
                table_->style()->standardIcon(QStyle::SP_MessageBoxInformation));
            predicted_peak->setToolTip(
                tr("Not predicted: %1.").arg(QString::fromStdString(w.not_predicted)));
        }
        figure(ActivationsPredicted, double(w.predicted.activation_bytes), activations);
        if (w.step_predicted) {
            figure(StepPredicted, w.predicted.step_ms, step);
        } else {
            cell(StepPredicted, tr("not predicted"),
                 tr("The step time is not predicted for this change: it changes "
                    "the collectives between the ranks."));
        }
        if (w.measured) {
            figure(PeakMeasured, double(w.measured->peak_bytes), peak)
                ->setToolTip(predictionError(double(w.predicted.peak_bytes),
                                             double(w.measured->peak_bytes)));
            figure(ActivationsMeasured, double(w.measured->activation_bytes), activations)
                ->setToolTip(predictionError(double(w.predicted.activation_bytes),
                                             double(w.measured->activation_bytes)));
            QTableWidgetItem* measured_step = figure(StepMeasured, w.measured->step_ms, step);
            if (w.step_predicted) {
                measured_step->setToolTip(
                    predictionError(w.predicted.step_ms, w.measured->step_ms));
            }
        }
        if (w.step_ratio) {
            const StepRatio& ratio = *w.step_ratio;
            const QLocale locale;
            auto times = [&](double value) {
                return tr("%1×").arg(locale.toString(value, 'f', 2));
            };
            // TrainScope times at least seven pairs: no plural forms for one.
            cell(StepRatioColumn,
                 ratio.readable() ? times(ratio.median) : tr("%1 (noise)").arg(times(ratio.median)),
                 (ratio.readable()
                      ? tr("The step with this change took %1 the time of the step as it is, "
                           "timed in turns in the same process: from %2 to %3 over %4 pairs.")
                      : tr("No difference is readable: timed in turns with the step as it is, "
                           "the step with this change took from %2 to %3 its time over %4 "
                           "pairs (median %1)."))
                     .arg(times(ratio.median), times(ratio.low), times(ratio.high),
                          locale.toString(ratio.pairs)));
        } else if (w.measured) {
            cell(StepRatioColumn, tr("–"),
                 tr("Not timed in turns with the step as it is (a report written "
                    "before TrainScope did)."));
        }
        if (!w.measured) {
            for (const Column column :
                 {PeakMeasured, ActivationsMeasured, StepMeasured, StepRatioColumn}) {
                cell(column, tr("not run"), QString::fromStdString(w.why_not));
            }
        }
    }
    table_->resizeColumnsToContents();
    // A long what-if (the blocks it checkpoints) wraps rather than pushing the figures out of
    // the window.
    constexpr int kWhatIfWidth = 300;
    if (table_->columnWidth(WhatIfColumn) > kWhatIfWidth) {
        table_->setColumnWidth(WhatIfColumn, kWhatIfWidth);
        table_->resizeRowsToContents();
    }
    chart_ = whatIfPeakChart(names, predicted_peaks, measured_peaks,
                             [this](int i) { table_->selectRow(i); });
    // In lines of the chart's font, which is taller in Chinese: the value axis's labels and
    // title would be elided to "…" in a fixed height.
    const int line = QFontMetrics(chart_->chart()->font()).height();
    const int frame = std::max(130, 8 * line);  // title, legend, value axis and its title
    const int band = std::max(30, 2 * line);    // a what-if's name above its two bars
    chart_->setMinimumHeight(frame + band * int(names.size()));
    layout_->addWidget(chart_);
    layout_->addStretch(1);
    emit read(true);
}

}  // namespace trainscope::ui
