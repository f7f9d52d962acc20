// SPDX-License-Identifier: Apache-2.0
// Starting runs from the window: the New Profile dialog, the worker thread, progress,
// cancel, failures, and the first-launch example. Real engine runs of small built-in models.
#include <gtest/gtest.h>

#include <algorithm>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <functional>

#include "i18n/language.h"
#include "main_window.h"
#include "run/new_profile_dialog.h"
#include "run/profile_worker.h"
#include "run/python_package.h"
#include "support/bounded_command.h"
#include "support/report_reader.h"
#include "sweep/batch_size_page.h"
#include "ui/sample_run.h"
#include "views/elided_label.h"
#include "views/entry_table_view.h"
#include "views/modules_model.h"
#include "views/modules_page.h"
#include "views/report_browser.h"
#include "views/timeline_summary_page.h"
#include "views/tree_model.h"
#include "views/welcome_page.h"

using namespace trainscope;
using namespace trainscope::ui;

namespace {

constexpr int kRunTimeoutMs = 120000;

class ProfileRunTest : public ::testing::Test {
  protected:
    void SetUp() override {
        runs_ = QString::fromStdString(test::makeTempDir());
        window_.setRunsFolder(runs_);
        window_.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window_));
    }
    void TearDown() override { std::filesystem::remove_all(runs_.toStdString()); }

    QStringList filesInRuns() const {
        return QDir(runs_).entryList(QDir::Files | QDir::NoDotAndDotDot);
    }
    bool waitForEngine() {
        return QTest::qWaitFor([&] { return !window_.runner()->engineRunning(); }, kRunTimeoutMs);
    }
    // The dialog filled as a user would, for a small built-in MLP.
    NewProfileDialog* fillSmallMlp(const QString& prefix) {
        NewProfileDialog* dialog = window_.showNewProfileDialog();
        dialog->builtinChoice()->click();
        dialog->builtinModel()->setCurrentText(QStringLiteral("mlp"));
        QLineEdit* d_model = dialog->parameterField(QStringLiteral("d_model"));
        d_model->selectAll();
        QTest::keyClicks(d_model, QStringLiteral("32"));
        while (dialog->inputs()->rowCount() > 0)
            dialog->inputs()->removeRow(0);
        dialog->addInputRow(QStringLiteral("2x4x32"));
        dialog->warmup()->setValue(1);
        dialog->iterations()->setValue(2);
        dialog->outputPrefix()->selectAll();
        QTest::keyClicks(dialog->outputPrefix(), prefix);
        return dialog;
    }

    // The progress bar's values, as fractions of its range, as they change from now on.
    const QVector<double>& recordProgress() {
        QObject::connect(window_.runProgress(), &QProgressBar::valueChanged, &window_,
                         [this](int value) {
                             progress_ << double(value) / qMax(1, window_.runProgress()->maximum());
                         });
        return progress_;
    }

    QString runs_;
    QVector<double> progress_;  // before the window, which may report progress as it closes
    MainWindow window_;
};

TEST_F(ProfileRunTest, TheDialogRunsTheBuiltinMlpAndItsReportOpens) {
    NewProfileDialog* dialog = fillSmallMlp(runs_ + QStringLiteral("/small"));
    ASSERT_TRUE(dialog->problems().isEmpty()) << dialog->problems().join('\n').toStdString();
    ASSERT_TRUE(dialog->startButton()->isEnabled());
    // The progress bar moves forward across the whole run (both passes), never back.
    const QVector<double>& progress = recordProgress();
    QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window_.browser() != nullptr; }, kRunTimeoutMs))
        << window_.lastError().toStdString();
    ASSERT_GE(progress.size(), 4) << "each pass's iterations move the bar";
    EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
    EXPECT_DOUBLE_EQ(progress.last(), 1.0);
    ReportBrowser* browser = window_.browser();
    test::waitForReads();
    EXPECT_EQ(browser->paths(), (QStringList{runs_ + QStringLiteral("/small.memory.sqlite"),
                                             runs_ + QStringLiteral("/small.time.sqlite")}));
    ASSERT_TRUE(browser->timeSummary().has_value());
    EXPECT_EQ(browser->timeSummary()->operations, 4);  // linear, gelu, linear, sum
    ASSERT_TRUE(browser->memorySummary().has_value());
    // The MLP's weights: 32x128 + 128 + 128x32 + 32 float32 values.
    EXPECT_EQ(browser->memorySummary()->weights, (32 * 128 + 128 + 128 * 32 + 32) * 4);
    QAbstractItemModel* weights = browser->weightsView()->model();
    ASSERT_EQ(weights->rowCount(), 4);
    EXPECT_EQ(weights->index(0, 1).data().toString(), QStringLiteral("lin_0.weight"));
    EXPECT_TRUE(window_.runStatus().contains(QStringLiteral("finished")));
    EXPECT_FALSE(window_.cancelButton()->isVisible());
}

