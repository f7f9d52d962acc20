// SPDX-License-Identifier: Apache-2.0
// The Batch Size window on a real sweep of the built-in MLP: the measured points and the fitted
// lines are drawn, and moving the slider reads out the prediction at the chosen batch size.
#include <gtest/gtest.h>

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include "main_window.h"
#include "sweep/batch_size_page.h"
#include "trainscope/sweep.h"

namespace trainscope::test {
namespace {

class BatchSizeViewTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new QTemporaryDir;
        SweepPlan plan;
        plan.config.model = "builtin:mlp";
        plan.config.params = {{"d_model", "64"}};
        plan.config.inputs = {parseInputSpec("2x64x64")};
        plan.config.warmup = 1;
        plan.config.iterations = 3;
        plan.batch_sizes = {1, 2, 4};
        plan.memory_budget = int64_t{16} << 20;
        plan.output = (dir_->path() + QStringLiteral("/mlp")).toStdString();
        report_ = new SweepReport(runSweep(plan));
    }
    static void TearDownTestSuite() {
        delete report_;
        delete dir_;
    }

    void SetUp() override {
        window_.show();
        window_.openReports({dir_->path() + QStringLiteral("/mlp.sweep.sqlite")});
        page_ = window_.sweepPage();
        ASSERT_NE(page_, nullptr);
        ASSERT_TRUE(QTest::qWaitFor([this] { return page_->isRead(); }, 10000))
            << page_->errorText().toStdString();
    }

    static inline QTemporaryDir* dir_ = nullptr;
    static inline SweepReport* report_ = nullptr;
    ui::MainWindow window_;
    ui::BatchSizePage* page_ = nullptr;
};

TEST_F(BatchSizeViewTest, MovingTheSliderReadsOutThePredictionAtThatBatch) {
    ASSERT_TRUE(report_->largest_batch);
    QSlider* slider = page_->slider();
    // It starts at the largest batch within the budget.
    EXPECT_EQ(slider->value(), *report_->largest_batch);
    EXPECT_EQ(page_->batchSize()->value(), *report_->largest_batch);
    // A measured size: within the measured range, the prediction as the report's line gives it.
    slider->setFocus();
    while (slider->value() > 2)
        QTest::keyClick(slider, Qt::Key_Left);  // as a user moves it, one step at a time
    EXPECT_EQ(page_->batchSize()->value(), 2);
    EXPECT_EQ(page_->prediction()->text(), page_->predictionText(2));
    EXPECT_TRUE(page_->prediction()->text().contains(QStringLiteral("Within the measured")));
    const QString peak2 = page_->prediction()->text();
    // Past the measured sizes the read-out says that it extrapolates.
    page_->batchSize()->setValue(static_cast<int>(*report_->largest_batch));
    EXPECT_EQ(slider->value(), *report_->largest_batch);
    EXPECT_TRUE(page_->prediction()->text().contains(QStringLiteral("Extrapolated")));
    EXPECT_NE(page_->prediction()->text(), peak2);
    // One past the largest batch is over the budget.
    QTest::keyClick(slider, Qt::Key_Right);
    EXPECT_TRUE(page_->prediction()->text().contains(QStringLiteral("over the budget")))
        << page_->prediction()->text().toStdString();
    // The read-out's figures are the fitted line's.
    const int64_t batch = slider->value();
    const double peak = report_->predictedPeak(batch);
    EXPECT_GT(peak, double(report_->budget_bytes));
}

TEST_F(BatchSizeViewTest, TheChartsShowTheMeasuredPointsTheLinesAndTheBudget) {
    const QList<QAbstractSeries*> memory = page_->memoryChart()->chart()->series();
    int measured = 0, lines = 0;
    bool budget = false;
    for (QAbstractSeries* series : memory) {
        if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
            measured += scatter->count();
            // Each measured point in the report's unit (MiB here): the report's peaks.
            for (int i = 0; i < scatter->count(); ++i) {
                const QPointF p = scatter->at(i);
                const SweepPoint& point = report_->points[i];
                EXPECT_EQ(p.x(), double(point.batch_size));
                EXPECT_NEAR(p.y() * (1 << 20), double(point.peak_bytes), 1.0);
            }
        } else if (series->name().startsWith(QStringLiteral("Budget"))) {
            budget = true;
        } else {
            ++lines;
        }
    }
    EXPECT_EQ(measured, 3);
    EXPECT_TRUE(budget);
    EXPECT_GE(lines, 2);  // the fitted line and the chosen batch's marker
    // The chosen batch is one colour on both charts.
    const auto chosen = [](QChartView* view) {
        for (QAbstractSeries* series : view->chart()->series())
            if (series->name() == QStringLiteral("Chosen batch"))
                return qobject_cast<QLineSeries*>(series)->pen().color();
        return QColor();
    };
    EXPECT_TRUE(chosen(page_->memoryChart()).isValid());
    EXPECT_EQ(chosen(page_->memoryChart()), chosen(page_->throughputChart()));
    EXPECT_EQ(page_->pointsTable()->rowCount(), 3);
    // The peak axis has ticks to read a peak by: a linear axis where the peaks lie within a
    // decade (a logarithmic one there had a single tick, "100.00").
    const QList<QAbstractAxis*> vertical = page_->memoryChart()->chart()->axes(Qt::Vertical);
    ASSERT_EQ(vertical.size(), 1);
    if (auto* log = qobject_cast<QLogValueAxis*>(vertical.first())) {
        EXPECT_GE(log->max() / log->min(), 10.0);
    } else {
        auto* linear = qobject_cast<QValueAxis*>(vertical.first());
        ASSERT_NE(linear, nullptr);
        EXPECT_GE(linear->tickCount(), 3);
        EXPECT_EQ(linear->min(), 0.0);
    }
    EXPECT_TRUE(page_->summary()->text().contains(
        QStringLiteral("Largest batch within it: <b>%1</b>").arg(*report_->largest_batch)));
}

