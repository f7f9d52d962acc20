// SPDX-License-Identifier: Apache-2.0
// From an entry to the user's code: frames, the source viewer, the project root, the editor.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QPushButton>
#include <QTabWidget>
#include <QTest>
#include <cstdlib>
#include <filesystem>

#include "main_window.h"
#include "reading/sql_table_model.h"
#include "settings/app_settings.h"
#include "source/editor_command.h"
#include "source/project_root.h"
#include "source/source_viewer.h"
#include "support/bounded_command.h"
#include "support/report_reader.h"
#include "ui/sample_run.h"
#include "views/entry_table_view.h"
#include "views/report_browser.h"
#include "views/source_panel.h"
#include "views/time_page.h"

using namespace trainscope;
using namespace trainscope::ui;
using test::clickItem;
using test::clickRow;
using test::items;

namespace {

class SourceNavigationTest : public test::OpenedRunTest {
  protected:
    void SetUp() override {
        test::OpenedRunTest::SetUp();
        browser_->tabs()->setCurrentWidget(browser_->timePage());
    }
    SourcePanel* panel() const { return browser_->sourcePanel(); }
    SourceViewer* viewer() const { return panel()->viewer(); }
};

// The viewer's margin shows what each line costs: every entry whose stack passes through the
// line, once, with its time (run time report) and bytes (memory report).
TEST_F(SourceNavigationTest, TheMarginShowsEachLinesTimeAndMemory) {
    clickRow(browser_->operationsView(), 0);  // lin_0's aten::linear
    ASSERT_EQ(viewer()->currentFile(), path("layers.py"));
    test::waitForReads();
    // layers.py:7 runs both linear layers: 1.5 + 2.5 and 0.5 + 0.5 ms; of the activations,
    // the first layer's 1,000 bytes (the second's report entry has none).
    EXPECT_EQ(viewer()->costText(test::kLayersLinearLine), QStringLiteral("5.000 ms  1,000 B"));
    EXPECT_EQ(viewer()->costText(1), QString());  // no entry passes line 1
    clickItem(browser_->framesList(), 1);
    test::waitForReads();
    ASSERT_EQ(viewer()->currentFile(), path("model.py"));
    // model.py:12 calls the first layer only (4 ms); its weight (4,096 bytes) and activation
    // (1,000) were made there: 5,096 bytes, in KiB as the column's largest figure is.
    EXPECT_EQ(viewer()->costText(test::kModelLinearLine), QStringLiteral("4.000 ms  5.0 KiB"));
    EXPECT_EQ(viewer()->costText(13), QStringLiteral("1.250 ms  2.9 KiB"));  // aten::gelu
}

TEST_F(SourceNavigationTest, ClickingAFrameShowsItsFileWithTheLineHighlighted) {
    EXPECT_EQ(browser_->projectRoot(), dir_);  // no recorded root: the report's folder
    clickRow(browser_->operationsView(), 0);
    ASSERT_EQ(items(browser_->framesList()),
              (QStringList{QStringLiteral("layers.py:7"), QStringLiteral("model.py:12")}));
    // The most specific frame is shown at once.
    EXPECT_EQ(viewer()->currentFile(), path("layers.py"));
    EXPECT_EQ(viewer()->highlightedLine(), test::kLayersLinearLine);

    clickItem(browser_->framesList(), 1);
    EXPECT_EQ(viewer()->currentFile(), path("model.py"));
    EXPECT_EQ(viewer()->highlightedLine(), test::kModelLinearLine);
    EXPECT_EQ(viewer()->highlightedText(), QStringLiteral("        x = self.lin(x)"));
    EXPECT_EQ(viewer()->textCursor().blockNumber() + 1, test::kModelLinearLine);
    EXPECT_TRUE(viewer()->isReadOnly());
    EXPECT_TRUE(panel()->openInEditorButton()->isEnabled());
}

TEST_F(SourceNavigationTest, FramesOutsideTheProjectRootAreRefused) {
    clickRow(browser_->operationsView(), 4);  // aten::escape
    ASSERT_EQ(browser_->framesList()->count(), 2);
    EXPECT_TRUE(panel()->message().contains(QStringLiteral("leaves the project root")))
        << panel()->message().toStdString();
    EXPECT_TRUE(viewer()->currentFile().isEmpty());
    EXPECT_FALSE(panel()->openInEditorButton()->isEnabled());

    clickItem(browser_->framesList(), 1);  // /etc/passwd
    EXPECT_TRUE(panel()->message().contains(QStringLiteral("relative to the project root")))
        << panel()->message().toStdString();
    EXPECT_TRUE(viewer()->toPlainText().isEmpty());
}

TEST_F(SourceNavigationTest, AMissingFileGetsAMessage) {
    clickRow(browser_->operationsView(), 5);  // aten::gone: deleted.py
    EXPECT_TRUE(
        panel()->message().contains(QStringLiteral("deleted.py is not in the project root")))
        << panel()->message().toStdString();
    EXPECT_TRUE(viewer()->currentFile().isEmpty());
}

TEST_F(SourceNavigationTest, TheProjectRootIsRememberedPerReport) {
    QDir(dir_).mkdir(QStringLiteral("moved"));
    QFile::copy(path("model.py"), path("moved/model.py"));
    QFile::copy(path("layers.py"), path("moved/layers.py"));
    browser_->setProjectRoot(path("moved"));
    clickRow(browser_->operationsView(), 0);
    EXPECT_EQ(viewer()->currentFile(), path("moved/layers.py"));

    window_.closeReports();
    ASSERT_TRUE(trainscope::test::openAndWait(window_, {path("run.memory.sqlite")}));
    EXPECT_EQ(window_.browser()->projectRoot(), path("moved"));
    AppSettings::setProjectRootFor(path("run.memory.sqlite"), {});
    AppSettings::setProjectRootFor(path("run.time.sqlite"), {});
}

TEST_F(SourceNavigationTest, OpenInEditorRunsTheEditorCommandWithFileAndLine) {
    const QString out = path("editor-was-called");
    AppSettings::setEditorCommand(
        QStringLiteral("/bin/sh -c \"echo $0 $1 $2 > %1\" %f %l %c").arg(out));
    clickRow(browser_->operationsView(), 2);  // aten::gelu, model.py:13
    QTest::mouseClick(panel()->openInEditorButton(), Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor([&] { return QFile(out).size() > 0; }, 5000));
    QFile file(out);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.readAll().trimmed(), (path("model.py") + QStringLiteral(" 13 1")).toUtf8());
    AppSettings::setEditorCommand(defaultEditorCommand());
}