// Enter starts the run from any field, as the default button says: it once opened the
// TorchScript file chooser.
TEST_F(ProfileRunTest, EnterStartsTheRun) {
    NewProfileDialog* dialog = fillSmallMlp(runs_ + QStringLiteral("/entered"));
    ASSERT_TRUE(dialog->startButton()->isEnabled());
    EXPECT_TRUE(dialog->startButton()->isDefault());
    for (QPushButton* button : dialog->findChildren<QPushButton*>())
        EXPECT_TRUE(button == dialog->startButton() || !button->isDefault())
            << button->text().toStdString();
    dialog->outputPrefix()->setFocus();
    QTest::keyClick(dialog->outputPrefix(), Qt::Key_Return);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window_.browser() != nullptr; }, kRunTimeoutMs))
        << window_.lastError().toStdString();
    EXPECT_TRUE(QFile::exists(runs_ + QStringLiteral("/entered.memory.sqlite")));
}

TEST_F(ProfileRunTest, TheDialogSweepsBatchSizesAndTheBatchSizeViewOpens) {
    NewProfileDialog* dialog = fillSmallMlp(runs_ + QStringLiteral("/sweep"));
    dialog->measureChoice()->setCurrentIndex(NewProfileDialog::kSweepChoice);
    EXPECT_TRUE(dialog->sweepSizes()->isEnabled());
    // A bad list is marked, and the run cannot start.
    QTest::keyClicks(dialog->sweepSizes(), QStringLiteral("4"));
    EXPECT_FALSE(dialog->startButton()->isEnabled());
    EXPECT_TRUE(dialog->problems().join(' ').contains(QStringLiteral("--batch-sizes")));
    QTest::keyClicks(dialog->sweepSizes(), QStringLiteral(",1,2"));
    QTest::keyClicks(dialog->sweepBudget(), QStringLiteral("8MiB"));
    ASSERT_TRUE(dialog->problems().isEmpty()) << dialog->problems().join('\n').toStdString();
    const QVector<double>& progress = recordProgress();
    QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window_.sweepPage() != nullptr; }, kRunTimeoutMs))
        << window_.lastError().toStdString();
    ASSERT_TRUE(QTest::qWaitFor([&] { return window_.sweepPage()->isRead(); }, 10000));
    EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
    EXPECT_EQ(filesInRuns(), QStringList{QStringLiteral("sweep.sweep.sqlite")});
    const SweepReport* report = window_.sweepPage()->report();
    ASSERT_EQ(report->points.size(), 3u);  // 1, 2 and 4
    EXPECT_EQ(report->budget_bytes, int64_t{8} << 20);
    EXPECT_EQ(report->points[2].batch_size, 4);
}

