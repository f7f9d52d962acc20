// SPDX-License-Identifier: Apache-2.0
#include "sweep/batch_size_page.h"

#include <QChart>
#include <QChartView>
#include <QColor>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QPen>
#include <QPushButton>
#include <QScatterSeries>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>

#include "reading/units.h"
#include "run/profile_worker.h"
#include "trainscope/error.h"
#include "views/charts.h"

namespace trainscope::ui {

struct BatchSizePage::Result {
    std::unique_ptr<SweepReport> report;
    QString error;
};

// A batch size run again: the report with its verified point, as written to its file; or why
// not.
struct BatchSizePage::Verification {
    std::unique_ptr<SweepReport> report;
    QString error;
    bool cancelled = false;
};

struct BatchSizePage::LatestProgress {
    std::mutex mutex;
    std::optional<Progress> run;
};

namespace {

QString bytesText(double bytes) {
    const Unit unit = byteUnit(std::abs(bytes));
    return inUnit(bytes, unit) + QLatin1Char(' ') + unit.name;
}

QString number(double value, int decimals) {
    return QLocale().toString(value, 'f', decimals);
}

// The predicted throughput at `batch` in words, or why there is none.
QString throughputText(const SweepReport& r, int64_t batch) {
    const auto predicted = r.predictedThroughput(batch);
    return predicted ? QObject::tr("%1 samples/s").arg(number(*predicted, 1))
                     : QObject::tr(
                           "no throughput predicted (the measured iteration time did not "
                           "grow with the batch size)");
}

// The largest batch size the view offers: past the largest within the budget and past the
// measured sizes, so that both ends of the prediction can be explored; bounded for a slider.
int64_t slideLimit(const SweepReport& report) {
    int64_t measured = 1;
    for (const SweepPoint& point : report.points)
        measured = std::max(measured, point.batch_size);
    int64_t limit = 4 * measured;
    if (report.largest_batch)
        limit = std::max(limit, *report.largest_batch + *report.largest_batch / 4 + 1);
    return std::min<int64_t>(limit, 1 << 20);
}

}  // namespace

BatchSizePage::BatchSizePage(const QString& path, QWidget* parent)
    : QWidget(parent),
      path_(path),
      summary_(new QLabel(tr("Reading %1…").arg(QFileInfo(path).fileName()))),
      prediction_(new QLabel),
      slider_(new QSlider(Qt::Horizontal)),
      spin_(new QSpinBox),
      points_(new QTableWidget),
      verify_(new QPushButton(tr("Verify by Running"))),
      verify_clock_(new QTimer(this)) {
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    prediction_->setObjectName(QStringLiteral("prediction"));
    prediction_->setWordWrap(true);
    slider_->setObjectName(QStringLiteral("batchSlider"));
    spin_->setObjectName(QStringLiteral("batchSize"));
    slider_->setEnabled(false);
    spin_->setEnabled(false);
    points_->setColumnCount(6);
    points_->setHorizontalHeaderLabels({tr("Batch size"), tr("Outcome"), tr("Peak"),
                                        tr("Activations"), tr("Iteration"), tr("Samples/s")});
    points_->verticalHeader()->hide();
    points_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    points_->horizontalHeader()->setStretchLastSection(true);

    auto* choose_row = new QHBoxLayout;
    choose_row->addWidget(new QLabel(tr("Batch size:")));
    choose_row->addWidget(slider_, 1);
    choose_row->addWidget(spin_);
    choose_row->addWidget(verify_);
    verify_->setObjectName(QStringLiteral("verify"));
    verify_->setEnabled(false);
    connect(verify_, &QPushButton::clicked, this, &BatchSizePage::verifyChosen);
    // What runs, and for how long: a verification profiles the batch for seconds.
    verify_clock_->setInterval(1000);
    connect(verify_clock_, &QTimer::timeout, this, [this] { sayVerifying(); });
    // Each change of the run's stage or iteration is said as it comes, between the clock's
    // seconds (queued: it is signalled from the verification's thread). Until the verification's
    // end is handled (the clock stops there, after every progress queued before it), not only
    // while its thread runs: a quick run's last stages would go unsaid.
    connect(
        this, &BatchSizePage::verifyProgressed, this,
        [this] {
            if (verify_clock_->isActive())
                sayVerifying();
        },
        Qt::QueuedConnection);
    connect(&verifying_, &QFutureWatcher<std::shared_ptr<Verification>>::finished, this, [this] {
        verify_clock_->stop();
        const std::shared_ptr<Verification> result = verifying_.result();
        const bool ok = result->report != nullptr;
        if (ok) {
            report_ = std::move(result->report);
            summary_->setText(summaryText(*report_));
            showPoints(*report_);  // the verified batch in the charts and the table
            choose(spin_->value());
            prediction_->setText(predictionText(spin_->value()));
        } else if (result->cancelled) {
            prediction_->setText(tr("Verifying batch %1 was cancelled: the report is as it was.")
                                     .arg(verifying_batch_));
        } else {
            prediction_->setText(tr("Could not verify: %1").arg(result->error));
        }
        updateVerifyButton();
        emit verified(ok);
    });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addLayout(choose_row);
    layout->addWidget(prediction_);
    connect(slider_, &QSlider::valueChanged, this, [this](int value) { choose(value); });
    connect(spin_, &QSpinBox::valueChanged, this, [this](int value) { choose(value); });

    connect(&reading_, &QFutureWatcher<std::shared_ptr<Result>>::finished, this, [this] {
        const std::shared_ptr<Result> result = reading_.result();
        if (!result->report) {
            error_ = result->error;
            summary_->setText(tr("This sweep report cannot be read: %1").arg(error_));
            emit read(false);
            return;
        }
        report_ = std::move(result->report);
        show(*report_);
        emit read(true);
    });
    const std::string file = path.toStdString();
    reading_.setFuture(QtConcurrent::run([file] {
        auto result = std::make_shared<Result>();
        try {
            result->report = std::make_unique<SweepReport>(readSweepReport(file));
            if (result->report->points.empty() || result->report->peak.points < 2) {
                result->report.reset();
                result->error = QString::fromStdString(file + ": no fitted batch sizes");
            }
        } catch (const std::exception& e) {
            result->error = QString::fromStdString(e.what());
        }
        return result;
    }));
}

BatchSizePage::~BatchSizePage() {
    reading_.disconnect(this);  // the task holds its own copy of the path
    verifying_.disconnect(this);
    cancel_->store(true);  // a verification stops at its next operation
    verifying_.waitForFinished();
}

void BatchSizePage::verifyChosen() {
    if (verifying_.isRunning()) {  // the button cancels what runs
        cancel_->store(true);
        verify_->setEnabled(false);
        verify_->setText(tr("Cancelling…"));
        return;
    }
    if (!report_ || !cannot_verify_.isEmpty()) {
        return;
    }
    const int64_t batch = spin_->value();
    verifying_batch_ = batch;
    verify_->setText(tr("Cancel Verifying"));
    verify_started_.start();
    verify_clock_->start();
    verify_progress_ = std::make_shared<LatestProgress>();
    sayVerifying();
    // The worker gets copies: the page may close before it ends (it then cancels).
    auto report = std::make_shared<const SweepReport>(*report_);
    const std::string file = path_.toStdString();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    const std::shared_ptr<std::atomic<bool>> cancel = cancel_;
    const std::shared_ptr<LatestProgress> latest = verify_progress_;
    // The page waits for the worker before it goes (its destructor), so `this` outlives it.
    verifying_.setFuture(QtConcurrent::run([this, report, batch, file, cancel, latest] {
        auto result = std::make_shared<Verification>();
        try {
            auto updated = std::make_unique<SweepReport>(*report);
            updated->verified = verifyBatch(
                *report, batch,
                [this, latest](const SweepProgress& progress) {
                    {
                        const std::lock_guard<std::mutex> lock(latest->mutex);
                        latest->run = progress.run;
                    }
                    emit verifyProgressed();
                },
                cancel.get());
            writeSweepReport(*updated, file, Overwrite::Allow);  // staged: whole or not at all
            result->report = std::move(updated);
        } catch (const Cancelled&) {
            result->cancelled = true;
        } catch (const std::exception& e) {
            result->error = QString::fromStdString(e.what());
        }
        return result;
    }));
}

// What a verification is doing: the run's stage and iteration, and the seconds since it began.
QString BatchSizePage::verifyingText() const {
    std::optional<Progress> run;
    if (verify_progress_) {
        const std::lock_guard<std::mutex> lock(verify_progress_->mutex);
        run = verify_progress_->run;
    }
    const QString seconds = QLocale().toString(verify_started_.elapsed() / 1000);
    if (!run) {
        return tr("Verifying batch %1: starting the run… %2 s").arg(verifying_batch_).arg(seconds);
    }
    const RunProgress progress{RunProgress::stageText(*run), run->iteration, run->total, -1};
    return tr("Verifying batch %1: %2… %3 s").arg(verifying_batch_).arg(progress.text(), seconds);
}

void BatchSizePage::sayVerifying() {
    const QString text = verifyingText();
    prediction_->setText(text);
    emit verifyingSaid(text);
}

// Enabled for a batch predicted to fit the budget, with the report's configuration known and
// no verification running.
void BatchSizePage::updateVerifyButton() {
    if (verifying_.isRunning()) {
        return;  // it cancels until the verification ends
    }
    const int64_t batch = spin_->value();
    const bool fits = report_ && report_->predictedPeak(batch) <= double(report_->budget_bytes);
    if (!verifying_.isRunning())
        verify_->setText(tr("Verify Batch %1").arg(batch));
    verify_->setEnabled(report_ && cannot_verify_.isEmpty() && fits && !verifying_.isRunning());
    verify_->setToolTip(!cannot_verify_.isEmpty() ? cannot_verify_
                        : !fits ? tr("Batch %1 is predicted not to fit the budget").arg(batch)
                                : tr("Profile batch %1 as the sweep profiled its sizes, and "
                                     "compare the measurement with the prediction")
                                      .arg(batch));
}

QString BatchSizePage::predictionText(int64_t batch) const {
    if (!report_) {
        return {};
    }
    const SweepReport& r = *report_;
    const double peak = r.predictedPeak(batch);
    QString text = tr("Batch %1: predicted peak %2 (%3% of the %4 budget), %5")
                       .arg(batch)
                       .arg(bytesText(peak), number(100.0 * peak / double(r.budget_bytes), 1),
                            bytesText(double(r.budget_bytes)), throughputText(r, batch));
    if (peak > double(r.budget_bytes)) {
        text += tr(" — over the budget");
    }
    if (r.extrapolates(batch)) {
        text += QStringLiteral("\n") +
                tr("Extrapolated: outside the measured batch sizes the prediction assumes that "
                   "memory and time keep growing on the same line.");
    } else {
        text += QStringLiteral("\n") + tr("Within the measured batch sizes.");
    }
    return text;
}

void BatchSizePage::choose(int64_t batch) {
    if (!report_) {
        return;
    }
    {
        const QSignalBlocker a(slider_), b(spin_);
        slider_->setValue(static_cast<int>(batch));
        spin_->setValue(static_cast<int>(batch));
    }
    prediction_->setText(predictionText(batch));
    updateVerifyButton();
    const double x = static_cast<double>(batch);
    for (int chart = 0; chart < 2; ++chart) {
        if (!markers_[chart])
            continue;
        const QAbstractAxis* y = markers_[chart]->attachedAxes().value(1);
        double low = 0, high = 0;
        if (const auto* linear = qobject_cast<const QValueAxis*>(y)) {
            low = linear->min();
            high = linear->max();
        } else if (const auto* log = qobject_cast<const QLogValueAxis*>(y)) {
            low = log->min();
            high = log->max();
        } else {
            continue;
        }
        markers_[chart]->replace({QPointF(x, low), QPointF(x, high)});
    }
}

// Both charts run on a logarithmic batch axis (base 2), and memory on a logarithmic axis too:
// on linear axes that reach the budget, the measured sizes (1, 2, 4 against a prediction of
// 1,567) fell into one dot at the origin and the line looked flat. The fitted line is solid
// where it was measured and dashed where it extrapolates.
QChartView* BatchSizePage::chartOf(bool memory) {
    const SweepReport& r = *report_;
    const Unit unit =
        byteUnit(std::max<double>(double(r.budget_bytes) / 4, r.predictedPeak(largest_shown_)));
    auto* chart = new QChart;
    chart->setTitle(memory ? tr("Peak memory") : tr("Throughput"));
    auto* measured = new QScatterSeries;
    measured->setName(tr("Measured"));
    measured->setMarkerSize(9);
    auto* fitted = new QLineSeries;
    fitted->setName(tr("Predicted"));
    auto* extrapolated = new QLineSeries;
    extrapolated->setName(tr("Extrapolated"));
    double top = 0, bottom = std::numeric_limits<double>::infinity();
    double last = 0;  // the largest measured batch
    auto value = [&](double y) {
        top = std::max(top, y);
        if (y > 0)
            bottom = std::min(bottom, y);
        return y;
    };
    for (const SweepPoint& p : r.points) {
        if (p.out_of_memory)
            continue;
        const double b = double(p.batch_size);
        measured->append(b, value(memory ? unit.of(double(p.peak_bytes)) : p.samplesPerSecond()));
        last = std::max(last, b);
    }
    // The fitted line, log-spaced: peak memory is a line; throughput b / (a + s·b) a curve.
    const double end = std::max(double(largest_shown_), last);
    const int steps = 120;
    QVector<double> sizes{last};  // the line changes its style at the largest measured size
    for (int i = 0; i <= steps; ++i)
        sizes << std::pow(end, double(i) / steps);
    std::sort(sizes.begin(), sizes.end());
    for (const double b : sizes) {
        if (!memory && !r.throughputPredictable())
            break;  // no line: the measured points alone (the prediction says why)
        // Throughput as a smooth curve of b (predictedThroughput() takes whole batches).
        const double ms = r.iteration.at(b);
        const double y = value(memory ? unit.of(r.peak.at(b)) : ms > 0 ? 1000.0 * b / ms : 0.0);
        if (b <= last)
            fitted->append(b, y);
        if (b >= last && end > last)
            extrapolated->append(b, y);
    }
    QPen dashed = extrapolated->pen();
    dashed.setStyle(Qt::DashLine);
    dashed.setWidthF(2);
    extrapolated->setPen(dashed);
    chart->addSeries(fitted);
    chart->addSeries(extrapolated);
    chart->addSeries(measured);
    for (QLineSeries* line : {fitted, extrapolated})  // no line drawn: none named
        for (QLegendMarker* marker : chart->legend()->markers(line))
            marker->setVisible(line->count() > 0);
    if (const auto& v = r.verified; v && !v->out_of_memory) {  // --verify's measurement
        auto* verified = new QScatterSeries;
        verified->setName(tr("Verified"));
        verified->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        verified->setMarkerSize(10);
        verified->append(double(v->batch_size),
                         value(memory ? unit.of(double(v->peak_bytes)) : v->samplesPerSecond()));
        chart->addSeries(verified);
    }
    if (memory) {
        auto* budget = new QLineSeries;
        budget->setName(tr("Budget (%1)").arg(bytesText(double(r.budget_bytes))));
        QPen budget_pen = budget->pen();
        budget_pen.setStyle(Qt::DotLine);
        budget->setPen(budget_pen);
        const double y = value(unit.of(double(r.budget_bytes)));
        budget->append(1, y);
        budget->append(end, y);
        chart->addSeries(budget);
    }
    auto* marker = new QLineSeries;
    marker->setName(tr("Chosen batch"));
    // One colour on both charts (the theme's next one differed: the memory chart has more
    // series).
    QPen marker_pen(QColor(0xd3, 0x2f, 0x2f));
    marker_pen.setWidthF(2);
    marker->setPen(marker_pen);
    chart->addSeries(marker);
    markers_[memory ? 0 : 1] = marker;

    auto* x = new QLogValueAxis;
    x->setTitleText(tr("Batch size (logarithmic)"));
    x->setBase(2);
    x->setRange(1, std::max(2.0, end * 1.2));
    x->setLabelFormat(QStringLiteral("%.0f"));
    QAbstractAxis* y = nullptr;
    // A logarithmic peak axis where the peaks span two decades or more (its labelled ticks are
    // the powers of ten: within one or two decades it would have one or none); a linear one
    // otherwise.
    if (memory && std::isfinite(bottom) && top >= 100 * bottom) {
        auto* log = new QLogValueAxis;
        log->setBase(10);
        log->setRange(bottom / 1.5, std::max(top * 1.5, 1.0));
        log->setLabelFormat(QStringLiteral("%g"));
        log->setMinorTickCount(8);
        log->setTitleText(tr("Peak (%1, logarithmic)").arg(unit.name));
        y = log;
    } else if (memory) {
        auto* linear = new QValueAxis;
        linear->setTitleText(tr("Peak (%1)").arg(unit.name));
        linear->setRange(0, std::max(top * 1.08, 1.0));
        linear->applyNiceNumbers();
        y = linear;
    } else {
        auto* linear = new QValueAxis;
        linear->setTitleText(tr("Samples/s"));
        linear->setRange(0, top * 1.08);
        linear->applyNiceNumbers();
        y = linear;
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* series : chart->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    QChartView* view = chartView(chart);
    // Six names do not fit under a chart of half the window in German ("Vorherge…"): they are
    // listed beside it, each whole.
    chart->legend()->setAlignment(Qt::AlignRight);
    return view;
}

QString BatchSizePage::summaryText(const SweepReport& r) const {
    QStringList sizes;
    for (const SweepPoint& p : r.points)
        sizes << QString::number(p.batch_size) + (p.out_of_memory ? tr(" (out of memory)") : "");
    const auto model = r.metadata.find("model");
    const QString name = model == r.metadata.end() ? QFileInfo(path_).fileName()
                                                   : QString::fromStdString(model->second);
    QString text = tr("<b>%1</b>: measured at batch sizes %2. Memory budget %3 (%4).")
                       .arg(name.toHtmlEscaped(), sizes.join(QStringLiteral(", ")),
                            bytesText(double(r.budget_bytes)),
                            QString::fromStdString(r.budget_source).toHtmlEscaped());
    text += QStringLiteral("<br>");
    if (r.largest_batch) {
        text += tr("Largest batch within it: <b>%1</b> (predicted peak %2, %3)%4.")
                    .arg(*r.largest_batch)
                    .arg(bytesText(r.predictedPeak(*r.largest_batch)),
                         throughputText(r, *r.largest_batch),
                         r.extrapolates(*r.largest_batch) ? tr(", extrapolated") : QString());
    } else {
        text += tr("Not even a batch of 1 is predicted to fit the budget.");
    }
    text += QStringLiteral("<br>") +
            tr("Fit: peak R² %1 (largest residual %2); iteration time R² %3 (largest residual "
               "%4 ms).")
                .arg(number(r.peak.r_squared, 6), bytesText(r.peak.max_residual),
                     number(r.iteration.r_squared, 4), number(r.iteration.max_residual, 2));
    if (const auto& v = r.verified) {
        text += QStringLiteral("<br>");
        if (v->out_of_memory) {
            text += tr("Verified: batch %1 ran out of memory.").arg(v->batch_size);
        } else {
            const double measured = v->samplesPerSecond();
            const auto predicted = r.predictedThroughput(v->batch_size);
            text +=
                tr("Verified at batch %1: peak %2 (prediction off by %3%), %4 samples/s%5.")
                    .arg(v->batch_size)
                    .arg(bytesText(double(v->peak_bytes)),
                         number(100.0 * (r.predictedPeak(v->batch_size) - double(v->peak_bytes)) /
                                    double(v->peak_bytes),
                                1),
                         number(measured, 1),
                         predicted && measured > 0
                             ? tr(" (off by %1%)")
                                   .arg(number(100.0 * (*predicted - measured) / measured, 1))
                             : QString());
        }
    }
    return text;
}

void BatchSizePage::showPoints(const SweepReport& r) {
    // The sweep's points, then the batch verified (measured or out of memory), if any.
    std::vector<std::pair<SweepPoint, bool>> rows;
    for (const SweepPoint& p : r.points)
        rows.emplace_back(p, false);
    if (r.verified) {
        rows.emplace_back(*r.verified, true);
    }
    points_->setRowCount(static_cast<int>(rows.size()));
    for (int row = 0; row < static_cast<int>(rows.size()); ++row) {
        const auto& [p, verified] = rows[size_t(row)];
        const QString outcome =
            p.out_of_memory ? (verified ? tr("verified: out of memory") : tr("out of memory"))
                            : (verified ? tr("verified") : tr("measured"));
        const QStringList cells =
            p.out_of_memory
                ? QStringList{QString::number(p.batch_size), outcome, {}, {}, {}, {}}
                : QStringList{
                      QString::number(p.batch_size),         outcome,
                      bytesText(double(p.peak_bytes)),       bytesText(double(p.activation_bytes)),
                      number(p.iteration_ms, 2) + tr(" ms"), number(p.samplesPerSecond(), 1)};
        for (int column = 0; column < cells.size(); ++column)
            points_->setItem(row, column, new QTableWidgetItem(cells[column]));
    }
    // The charts made anew: the old ones (and their markers) go with their views.
    delete memory_chart_;
    delete throughput_chart_;
    memory_chart_ = chartOf(true);
    throughput_chart_ = chartOf(false);
    memory_chart_->setObjectName(QStringLiteral("memoryChart"));
    throughput_chart_->setObjectName(QStringLiteral("throughputChart"));
    charts_->addWidget(memory_chart_);
    charts_->addWidget(throughput_chart_);
}

void BatchSizePage::show(const SweepReport& r) {
    int64_t measured_max = 1;
    for (const SweepPoint& p : r.points)
        if (!p.out_of_memory)
            measured_max = std::max(measured_max, p.batch_size);
    summary_->setText(summaryText(r));
    try {
        sweepConfig(r);  // the metadata alone: no file is read
    } catch (const std::exception& e) {
        cannot_verify_ = QString::fromStdString(e.what());
    }

    largest_shown_ = slideLimit(r);
    charts_ = new QSplitter(Qt::Horizontal);
    showPoints(r);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(charts_);
    split->addWidget(points_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout()->addWidget(split);

    slider_->setRange(1, static_cast<int>(largest_shown_));
    spin_->setRange(1, static_cast<int>(largest_shown_));
    slider_->setEnabled(true);
    spin_->setEnabled(true);
    choose(r.largest_batch ? std::min(*r.largest_batch, largest_shown_) : measured_max);
}

}  // namespace trainscope::ui