TEST(EditorCommand, PlaceholdersAreFilledPerArgument) {
    EXPECT_EQ(editorArguments(QStringLiteral("code --goto %f:%l:%c"),
                              QStringLiteral("/p/my file.py"), 7, 1),
              (QStringList{QStringLiteral("code"), QStringLiteral("--goto"),
                           QStringLiteral("/p/my file.py:7:1")}));
    EXPECT_EQ(
        editorArguments(QStringLiteral("gvim +%l %f"), QStringLiteral("/p/100%l.py"), 3, 1),
        (QStringList{QStringLiteral("gvim"), QStringLiteral("+3"), QStringLiteral("/p/100%l.py")}));
    EXPECT_TRUE(editorArguments(QString(), QStringLiteral("a.py"), 1, 1).isEmpty());
    for (const EditorPreset& preset : editorPresets()) {
        const QStringList words = editorArguments(preset.command, QStringLiteral("/a.py"), 5, 2);
        EXPECT_TRUE(words.join(QLatin1Char(' ')).contains(QStringLiteral("5")))
            << preset.name.toStdString();
    }
    QString error;
    EXPECT_FALSE(
        launchEditor(QStringLiteral("/no/such/editor %f"), QStringLiteral("/a.py"), 1, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("/no/such/editor")));
}

TEST(ProjectRoot, PathsThatLeaveTheRootAreRefused) {
    const QString root = QStringLiteral("/usr/share");
    EXPECT_FALSE(resolveSource(root, QStringLiteral("../../etc/passwd")).error.isEmpty());
    EXPECT_FALSE(resolveSource(root, QStringLiteral("doc/../../bin/sh")).error.isEmpty());
    EXPECT_FALSE(resolveSource(root, QStringLiteral("/etc/passwd")).error.isEmpty());
    EXPECT_FALSE(resolveSource(QString(), QStringLiteral("a.py")).error.isEmpty());
    // A sibling folder whose name starts like the root's is still outside it.
    EXPECT_FALSE(
        resolveSource(QStringLiteral("/usr/sha"), QStringLiteral("../share/x")).error.isEmpty());
}

}  // namespace