// The measured sizes are seen apart however far the prediction reaches (a logarithmic batch
// axis: on a linear one that ran to the prediction they fell into one dot at the origin), and
// the line is dashed where it extrapolates.
TEST_F(BatchSizeViewTest, TheMeasuredPointsAreSeenApartAndTheExtrapolationIsMarked) {
    window_.resize(1100, 760);
    QTest::qWait(50);
    for (QChartView* view : {page_->memoryChart(), page_->throughputChart()}) {
        QChart* chart = view->chart();
        QScatterSeries* measured = nullptr;
        QLineSeries* extrapolated = nullptr;
        for (QAbstractSeries* series : chart->series()) {
            if (series->name() == QLatin1String("Measured"))
                measured = qobject_cast<QScatterSeries*>(series);
            if (series->name() == QLatin1String("Extrapolated"))
                extrapolated = qobject_cast<QLineSeries*>(series);
        }
        ASSERT_NE(measured, nullptr);
        ASSERT_EQ(measured->count(), 3);
        // Adjacent sizes (1, 2, 4) a tenth of the plot's width apart or more.
        const double width = chart->plotArea().width();
        for (int i = 1; i < measured->count(); ++i) {
            const double apart = chart->mapToPosition(measured->at(i), measured).x() -
                                 chart->mapToPosition(measured->at(i - 1), measured).x();
            EXPECT_GE(apart, width / 10)
                << chart->title().toStdString() << ": " << apart << " of " << width << " px";
        }
        ASSERT_NE(extrapolated, nullptr);
        // The tiny MLP's iteration time is mostly the machine's noise: its fitted line may
        // fall, and then no throughput is predicted (no line; the read-out says why).
        if (view == page_->throughputChart() && !report_->throughputPredictable()) {
            EXPECT_EQ(extrapolated->count(), 0);
            EXPECT_TRUE(page_->prediction()->text().contains(QStringLiteral("no throughput")))
                << page_->prediction()->text().toStdString();
            continue;
        }
        ASSERT_GT(extrapolated->count(), 0) << "the prediction reaches past batch 4";
        EXPECT_EQ(extrapolated->pen().style(), Qt::DashLine);
        EXPECT_GE(extrapolated->at(0).x(), 4.0);  // it starts where the measurements end
    }
}

