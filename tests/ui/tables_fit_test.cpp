// SPDX-License-Identifier: Apache-2.0
// The Memory and Time tabs' tables at the default window size (1100x760), in each language,
// on a real architecture: every column is in view (the widest, a name, is elided in its middle
// instead), and no figure that is not zero reads as zero.
#include <gtest/gtest.h>

#include <QHeaderView>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "i18n/language.h"
#include "main_window.h"
#include "report/sql_table_model.h"
#include "ui/sample_run.h"
#include "views/entry_table_view.h"
#include "views/report_browser.h"

namespace trainscope::test {
namespace {

using ui::EntryTableView;
using ui::SqlTableModel;

QString sections(QHeaderView* header) {
    QStringList sizes;
    for (int column = 0; column < header->count(); ++column)
        sizes << QString::number(header->isSectionHidden(column) ? 0 : header->sectionSize(column));
    return sizes.join(QLatin1Char(' '));
}

class TablesFitTest : public ::testing::TestWithParam<const char*> {
  protected:
    void TearDown() override { ui::installTranslations(QLocale(QStringLiteral("en"))); }
};

TEST_P(TablesFitTest, EveryColumnIsInViewAndNoFigureReadsAsZero) {
    const QString language = QString::fromLatin1(GetParam());
    ASSERT_TRUE(ui::installTranslations(QLocale(language)) || language == QLatin1String("en"));
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    ui::MainWindow window;
    ASSERT_TRUE(showBuiltinAtDefaultSize(window, QStringLiteral("transformer"), dir.path()));
    QTabWidget* tabs = window.browser()->tabs();
    // "0.0", "0,0", "0.000", "0.0 %": a figure in a column's unit that lost every digit.
    const QRegularExpression zero(QStringLiteral("^0([.,]0+)?( %)?$"));
    int tables = 0;
    for (int tab = 1; tab <= 2; ++tab) {  // Memory, Time
        tabs->setCurrentIndex(tab);
        waitForReads();
        QTest::qWait(300);
        for (EntryTableView* view : tabs->currentWidget()->findChildren<EntryTableView*>()) {
            auto* model = qobject_cast<SqlTableModel*>(view->model());
            if (!view->isVisible() || !model || model->rowCount() == 0)
                continue;
            ++tables;
            QHeaderView* header = view->horizontalHeader();
            for (int column = 0; column < model->columnCount(); ++column) {
                if (view->isColumnHidden(column))
                    continue;
                const std::string name = model->headerData(column, Qt::Horizontal, Qt::DisplayRole)
                                             .toString()
                                             .toStdString();
                EXPECT_LE(header->sectionViewportPosition(column) + header->sectionSize(column),
                          view->viewport()->width() + 1)
                    << "tab " << tab << ": column '" << name << "' is not in view (sections "
                    << sections(header).toStdString() << ")";
                for (int row = 0; row < model->rowCount(); ++row) {
                    const QModelIndex cell = model->index(row, column);
                    const QVariant raw = model->data(cell, SqlTableModel::SortRole);
                    const QString shown = model->data(cell, Qt::DisplayRole).toString();
                    if (raw.typeId() == QMetaType::QString || raw.toDouble() == 0)
                        continue;
                    EXPECT_FALSE(zero.match(shown).hasMatch())
                        << "tab " << tab << ", column '" << name << "', row " << row << ": "
                        << raw.toDouble() << " reads '" << shown.toStdString() << "'";
                }
            }
        }
    }
    EXPECT_GE(tables, 3);  // weights, activations; operations
}

INSTANTIATE_TEST_SUITE_P(Languages, TablesFitTest, ::testing::Values("en", "de", "zh_CN"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace trainscope::test