TEST_F(ProfileRunTest, InvalidValuesAreMarkedBeforeARunStarts) {
    NewProfileDialog* dialog = fillSmallMlp(runs_ + QStringLiteral("/checked"));
    ASSERT_TRUE(dialog->startButton()->isEnabled());

    QLineEdit* d_model = dialog->parameterField(QStringLiteral("d_model"));
    d_model->setText(QStringLiteral("-3"));
    EXPECT_FALSE(dialog->startButton()->isEnabled());
    EXPECT_FALSE(d_model->toolTip().isEmpty());
    d_model->setText(QStringLiteral("32"));
    EXPECT_TRUE(dialog->startButton()->isEnabled());

    dialog->inputs()->item(0, 0)->setText(QStringLiteral("2xfour"));
    EXPECT_FALSE(dialog->startButton()->isEnabled());
    EXPECT_TRUE(dialog->problems().join(' ').contains(QStringLiteral("Input 1")));
    dialog->inputs()->item(0, 0)->setText(QStringLiteral("2x4x32"));

    // An inputs file (from tools/trainscope-export) replaces the shapes of a TorchScript model.
    dialog->fileChoice()->click();
    dialog->modelFile()->setText(QStringLiteral(TOYNET_ARCHIVE));
    dialog->inputsFile()->setText(runs_ + QStringLiteral("/no-such-inputs.pt"));
    EXPECT_FALSE(dialog->startButton()->isEnabled());
    EXPECT_TRUE(dialog->problems().join(' ').contains(QStringLiteral("inputs file")));
    QFile inputs_file(runs_ + QStringLiteral("/inputs.pt"));
    ASSERT_TRUE(inputs_file.open(QIODevice::WriteOnly));
    inputs_file.close();
    dialog->inputsFile()->setText(inputs_file.fileName());
    EXPECT_TRUE(dialog->startButton()->isEnabled()) << dialog->problems().join(' ').toStdString();
    EXPECT_FALSE(dialog->inputs()->isEnabled());
    EXPECT_EQ(dialog->request().config.inputs_file, inputs_file.fileName().toStdString());
    EXPECT_TRUE(dialog->request().config.inputs.empty());
    // Back to the built-in: what the dialog shows is what runs, and the file does not apply.
    dialog->builtinChoice()->click();
    EXPECT_FALSE(dialog->inputsFile()->isEnabled());
    EXPECT_TRUE(dialog->inputs()->isEnabled());
    EXPECT_TRUE(dialog->request().config.inputs_file.empty());
    EXPECT_EQ(dialog->request().config.inputs.size(), 1u);
    dialog->inputsFile()->clear();
    QFile::remove(inputs_file.fileName());

    dialog->fileChoice()->click();
    dialog->modelFile()->setText(runs_ + QStringLiteral("/no-such-model.pt"));
    EXPECT_FALSE(dialog->startButton()->isEnabled());
    EXPECT_TRUE(dialog->problems().join(' ').contains(QStringLiteral("does not exist")));
    dialog->builtinChoice()->click();

    // Parameters whose combination the engine refuses are caught before Start.
    dialog->builtinModel()->setCurrentText(QStringLiteral("transformer"));
    dialog->parameterField(QStringLiteral("d_model"))->setText(QStringLiteral("128"));
    dialog->parameterField(QStringLiteral("n_heads"))->setText(QStringLiteral("3"));
    EXPECT_FALSE(dialog->startButton()->isEnabled());
    EXPECT_TRUE(dialog->findChildren<QLabel*>().size() > 0);
    bool shown = false;
    for (QLabel* label : dialog->findChildren<QLabel*>())
        shown = shown || label->text().contains(QStringLiteral("multiple of 'n_heads'"));
    EXPECT_TRUE(shown) << "the problem is not shown";
    dialog->parameterField(QStringLiteral("n_heads"))->setText(QStringLiteral("4"));
    EXPECT_TRUE(dialog->startButton()->isEnabled());
    dialog->builtinModel()->setCurrentText(QStringLiteral("mlp"));

    QFile existing(runs_ + QStringLiteral("/taken.time.sqlite"));
    ASSERT_TRUE(existing.open(QIODevice::WriteOnly));
    existing.write("the user's data");
    existing.close();
    dialog->outputPrefix()->setText(runs_ + QStringLiteral("/taken"));
    EXPECT_FALSE(dialog->startButton()->isEnabled());
    EXPECT_TRUE(dialog->problems().join(' ').contains(QStringLiteral("never overwritten")));
    dialog->accept();  // refused: the dialog stays open and no run starts
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_FALSE(window_.runner()->busy());
    dialog->reject();
}

TEST_F(ProfileRunTest, TheDialogRemembersTheLastValues) {
    NewProfileDialog* dialog = fillSmallMlp(runs_ + QStringLiteral("/remembered"));
    dialog->iterations()->setValue(7);
    dialog->accept();
    ASSERT_TRUE(waitForEngine());
    NewProfileDialog* again = window_.showNewProfileDialog();
    EXPECT_EQ(again->parameterField(QStringLiteral("d_model"))->text(), QStringLiteral("32"));
    EXPECT_EQ(again->iterations()->value(), 7);
    ASSERT_EQ(again->inputs()->rowCount(), 1);
    EXPECT_EQ(again->inputs()->item(0, 0)->text(), QStringLiteral("2x4x32"));
    // A new, never existing name, in the folder last used.
    EXPECT_TRUE(again->outputPrefix()->text().startsWith(runs_ + QStringLiteral("/mlp-")));
    again->reject();
}

