// SPDX-License-Identifier: Apache-2.0
// The Memory and Time tabs' tables at the default window size (1100x760), in each language,
// on a real architecture: every column is in view (names are elided in their middle instead, the
// row's name last), and no figure that is not zero reads as zero.
#include <gtest/gtest.h>

#include <QHeaderView>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <vector>

#include "i18n/language.h"
#include "main_window.h"
#include "reading/sql_table_model.h"
#include "reading/units.h"
#include "source/source_viewer.h"
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

// Every column is in view, and no figure that is not zero reads as zero.
void expectColumnsInViewAndFiguresNotZero(int tab, EntryTableView* view, SqlTableModel* model) {
    // "0.0", "0,0", "0.000", "0.0 %": a figure in a column's unit that lost every digit.
    static const QRegularExpression zero(QStringLiteral("^0([.,]0+)?( %)?$"));
    QHeaderView* header = view->horizontalHeader();
    for (int column = 0; column < model->columnCount(); ++column) {
        if (view->isColumnHidden(column))
            continue;
        const std::string name =
            model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString().toStdString();
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

// What a column's contents and header want, as the table sizes it to them.
int wantedWidth(EntryTableView* view, int column) {
    return std::max(view->horizontalHeader()->sectionSizeHint(column),
                    static_cast<QAbstractItemView*>(view)->sizeHintForColumn(column));
}

// The row's name, the widest column of text, is cut short only when every other column of
// text is at its narrowest already: German headers once left every weight's name at
// 'layer…eight' beside a Module column in full (which the weights table no longer has: the
// name holds the module). Returns whether the table has other text than the name.
bool expectNameElidedLast(int tab, EntryTableView* view, SqlTableModel* model) {
    std::vector<int> texts;  // left-aligned: text
    for (int column = 0; column < model->columnCount(); ++column) {
        if (!view->isColumnHidden(column) &&
            (model->index(0, column).data(Qt::TextAlignmentRole).toInt() & Qt::AlignLeft))
            texts.push_back(column);
    }
    if (texts.size() < 2)
        return false;
    const int name = *std::max_element(texts.begin(), texts.end(), [&](int a, int b) {
        return wantedWidth(view, a) < wantedWidth(view, b);
    });
    QHeaderView* header = view->horizontalHeader();
    if (header->sectionSize(name) >= wantedWidth(view, name))
        return true;  // the name is whole
    for (int column : texts) {
        if (column == name)
            continue;
        EXPECT_LE(header->sectionSize(column),
                  std::min(view->narrowestTextColumn(), wantedWidth(view, column)))
            << "tab " << tab << ": '"
            << model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString().toStdString()
            << "' keeps room that the elided '"
            << model->headerData(name, Qt::Horizontal, Qt::DisplayRole).toString().toStdString()
            << "' needs (sections " << sections(header).toStdString() << ")";
    }
    return true;
}

// Both checks on one profile per language: under AddressSanitizer each takes half a minute.
TEST_P(TablesFitTest, EveryColumnIsInViewNoFigureReadsAsZeroAndNamesAreElidedLast) {
    const QString language = QString::fromLatin1(GetParam());
    ASSERT_TRUE(ui::installTranslations(QLocale(language)) || language == QLatin1String("en"));
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    ui::MainWindow window;
    ASSERT_TRUE(showBuiltinAtDefaultSize(window, QStringLiteral("transformer"), dir.path()));
    QTabWidget* tabs = window.browser()->tabs();
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
            expectColumnsInViewAndFiguresNotZero(tab, view, model);
            expectNameElidedLast(tab, view, model);
        }
    }
    EXPECT_GE(tables, 3);  // weights, activations; operations
}

// A share or a figure that is not zero never reads as zero: the Modules tab's "(0.0 %)" beside
// a module's own bytes, the source margin's "0.0 MiB" for a line's activations.
TEST(NothingReadsAsZero, SharesAndTheSourceMargin) {
    EXPECT_EQ(ui::shareText(1, 100'000), QStringLiteral("< 0.1"));
    EXPECT_EQ(ui::shareText(0, 100'000), QStringLiteral("0.0"));
    EXPECT_EQ(ui::shareText(60, 1'000), QStringLiteral("6.0"));
    EXPECT_EQ(ui::shareText(1, 0), QStringLiteral("–"));
    ui::SourceViewer viewer;
    // The largest line's 20 MiB sets the unit: another's 1 KiB is not 0.0 MiB.
    viewer.setLineCosts({{3, 0.812}, {4, 40.0}}, {{3, 1024}, {4, 20 << 20}});
    EXPECT_EQ(viewer.costText(3), QStringLiteral("0.812 ms  < 0.1 MiB"));
    ASSERT_TRUE(ui::installTranslations(QLocale(QStringLiteral("de"))));
    EXPECT_EQ(ui::shareText(1, 100'000), QStringLiteral("< 0,1"));
    ui::installTranslations(QLocale(QStringLiteral("en")));
}

INSTANTIATE_TEST_SUITE_P(Languages, TablesFitTest, ::testing::Values("en", "de", "zh_CN"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace trainscope::test
