// SPDX-License-Identifier: Apache-2.0
#include "ui/sample_run.h"

#include <QApplication>
#include <QChart>
#include <QFile>
#include <QListWidget>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QValueAxis>
#include <filesystem>

#include "reading/sql_table_model.h"
#include "support/report_reader.h"
#include "trainscope/report_writer.h"
#include "trainscope/run_files.h"
#include "views/report_browser.h"

namespace trainscope::test {
namespace {

void writeFile(const QString& path, const QStringList& lines) {
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(lines.join(QLatin1Char('\n')).toUtf8() + "\n");
}

// Line n of the file reads "line n" unless given: the tests check the highlighted text.
QStringList numberedLines(int count, const QMap<int, QString>& special) {
    QStringList lines;
    for (int n = 1; n <= count; ++n)
        lines << special.value(n, QStringLiteral("line %1").arg(n));
    return lines;
}

}  // namespace

void SampleRunTest::SetUp() {
    dir_ = QString::fromStdString(makeTempDir());
    writeFile(path("model.py"),
              numberedLines(20, {{kModelLinearLine, QStringLiteral("        x = self.lin(x)")},
                                 {13, QStringLiteral("        x = gelu(x)")}}));
    writeFile(path("layers.py"),
              numberedLines(10, {{kLayersLinearLine,
                                  QStringLiteral("    return torch.nn.functional.linear(x, w)")}}));
    MemoryReport memory;
    memory.weights = {{"lin_0.weight", 4096, 4096, {{"model.py", kModelLinearLine}}, "lin_0"},
                      {"lin_0.bias", 64, 64, {}, "lin_0"}};
    memory.activations = {{"aten::linear",
                           1000,
                           {{"layers.py", kLayersLinearLine}, {"model.py", kModelLinearLine}},
                           "lin_0"},
                          {"aten::gelu", 3000, {{"model.py", 13}}, ""}};
    memory.peak_usage_bytes = 20000;
    TimeReport time;
    time.entries = {
        {"aten::linear", 1.5, 2.5, {{"layers.py", kLayersLinearLine}, {"model.py", 12}}, "lin_0"},
        {"aten::zeros_like", 0.25, std::nullopt, {{"model.py", 14}}, ""},
        {"aten::gelu", 0.5, 0.75, {{"model.py", 13}}, ""},
        {"aten::linear", 0.5, 0.5, {{"layers.py", kLayersLinearLine}, {"model.py", 15}}, "lin_1"},
        // Frames a report should never hold; the app must refuse them, not open them.
        {"aten::escape", 0.125, std::nullopt, {{"../outside.py", 3}, {"/etc/passwd", 1}}, ""},
        {"aten::gone", 0.125, std::nullopt, {{"deleted.py", 2}}, ""}};
    writeReports(memory, path("run.memory.sqlite").toStdString(), time,
                 path("run.time.sqlite").toStdString(), Overwrite::Refuse);
}

void SampleRunTest::TearDown() {
    std::filesystem::remove_all(dir_.toStdString());
}

void OpenedRunTest::SetUp() {
    SampleRunTest::SetUp();
    window_.show();
    ASSERT_TRUE(openAndWait(window_, {path("run.time.sqlite")}));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window_));
    browser_ = window_.browser();
    waitForReads();
}

bool openAndWait(ui::MainWindow& window, const QStringList& paths) {
    QSignalSpy opened(&window, &ui::MainWindow::reportsOpened);
    window.openReports(paths);
    if (!opened.wait(120000))
        return false;
    waitForReads();
    return opened.first().first().toBool();
}

void waitForReads() {
    const bool done = QTest::qWaitFor(
        [] {
            for (QWidget* widget : QApplication::allWidgets()) {
                auto* browser = qobject_cast<ui::ReportBrowser*>(widget);
                // The library roots are read after the first screens, beside the worker.
                if (browser &&
                    (browser->run().busy() || !browser->run().contents().libraryRootsKnown()))
                    return false;
            }
            return true;
        },
        60000);
    EXPECT_TRUE(done) << "the reports' reads did not finish within a minute";
}

void waitForRows(ui::SqlTableModel* model) {
    EXPECT_TRUE(QTest::qWaitFor([model] { return !model->busy(); }, 60000))
        << "the table's rows did not come within a minute";
}

QStringList copyBuiltinProfile(const QString& name, const QString& dir) {
    QStringList paths;
    for (const std::string& suffix : runReportSuffixes()) {
        const QString file = name + QString::fromStdString(suffix);
        const QString copy = dir + QLatin1Char('/') + file;
        if (!QFile::copy(QStringLiteral(BUILTIN_PROFILES "/") + file, copy)) {
            ADD_FAILURE() << "no profile of builtin:" << name.toStdString() << " in "
                          << BUILTIN_PROFILES << " (made by the test fixture.builtin_profiles)";
            return {};
        }
        paths << copy;
    }
    return paths;
}

bool showBuiltinAtDefaultSize(ui::MainWindow& window, const QString& name, const QString& dir) {
    const QStringList paths = copyBuiltinProfile(name, dir);
    if (paths.size() != 3)
        return false;
    window.resize(1100, 760);
    window.show();
    if (window.size() != QSize(1100, 760) || !openAndWait(window, {paths[1]}))
        return false;
    waitForReads();
    return true;
}

void clickRow(QTableView* view, int row) {
    int column = 0;  // the first column shown
    while (view->isColumnHidden(column))
        ++column;
    view->scrollTo(view->model()->index(row, column));
    const QRect rect = view->visualRect(view->model()->index(row, column));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    waitForReads();
}

void clickItem(QListWidget* list, int row) {
    const QRect rect = list->visualItemRect(list->item(row));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rect.center());
}

QStringList items(QListWidget* list) {
    QStringList texts;
    for (int i = 0; i < list->count(); ++i)
        texts << list->item(i)->text();
    return texts;
}

QStringList tickLabels(QChart* chart) {
    QStringList labels;
    for (QAbstractAxis* axis : chart->axes(Qt::Horizontal)) {
        auto* values = qobject_cast<QValueAxis*>(axis);
        if (!values || values->tickInterval() <= 0)
            continue;
        for (double tick = 0; tick <= values->max() + 1e-9; tick += values->tickInterval())
            labels << QString::asprintf(values->labelFormat().toLatin1().constData(), tick);
    }
    return labels;
}

}  // namespace trainscope::test