// A user whose python3 has no torch keeps it in an environment beside their code: the dialog
// offers that environment's Python, and a click takes it.
TEST_F(ProfileRunTest, TheProjectsEnvironmentIsOfferedAndTakenWithAClick) {
    const QString project = runs_ + QStringLiteral("/project");
    ASSERT_TRUE(QDir().mkpath(project + QStringLiteral("/.venv/bin")));
    QFile python(project + QStringLiteral("/.venv/bin/python"));
    ASSERT_TRUE(python.open(QIODevice::WriteOnly));
    python.close();
    python.setPermissions(python.permissions() | QFileDevice::ExeOwner);
    QFile entry(project + QStringLiteral("/entry.py"));
    ASSERT_TRUE(entry.open(QIODevice::WriteOnly));
    entry.close();

    NewProfileDialog* dialog = window_.showNewProfileDialog();
    QTest::mouseClick(dialog->pythonChoice(), Qt::LeftButton);
    dialog->interpreter()->setText(QStringLiteral("python3"));
    dialog->pythonEntry()->setText(entry.fileName());
    ASSERT_TRUE(dialog->useEnvironment()->isVisible());
    EXPECT_EQ(dialog->useEnvironment()->text(),
              QStringLiteral("Use the project's environment: .venv/bin/python"));
    QTest::mouseClick(dialog->useEnvironment(), Qt::LeftButton);
    EXPECT_EQ(dialog->interpreter()->text(), python.fileName());
    EXPECT_FALSE(dialog->useEnvironment()->isVisible());  // taken: nothing more to offer
    // An entry point with no environment around it offers none.
    dialog->pythonEntry()->setText(QStringLiteral("/nonexistent/entry.py"));
    EXPECT_FALSE(dialog->useEnvironment()->isVisible());
    dialog->reject();
}

TEST_F(ProfileRunTest, CancelStopsTheRunAndLeavesNoReport) {
    RunRequest request;
    request.config.model = "builtin:mlp";
    request.config.params = {{"d_model", "512"}};
    request.config.inputs = {parseInputSpec("4x512x512")};
    request.config.warmup = 1;
    request.config.iterations = 1000;  // far longer than the test waits
    request.output_prefix = runs_ + QStringLiteral("/cancelled");
    ASSERT_TRUE(window_.startRun(request));
    ASSERT_TRUE(window_.cancelButton()->isVisible());
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window_.runStatus().contains(QStringLiteral("Time: measuring")); },
        kRunTimeoutMs))
        << window_.runStatus().toStdString();
    EXPECT_TRUE(window_.runStatus().contains(QStringLiteral("left")));  // an estimate
    QTest::mouseClick(window_.cancelButton(), Qt::LeftButton);
    EXPECT_FALSE(window_.runner()->busy());  // the window is free at once
    EXPECT_TRUE(window_.runStatus().contains(QStringLiteral("cancelled")));
    ASSERT_TRUE(waitForEngine());
    EXPECT_TRUE(filesInRuns().isEmpty()) << filesInRuns().join(' ').toStdString();
    EXPECT_EQ(window_.browser(), nullptr);
}

TEST_F(ProfileRunTest, AResultArrivingAfterACancelIsDropped) {
    RunRequest request = exampleRunRequest(runs_);
    request.config.warmup = 0;
    request.config.iterations = 1;
    ASSERT_TRUE(window_.startRun(request));
    window_.runner()->cancel();  // before the engine can check: the run may well finish
    ASSERT_TRUE(waitForEngine());
    QTest::qWait(50);
    EXPECT_TRUE(filesInRuns().isEmpty()) << filesInRuns().join(' ').toStdString();
    EXPECT_EQ(window_.browser(), nullptr);
}

