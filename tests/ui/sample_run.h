// SPDX-License-Identifier: Apache-2.0
// Test helper for the widget tests: a small run (both reports, written by the engine's own
// writer) next to the project sources its frames point at, in a fresh folder.
#pragma once

#include <gtest/gtest.h>

#include <QChart>
#include <QString>
#include "main_window.h"

class QListWidget;
class QTableView;

namespace trainscope::ui {
class ReportBrowser;
class SqlTableModel;
}  // namespace trainscope::ui

namespace trainscope::test {

class SampleRunTest : public ::testing::Test {
  protected:
    void SetUp() override;
    void TearDown() override;
    QString path(const QString& name) const { return dir_ + QLatin1Char('/') + name; }
    QString dir_;
};

// The sample run opened (through its run time report) in a shown main window.
class OpenedRunTest : public SampleRunTest {
  protected:
    void SetUp() override;
    ui::MainWindow window_;
    ui::ReportBrowser* browser_ = nullptr;
};

// The sample project's files and the lines its frames name.
inline constexpr int kModelLinearLine = 12;  // model.py: the call of the linear layer
inline constexpr int kLayersLinearLine = 7;  // layers.py: the aten::linear call

// Copies the profile of built-in model `name` (one warm-up, one measured iteration) that the
// test fixture.builtin_profiles made into `dir` as NAME.*.sqlite (each test making its own took
// seconds, tens of them under the sanitizers). Returns the files (memory, time, timeline); none
// if the fixture has not made them.
QStringList copyBuiltinProfile(const QString& name, const QString& dir);

// Opens reports as a user does, then waits until the window shows them (true) or has said why
// it cannot (false).
bool openAndWait(ui::MainWindow& window, const QStringList& paths);
// Copies built-in model `name`'s profile into `dir` and opens its run in `window`, shown at the
// default size (1100x760; on the offscreen platform's 800x800 screen it would take the screen's
// size), with every read done: what a user sees first. False when the run could not be copied or
// opened.
bool showBuiltinAtDefaultSize(ui::MainWindow& window, const QString& name, const QString& dir);
// Waits until every read that the app's report browsers asked of their runs (table pages,
// stack frames, charts) has come back and is shown.
void waitForReads();
// Waits until the model's page asked for last has come.
void waitForRows(ui::SqlTableModel* model);
// Clicks a row, then waits for what that reads (its frames).
void clickRow(QTableView* view, int row);
void clickItem(QListWidget* list, int row);
QStringList items(QListWidget* list);
// A chart's horizontal value axis's ticks, as its label format writes them.
QStringList tickLabels(QChart* chart);

}  // namespace trainscope::test