// A prediction checked by running it: the chosen batch is profiled as the sweep profiled its
// sizes, and the measurement joins the report and its file (a copy here: the other tests read
// the original).
TEST_F(BatchSizeViewTest, APredictionIsVerifiedByRunningThatBatchSize) {
    const QString copy = dir_->path() + QStringLiteral("/verify.sweep.sqlite");
    QFile::remove(copy);
    ASSERT_TRUE(QFile::copy(dir_->path() + QStringLiteral("/mlp.sweep.sqlite"), copy));
    window_.openReports({copy});
    ui::BatchSizePage* page = window_.sweepPage();
    ASSERT_NE(page, nullptr);
    ASSERT_TRUE(QTest::qWaitFor([page] { return page->isRead(); }, 10000));
    ASSERT_FALSE(page->report()->verified);
    QPushButton* verify = page->verifyButton();
    // Over the budget it cannot run: the button says why instead.
    page->batchSize()->setValue(static_cast<int>(*report_->largest_batch) + 1);
    EXPECT_FALSE(verify->isEnabled());
    EXPECT_TRUE(verify->toolTip().contains(QStringLiteral("not to fit")))
        << verify->toolTip().toStdString();
    page->batchSize()->setValue(8);
    ASSERT_TRUE(verify->isEnabled());
    EXPECT_EQ(verify->text(), QStringLiteral("Verify Batch 8"));
    QSignalSpy done(page, &ui::BatchSizePage::verified);
    QStringList said;
    QObject::connect(page, &ui::BatchSizePage::verifyingSaid,
                     [&said](const QString& text) { said << text; });
    QTest::mouseClick(verify, Qt::LeftButton);
    // One at a time: while it runs the button cancels it, and the view says what runs.
    EXPECT_EQ(verify->text(), QStringLiteral("Cancel Verifying"));
    EXPECT_TRUE(page->prediction()->text().startsWith(QStringLiteral("Verifying batch 8: ")))
        << page->prediction()->text().toStdString();
    // ... what the run is doing, stage by stage, not only the seconds it has run.
    ASSERT_TRUE(done.wait(120000));
    EXPECT_FALSE(said.filter(QRegularExpression(
                                 QStringLiteral("^Verifying batch 8: (Memory|Time): [a-z -]+, "
                                                "iteration \\d+ of \\d+… \\d+ s$")))
                     .isEmpty())
        << said.join(QLatin1Char('\n')).toStdString();
    ASSERT_TRUE(done.first().first().toBool()) << page->prediction()->text().toStdString();
    const std::optional<SweepPoint>& verified = page->report()->verified;
    ASSERT_TRUE(verified);
    EXPECT_EQ(verified->batch_size, 8);
    EXPECT_FALSE(verified->out_of_memory);
    EXPECT_GT(verified->peak_bytes, 0);
    EXPECT_TRUE(page->summary()->text().contains(QStringLiteral("Verified at batch 8")))
        << page->summary()->text().toStdString();
    // At once in the table and the peak chart, without opening the file again.
    QTableWidget* table = page->pointsTable();
    ASSERT_EQ(table->rowCount(), int(report_->points.size()) + 1);
    EXPECT_EQ(table->item(table->rowCount() - 1, 0)->text(), QStringLiteral("8"));
    EXPECT_EQ(table->item(table->rowCount() - 1, 1)->text(), QStringLiteral("verified"));
    bool charted = false;
    for (QAbstractSeries* series : page->memoryChart()->chart()->series())
        if (series->name() == QStringLiteral("Verified")) {
            auto* point = qobject_cast<QScatterSeries*>(series);
            charted = point && point->count() == 1 && point->at(0).x() == 8.0;
        }
    EXPECT_TRUE(charted) << "the verified batch is not in the peak chart";
    // The file holds it: a user who opens the report again sees the measurement.
    const SweepReport reread = readSweepReport(copy.toStdString());
    ASSERT_TRUE(reread.verified);
    EXPECT_EQ(reread.verified->peak_bytes, verified->peak_bytes);
    EXPECT_EQ(reread.points.size(), report_->points.size());
}

// A verification is cancelled with its button: the report and its file stay as they were,
// and the view says so.
TEST_F(BatchSizeViewTest, AVerificationIsCancelledWithItsButton) {
    const QString copy = dir_->path() + QStringLiteral("/cancel.sweep.sqlite");
    QFile::remove(copy);
    ASSERT_TRUE(QFile::copy(dir_->path() + QStringLiteral("/mlp.sweep.sqlite"), copy));
    QFile before(copy);
    ASSERT_TRUE(before.open(QIODevice::ReadOnly));
    const QByteArray bytes = before.readAll();
    before.close();
    window_.openReports({copy});
    ui::BatchSizePage* page = window_.sweepPage();
    ASSERT_NE(page, nullptr);
    ASSERT_TRUE(QTest::qWaitFor([page] { return page->isRead(); }, 10000));
    page->batchSize()->setValue(8);
    QPushButton* verify = page->verifyButton();
    QSignalSpy done(page, &ui::BatchSizePage::verified);
    QTest::mouseClick(verify, Qt::LeftButton);
    ASSERT_TRUE(verify->isEnabled());
    QTest::mouseClick(verify, Qt::LeftButton);  // Cancel Verifying
    EXPECT_EQ(verify->text(), QStringLiteral("Cancelling…"));
    ASSERT_TRUE(done.wait(120000));
    EXPECT_FALSE(done.first().first().toBool());
    EXPECT_EQ(page->prediction()->text(),
              QStringLiteral("Verifying batch 8 was cancelled: the report is as it was."));
    EXPECT_FALSE(page->report()->verified);
    EXPECT_EQ(verify->text(), QStringLiteral("Verify Batch 8"));
    EXPECT_TRUE(verify->isEnabled());
    QFile after(copy);
    ASSERT_TRUE(after.open(QIODevice::ReadOnly));
    EXPECT_EQ(after.readAll(), bytes);
}

TEST_F(BatchSizeViewTest, ADamagedSweepReportGetsAMessage) {
    const QString junk = dir_->path() + QStringLiteral("/junk.sweep.sqlite");
    QFile file(junk);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("SQLite format 3 and then nothing of the sort");
    file.close();
    window_.openReports({junk});
    ui::BatchSizePage* page = window_.sweepPage();
    ASSERT_NE(page, nullptr);
    ASSERT_TRUE(QTest::qWaitFor([page] { return !page->errorText().isEmpty(); }, 10000));
    EXPECT_TRUE(page->summary()->text().contains(QStringLiteral("cannot be read")));
    EXPECT_FALSE(page->slider()->isEnabled());
}

}  // namespace
}  // namespace trainscope::test