TEST_F(ProfileRunTest, ABrokenModelFileAndAWrongInputShapeEndInAMessage) {
    const QString broken = runs_ + QStringLiteral("/../broken-model.pt");
    {
        QFile file(broken);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("this is not a TorchScript archive");
    }
    RunRequest request;
    request.config.model = broken.toStdString();
    request.config.inputs = {parseInputSpec("2x3")};
    request.output_prefix = runs_ + QStringLiteral("/broken");
    ASSERT_TRUE(window_.startRun(request));
    ASSERT_TRUE(waitForEngine());
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("not a loadable TorchScript")))
        << window_.lastError().toStdString();
    QFile::remove(broken);

    RunRequest wrong_shape = exampleRunRequest(runs_);
    wrong_shape.config.inputs = {parseInputSpec("2x4x255")};  // d_model is 256
    ASSERT_TRUE(window_.startRun(wrong_shape));
    ASSERT_TRUE(waitForEngine());
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("the model failed on its inputs")))
        << window_.lastError().toStdString();
    EXPECT_TRUE(filesInRuns().isEmpty()) << filesInRuns().join(' ').toStdString();

    // The app is still usable: the next run goes through, and the status bar no longer shows
    // the failure of the run before it.
    auto* status = window_.findChild<ui::ElidedLabel*>(QStringLiteral("statusMessage"));
    ASSERT_NE(status, nullptr);
    EXPECT_TRUE(status->fullText().contains(QStringLiteral("failed")))
        << status->fullText().toStdString();
    ASSERT_TRUE(window_.startRun(exampleRunRequest(runs_)));
    EXPECT_EQ(status->fullText(), QString());
    ASSERT_TRUE(QTest::qWaitFor([&] { return window_.browser() != nullptr; }, kRunTimeoutMs))
        << window_.lastError().toStdString();
}

TEST_F(ProfileRunTest, TheFirstLaunchOfferProfilesTheExampleInOneClick) {
    ASSERT_NE(window_.welcomePage(), nullptr);
    QTest::mouseClick(window_.welcomePage()->exampleButton(), Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window_.browser() != nullptr; }, kRunTimeoutMs))
        << window_.lastError().toStdString();
    EXPECT_EQ(window_.browser()->timeSummary()->operations, 4);
    EXPECT_EQ(filesInRuns().size(), 3);  // the memory, run time and timeline reports
    // All three open, with no error: the timeline's summary in a tab of its own.
    EXPECT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
    EXPECT_EQ(window_.browser()->paths().size(), 2);
    QTabWidget* tabs = window_.browser()->tabs();
    auto* timeline = qobject_cast<TimelineSummaryPage*>(tabs->widget(tabs->count() - 1));
    ASSERT_NE(timeline, nullptr);
    EXPECT_TRUE(timeline->path().endsWith(QStringLiteral(".timeline.sqlite")));
    ASSERT_TRUE(QTest::qWaitFor([&] { return timeline->loaded(); }, 10000));
    EXPECT_TRUE(timeline->totals()->text().contains(
        QStringLiteral("Memory of PyTorch's allocator (PTA): peak allocated")))
        << timeline->totals()->text().toStdString();
    // The overview breaks the peak down at its instant, and the parts make the peak.
    const auto& memory = window_.browser()->memorySummary();
    ASSERT_TRUE(memory && memory->at_peak);
    EXPECT_EQ(memory->at_peak->total(), memory->peak);
    EXPECT_GT(memory->at_peak->weights, 0);
    EXPECT_TRUE(window_.browser()->overviewText().contains(QStringLiteral("At the peak")))
        << window_.browser()
               ->overviewText()
               .toStdString();  // the memory, run time and timeline reports
}

// The dialog fits the default window's height (760 px) in every mode it has, in the three
// languages: it was about 790 px tall, its buttons below a laptop's screen.
// `check` on the dialog, shown, in each of the three languages.
void inEachLanguage(const std::function<void(const char*, NewProfileDialog&)>& check) {
    for (const char* language : {"en", "de", "zh_CN"}) {
        ASSERT_TRUE(installTranslations(QLocale(QString::fromLatin1(language))) ||
                    QLatin1String(language) == QLatin1String("en"));
        QTemporaryDir runs;
        NewProfileDialog dialog(runs.path());
        dialog.show();
        check(language, dialog);
    }
    installTranslations(QLocale(QStringLiteral("en")));
}

TEST(NewProfileDialogSize, FitsTheDefaultWindowInEveryModeAndLanguage) {
    inEachLanguage([](const char* language, NewProfileDialog& dialog) {
        for (QRadioButton* mode :
             {dialog.builtinChoice(), dialog.fileChoice(), dialog.pythonChoice()}) {
            mode->click();
            for (int measure = 0; measure < dialog.measureChoice()->count(); ++measure) {
                dialog.measureChoice()->setCurrentIndex(measure);
                QCoreApplication::processEvents();
                EXPECT_LE(dialog.sizeHint().height(), 760)
                    << language << ", " << mode->text().toStdString() << ", measure "
                    << dialog.measureChoice()->currentText().toStdString();
                EXPECT_LE(dialog.minimumSizeHint().height(), 760) << language;
                EXPECT_LE(dialog.sizeHint().width(), 1100) << language;
            }
        }
    });
}

