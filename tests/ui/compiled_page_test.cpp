// SPDX-License-Identifier: Apache-2.0
// The Compiled tab as a user meets it: a run time report of a compiled step (its
// compilations, a graph break and a recompilation among them, and its kernels' rows) written
// by the engine's writer, opened in the main window; a compilation's row opens its line.
#include <gtest/gtest.h>

#include <QListWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

#include "main_window.h"
#include "support/report_reader.h"
#include "trainscope/report_writer.h"
#include "ui/sample_run.h"
#include "views/compiled_page.h"
#include "views/report_browser.h"

using namespace trainscope;
using namespace trainscope::ui;

namespace {

// A compiled step: region 0/0 and its two kernels, one of them without a line.
QString writeCompiledRun(const QString& dir) {
    TimeReport time;
    time.entries = {
        {"Torch-Compiled Region: 0/0", 1.0, 2.0, {{"train.py", 20}}, ""},
        {"extern_kernels.addmm", 0.75, std::nullopt, {{"model.py", 8}, {"train.py", 20}}, "fc1"},
        {"cpp_fused_gelu_0", 0.0, 0.25, {}, ""}};
    time.kernels = {
        {1, "0/0", false, {"aten.addmm"}, "", 1, "8;4,16;16,8"},
        {2, "0/0", true, {"aten.gelu_backward"}, "Inductor knows no source line of it", 1, ""}};
    time.compilations = {
        {"0/0", "forward", "forward", "model.py", 7, 0, 2'500'000'000, 0,
         "User-inserted graph break. Message: None", ""},
        {"1/0", "forward", "forward, resumed at line 9", "model.py", 9, 0, 500'000'000, 0, "", ""},
        {"0/1", "forward", "forward", "model.py", 7, 0, 250'000'000, 3, "",
         "tensor 'x' size mismatch at index 0. expected 4, actual 8"}};
    time.metadata["compiled_steps"] = "torch.compile compiled in observed steps (3)";
    const QString path = dir + QStringLiteral("/compiled.time.sqlite");
    writeTimeReport(time, path.toStdString(), Overwrite::Refuse);
    return path;
}

}  // namespace

TEST(CompiledTab, ListsTheCompilationsAndTheKernelsAndOpensALine) {
    const QString dir = QString::fromStdString(test::makeTempDir());
    MainWindow window;
    window.show();
    ASSERT_TRUE(test::openAndWait(window, {writeCompiledRun(dir)}))
        << window.lastError().toStdString();
    ReportBrowser* browser = window.browser();
    CompiledPage* page = browser->compiledPage();
    ASSERT_NE(page, nullptr);
    EXPECT_EQ(browser->tabs()->tabText(browser->tabs()->indexOf(page)), QStringLiteral("Compiled"));
    browser->tabs()->setCurrentWidget(page);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    // The figures, each once: 3 compilations of 3.25 s, one break, one recompilation; the
    // kernels' 1 ms, three quarters of it on a line of the project.
    EXPECT_EQ(page->heading()->text(),
              QStringLiteral("3 compilations by torch.compile, 3.250 s; graph breaks: 1, "
                             "recompilations: 1\n"
                             "torch.compile compiled in observed steps (3)\n"
                             "Kernels of compiled regions: 2, 1.000 ms (forward 0.750 ms, "
                             "backward 0.250 ms); 75.0% of their time on a module and a line "
                             "of the project\n"
                             "0.250 ms without a line: Inductor knows no source line of it"));
    QTableWidget* table = page->compilationsTable();
    ASSERT_EQ(table->rowCount(), 3);
    EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("warm-up"));
    EXPECT_EQ(table->item(0, 4)->text(), QStringLiteral("model.py:7"));
    EXPECT_EQ(table->item(0, 5)->text(), QStringLiteral("2.500"));
    EXPECT_EQ(table->item(0, 6)->text(),
              QStringLiteral("User-inserted graph break. Message: None"));
    EXPECT_EQ(table->item(2, 0)->text(), QStringLiteral("3"));
    EXPECT_EQ(table->item(2, 7)->text(),
              QStringLiteral("tensor 'x' size mismatch at index 0. expected 4, actual 8"));
    // A row's line opens in the source panel.
    test::clickRow(table, 1);
    EXPECT_EQ(test::items(browser->framesList()), QStringList{QStringLiteral("model.py:9")});
}

TEST(CompiledTab, AnEagerRunHasNone) {
    const QString dir = QString::fromStdString(test::makeTempDir());
    TimeReport time;
    time.entries = {{"aten::linear", 1.0, 2.0, {{"train.py", 20}}, ""}};
    const QString path = dir + QStringLiteral("/eager.time.sqlite");
    writeTimeReport(time, path.toStdString(), Overwrite::Refuse);
    MainWindow window;
    window.show();
    ASSERT_TRUE(test::openAndWait(window, {path}));
    EXPECT_EQ(window.browser()->compiledPage(), nullptr);
}