namespace {

using ProjectRootLinks = test::SampleRunTest;

TEST_F(ProjectRootLinks, ALinkOutOfTheRootIsRefused) {
    ASSERT_TRUE(QFile::link(QStringLiteral("/etc/hostname"), path("link.py")));
    const ResolvedSource source = resolveSource(dir_, QStringLiteral("link.py"));
    EXPECT_TRUE(source.path.isEmpty());
    EXPECT_TRUE(source.error.contains(QStringLiteral("outside the project root")));
    EXPECT_EQ(resolveSource(dir_, QStringLiteral("./model.py")).path, path("model.py"));
}

}  // namespace

namespace {

// The acceptance path: a report of the built-in MLP from trainscope-cli; a click on the GELU
// operation lands on the line of resources/models/mlp.py that calls it.
TEST(BuiltinModelSource, AFrameOfTheBuiltinMlpOpensItsModelSource) {
    const QString dir = QString::fromStdString(test::makeTempDir());
    const QString command = QStringLiteral(
                                "%1 profile --model builtin:mlp --param d_model=32 --input 2x4x32 "
                                "--warmup 1 --iterations 1 -q -o %2/mlp")
                                .arg(QStringLiteral(TRAINSCOPE_CLI), dir);
    ASSERT_EQ(std::system(trainscope::test::bounded(command.toStdString()).c_str()), 0)
        << command.toStdString();
    MainWindow window;
    window.show();
    ASSERT_TRUE(trainscope::test::openAndWait(window, {dir + QStringLiteral("/mlp.time.sqlite")}));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ReportBrowser* browser = window.browser();
    browser->tabs()->setCurrentWidget(browser->timePage());
    EXPECT_EQ(QDir(browser->projectRoot()).canonicalPath(),
              QDir(QStringLiteral(TRAINSCOPE_MODELS_SOURCE)).canonicalPath());

    SqlTableModel* ops = browser->operationsView()->entryModel();
    int gelu = -1;
    for (int row = 0; row < ops->rowCount(); ++row) {
        if (ops->index(row, 1).data().toString() == QStringLiteral("aten::gelu"))
            gelu = row;
    }
    ASSERT_GE(gelu, 0);
    clickRow(browser->operationsView(), gelu);
    clickItem(browser->framesList(), 0);
    SourceViewer* viewer = browser->sourcePanel()->viewer();
    EXPECT_EQ(QFileInfo(viewer->currentFile()).canonicalFilePath(),
              QFileInfo(QStringLiteral(TRAINSCOPE_MODELS_SOURCE "/mlp.py")).canonicalFilePath());
    EXPECT_EQ(viewer->highlightedText().trimmed(), QStringLiteral("x = torch.gelu(x)"));
    std::filesystem::remove_all(dir.toStdString());
}

// A library frame's path is longer than the frames list at the window's default size: what a
// reader sees keeps the file and the line, losing leading folders; the tooltip has it whole.
TEST_F(SourceNavigationTest, ALongFramesPathKeepsItsFileAndLine) {
    const QString path = QStringLiteral("torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py");
    const QString root = QStringLiteral("/work/main/.venv-torch2/lib/python3.11/site-packages");
    panel()->showFrames({FrameRow{path, 1775, root}, FrameRow{QStringLiteral("train.py"), 12, {}}});
    QListWidget* frames = browser_->framesList();
    ASSERT_EQ(frames->count(), 2);
    const QString whole = path + QStringLiteral(":1775");
    ASSERT_GT(QFontMetrics(frames->font()).horizontalAdvance(whole), frames->viewport()->width())
        << "the list is wide enough for the whole path: no test of its elision";
    const QString seen = QFontMetrics(frames->font())
                             .elidedText(whole, frames->textElideMode(),
                                         frames->visualItemRect(frames->item(0)).width());
    EXPECT_TRUE(seen.endsWith(QStringLiteral("_fsdp_param_group.py:1775"))) << seen.toStdString();
    EXPECT_TRUE(frames->item(0)->toolTip().startsWith(whole + QLatin1Char('\n')))
        << frames->item(0)->toolTip().toStdString();
    EXPECT_TRUE(frames->item(0)->toolTip().contains(root));
    EXPECT_EQ(frames->item(1)->toolTip(), QStringLiteral("train.py:12"));
}

}  // namespace