// "Save as" spans the dialog and shows its whole default; the first focus is on the model
// chosen; the inputs file's hint is whole, in the three languages.
TEST(NewProfileDialogSize, SaveAsIsWholeAndTheFocusStartsAtTheModel) {
    inEachLanguage([](const char* language, NewProfileDialog& dialog) {
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
        QLineEdit* output = dialog.outputPrefix();
        EXPECT_GE(output->width(), dialog.width() / 2) << language;
        EXPECT_LT(output->fontMetrics().horizontalAdvance(output->text()),
                  output->contentsRect().width() - 8)
            << language << ": " << output->text().toStdString();
        dialog.fileChoice()->click();  // the inputs file is for a TorchScript model
        QCoreApplication::processEvents();
        QLineEdit* inputs = dialog.inputsFile();
        EXPECT_LT(inputs->fontMetrics().horizontalAdvance(inputs->placeholderText()),
                  inputs->contentsRect().width() - 8)
            << language << ": " << inputs->placeholderText().toStdString();
    });
    QTemporaryDir runs;
    NewProfileDialog dialog(runs.path());
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    QWidget* first = dialog.focusWidget();
    ASSERT_NE(first, nullptr);
    EXPECT_TRUE(first == dialog.builtinChoice() || first == dialog.fileChoice() ||
                first == dialog.pythonChoice())
        << first->metaObject()->className();
    EXPECT_TRUE(qobject_cast<QRadioButton*>(first)->isChecked());
}

}  // namespace

// ---- A Python entry point, run by its own interpreter (python3 -m trainscope profile) ----

class PythonEntryPointRun : public ProfileRunTest {
  protected:
    void SetUp() override {
        // The package as the build leaves it, beside the tests' folder (the app finds it so).
        if (!QFile::exists(QCoreApplication::applicationDirPath() +
                           QStringLiteral("/../python/trainscope/__init__.py"))) {
            GTEST_SKIP() << "the Python host is not built (TRAINSCOPE_BUILD_PYTHON)";
        }
        ProfileRunTest::SetUp();
    }
    NewProfileDialog* fillEntryPoint(const QString& entry, const QString& prefix,
                                     int iterations = 2) {
        NewProfileDialog* dialog = window_.showNewProfileDialog();
        dialog->pythonChoice()->click();
        dialog->pythonEntry()->setText(QStringLiteral(PYTHON_PROJECT "/") + entry);
        dialog->interpreter()->selectAll();
        QTest::keyClicks(dialog->interpreter(), QStringLiteral(TRAINSCOPE_PYTHON));
        dialog->warmup()->setValue(1);
        dialog->iterations()->setValue(iterations);
        dialog->outputPrefix()->selectAll();
        QTest::keyClicks(dialog->outputPrefix(), prefix);
        return dialog;
    }
};

TEST_F(PythonEntryPointRun, TheUsersOwnStepIsProfiledAndItsReportsOpen) {
    NewProfileDialog* dialog =
        fillEntryPoint(QStringLiteral("tied_lm.py"), runs_ + QStringLiteral("/lm"));
    // What the entry point brings itself is not asked for.
    EXPECT_FALSE(dialog->inputs()->isEnabled());
    EXPECT_FALSE(dialog->measureChoice()->isEnabled());
    ASSERT_TRUE(dialog->problems().isEmpty()) << dialog->problems().join('\n').toStdString();
    const QVector<double>& progress = recordProgress();
    QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window_.browser() != nullptr; }, kRunTimeoutMs))
        << window_.lastError().toStdString();
    EXPECT_EQ(filesInRuns(),
              (QStringList{QStringLiteral("lm.memory.sqlite"), QStringLiteral("lm.time.sqlite"),
                           QStringLiteral("lm.timeline.sqlite")}));
    ASSERT_GE(progress.size(), 3) << "each step moves the bar";
    EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
    EXPECT_DOUBLE_EQ(progress.last(), 1.0);
    test::waitForReads();
    ASSERT_TRUE(window_.browser()->memorySummary().has_value());
    // Its weights once each, the tied embedding included: 64x32 + 32x32 + 32 float32 values.
    EXPECT_EQ(window_.browser()->memorySummary()->weights, (64 * 32 + 32 * 32 + 32) * 4);

    // The Memory tab: the tied weight under both its names, and each weight's AdamW state (two
    // moments of its size, and its step count: a float32 scalar). Ctrl+F finds it by either.
    ui::ReportBrowser* browser = window_.browser();
    auto* weights = browser->weightsView()->entryModel();
    test::waitForRows(weights);
    QHash<QString, int> column;
    for (int c = 0; c < weights->columnCount(); ++c)
        column[weights->headerData(c, Qt::Horizontal, Qt::DisplayRole)
                   .toString()
                   .section(QStringLiteral(" ("), 0, 0)] = c;
    ASSERT_TRUE(column.contains(QStringLiteral("Optimizer")))
        << column.keys().join(' ').toStdString();
    QHash<QString, QString> read;  // by weight, as the table names it: its optimizer state
    for (int row = 0; row < weights->rowCount(); ++row)
        read[weights->rawValue(row, column[QStringLiteral("Weight")]).toString()] =
            weights->rawValue(row, column[QStringLiteral("Optimizer")]).toString();
    EXPECT_EQ(read.value(QStringLiteral("wte.weight = head.weight")),
              QString::number(2 * 64 * 32 * 4 + 4))
        << QStringList(read.keys()).join(' ').toStdString();
    EXPECT_EQ(read.value(QStringLiteral("fc.bias")), QString::number(2 * 32 * 4 + 4));
    EXPECT_FALSE(read.contains(QStringLiteral("head.weight")));
    weights->setFilter(QStringLiteral("head"));
    test::waitForRows(weights);
    ASSERT_EQ(weights->rowCount(), 1);
    EXPECT_EQ(weights->rawValue(0, column[QStringLiteral("Weight")]).toString(),
              QStringLiteral("wte.weight = head.weight"));
    // The Modules tab says where the head's weight is counted, in place of a bare 0.
    ui::ModulesPage* modules = browser->modulesPage();
    browser->tabs()->setCurrentWidget(modules->parentWidget());
    ASSERT_TRUE(QTest::qWaitFor([&] { return modules->isRead(); }, 10000));
    ui::ModulesModel* tree = modules->model();
    const QModelIndex head = tree->indexOfModule(tree->tree().find(QStringLiteral("head")));
    ASSERT_TRUE(head.isValid());
    EXPECT_EQ(head.siblingAtColumn(ui::ModulesModel::Weights).data().toString(),
              QStringLiteral("tied to wte.weight"));
    EXPECT_TRUE(head.data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("counted once, under wte.weight's module")));
}

// The interpreter's own trainscope where its environment has one built for its torch; the
// build folder's package only for an interpreter without one whose torch it is built for.
TEST_F(PythonEntryPointRun, AnEnvironmentsOwnTrainscopeIsUsedAndTheBuildsOnlyWhereItFits) {
    const QString build_package = buildTreePackageFolder();
    ASSERT_FALSE(build_package.isEmpty());
    // An environment of the tests' Python with its own copy of the package, as `pip install`
    // leaves one.
    QTemporaryDir environment;
    ASSERT_EQ(std::system(test::bounded(std::string(TRAINSCOPE_PYTHON) +
                                        " -m venv --system-site-packages --without-pip " +
                                        environment.path().toStdString())
                              .c_str()),
              0);
    const QStringList lib = QDir(environment.path() + QStringLiteral("/lib"))
                                .entryList({QStringLiteral("python3*")}, QDir::Dirs);
    ASSERT_EQ(lib.size(), 1);
    const QString site =
        environment.path() + QStringLiteral("/lib/") + lib[0] + QStringLiteral("/site-packages");
    ASSERT_EQ(std::system(test::bounded("cp -r '" + build_package.toStdString() + "/trainscope' '" +
                                        site.toStdString() + "/'")
                              .c_str()),
              0);
    const QString own_python = environment.path() + QStringLiteral("/bin/python");
    const PythonPackage own = choosePythonPackage(own_python, build_package, nullptr);
    EXPECT_TRUE(own.folder.isEmpty()) << own.folder.toStdString();
    EXPECT_TRUE(own.refusal.isEmpty()) << own.refusal.toStdString();
    // The tests' Python (Debian's, with its torch 1.13) has none unless the package is
    // installed: then the build's, which is built for it.
    const bool installed = std::system(test::bounded(std::string(TRAINSCOPE_PYTHON) +
                                                     " -c 'import trainscope' > /dev/null 2>&1")
                                           .c_str()) == 0;
    const PythonPackage plain =
        choosePythonPackage(QStringLiteral(TRAINSCOPE_PYTHON), build_package, nullptr);
    EXPECT_EQ(plain.folder, installed ? QString() : build_package);
    EXPECT_TRUE(plain.refusal.isEmpty()) << plain.refusal.toStdString();

    // A run from the dialog with the environment's interpreter profiles with its package.
    NewProfileDialog* dialog =
        fillEntryPoint(QStringLiteral("tied_lm.py"), runs_ + QStringLiteral("/own"));
    dialog->interpreter()->setText(own_python);
    QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window_.browser() != nullptr; }, kRunTimeoutMs))
        << window_.lastError().toStdString();
    EXPECT_EQ(filesInRuns().size(), 3) << filesInRuns().join(' ').toStdString();
}

// An environment of another torch (the PyTorch 2.x of tools/python-env) without a trainscope
// of its own: the build's package is built for Debian's torch 1.13, and is not put in front of
// it; one line says what to install.
TEST_F(PythonEntryPointRun, AnEnvironmentOfAnotherTorchIsToldWhatToInstall) {
    const QString other = QStringLiteral(TRAINSCOPE_OTHER_TORCH_PYTHON);
    if (!QFile::exists(other))
        GTEST_SKIP() << other.toStdString() << " is missing (tools/python-env makes it)";
    NewProfileDialog* dialog =
        fillEntryPoint(QStringLiteral("tied_lm.py"), runs_ + QStringLiteral("/other"));
    dialog->interpreter()->setText(other);
    QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
    ASSERT_TRUE(waitForEngine());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window_.lastError().isEmpty(); }, 5000));
    const QString error = window_.lastError();
    EXPECT_TRUE(error.contains(QStringLiteral("this trainscope was built for torch 1.")))
        << error.toStdString();
    EXPECT_TRUE(error.contains(other + QStringLiteral(" imports torch 2."))) << error.toStdString();
    EXPECT_TRUE(error.contains(other + QStringLiteral(" -m pip install --no-build-isolation")))
        << error.toStdString();
    EXPECT_FALSE(error.contains(QLatin1Char('\n')));
    EXPECT_TRUE(filesInRuns().isEmpty()) << filesInRuns().join(' ').toStdString();
}

TEST_F(PythonEntryPointRun, ACancelEndsTheInterpreterAndLeavesNoReport) {
    NewProfileDialog* dialog =
        fillEntryPoint(QStringLiteral("slow_step.py"), runs_ + QStringLiteral("/slow"), 100);
    QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window_.runStatus().contains(QStringLiteral("Time: measuring")); },
        kRunTimeoutMs))
        << window_.runStatus().toStdString();
    QTest::mouseClick(window_.cancelButton(), Qt::LeftButton);
    EXPECT_FALSE(window_.runner()->busy());
    ASSERT_TRUE(waitForEngine());
    EXPECT_TRUE(filesInRuns().isEmpty()) << filesInRuns().join(' ').toStdString();
    EXPECT_EQ(window_.browser(), nullptr);
}

TEST_F(PythonEntryPointRun, AStepThatRaisesEndsInItsOneLineMessage) {
    NewProfileDialog* dialog =
        fillEntryPoint(QStringLiteral("raises.py"), runs_ + QStringLiteral("/raises"));
    QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
    ASSERT_TRUE(waitForEngine());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window_.lastError().isEmpty(); }, 5000));
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("the batch is malformed (raises.py:")))
        << window_.lastError().toStdString();
    EXPECT_FALSE(window_.lastError().contains(QLatin1Char('\n')));
    EXPECT_TRUE(filesInRuns().isEmpty()) << filesInRuns().join(' ').toStdString();
    // A missing entry point is marked in the dialog before anything runs.
    NewProfileDialog* again =
        fillEntryPoint(QStringLiteral("missing.py"), runs_ + QStringLiteral("/missing"));
    EXPECT_FALSE(again->startButton()->isEnabled());
    EXPECT_TRUE(again->problems().join(' ').contains(QStringLiteral("does not exist")));
}
