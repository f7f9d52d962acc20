// SPDX-License-Identifier: Apache-2.0
// A rank of an FSDP2 job in the app: its memory report's FSDP tables (written here into the
// built-in transformer's report, as the Python host writes them for a fully_shard'ed model)
// show on the Overview, in each language, whole at the default window size, and in the
// tooltip of the unit's module in the Modules tab.
#include <gtest/gtest.h>

#include <functional>

#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "i18n/language.h"
#include "main_window.h"
#include "reading/units.h"
#include "ui/sample_run.h"
#include "views/modules_model.h"
#include "views/modules_page.h"
#include "views/overview_page.h"
#include "views/report_browser.h"

namespace trainscope::test {
namespace {

using ui::ModulesModel;
using ui::ModuleTree;

// Runs `use` with a query on the report at `path` (a connection of its own, closed after).
void withQuery(const QString& path, const std::function<void(QSqlQuery&)>& use) {
    const QString name = QStringLiteral("fsdp_rank_test");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        EXPECT_TRUE(db.open());
        QSqlQuery query(db);
        use(query);
    }
    QSqlDatabase::removeDatabase(name);
}

// The built-in transformer's memory report made a rank's: its deepest module an FSDP unit, two
// of its weights sharded over two ranks (its sharded weights table is empty), and the peak's
// all-gathered parameters and reduce-scatter buffers. Returns the unit's path, or empty with a
// failure.
QString makeFsdpRank(const QString& memory) {
    QString unit;
    withQuery(memory, [&](QSqlQuery& query) {
        auto exec = [&](const QString& sql) { EXPECT_TRUE(query.exec(sql)) << sql.toStdString(); };
        exec(
            QStringLiteral("SELECT module_path FROM trainscope_entry_modules ORDER BY "
                           "length(module_path) DESC LIMIT 1"));
        EXPECT_TRUE(query.next());
        unit = query.value(0).toString();
        exec(QStringLiteral(
            "CREATE TABLE trainscope_fsdp_units (id INTEGER PRIMARY KEY, unit TEXT NOT NULL, "
            "parameters INTEGER NOT NULL, sharded_bytes INTEGER NOT NULL, "
            "unsharded_bytes INTEGER NOT NULL, gathers INTEGER NOT NULL, "
            "prefetched INTEGER NOT NULL, gathered_ms REAL NOT NULL, "
            "unsharded_at_peak_bytes INTEGER NOT NULL, reduce_scatter_bytes INTEGER NOT NULL, "
            "gather_collective TEXT NOT NULL, gather_collectives INTEGER NOT NULL, "
            "gather_collective_bytes INTEGER, gather_collective_ms REAL NOT NULL, "
            "reduce_collective TEXT NOT NULL, reduce_collectives INTEGER NOT NULL, "
            "reduce_collective_bytes INTEGER, reduce_collective_ms REAL NOT NULL)"));
        query.prepare(QStringLiteral(
            "INSERT INTO trainscope_fsdp_units VALUES (1, ?, 4, 66176, 132352, 2, 1, 3.25, "
            "132352, 264704, 'gloo:all_gather', 2, 132352, 4.5, 'gloo:all_reduce', 1, NULL, 0.4)"));
        query.addBindValue(unit);
        EXPECT_TRUE(query.exec());
        exec(
            QStringLiteral("INSERT INTO trainscope_sharded_weights SELECT id, 2 * size_bytes, "
                           "'Shard(dim=0) over 2 ranks' FROM weight_entries ORDER BY id LIMIT 2"));
        exec(
            QStringLiteral("INSERT INTO misc_sizes (key, size_bytes) VALUES "
                           "('peak_unsharded_parameter_bytes', 1024), "
                           "('peak_reduce_scatter_bytes', 512)"));
    });
    return unit;
}

// The sharded weights' figures as the report holds them: how many, and the bytes this rank
// holds of them and their whole bytes.
struct Sharded {
    qint64 parameters = 0, count = 0, held = 0, whole = 0;
};

Sharded shardedIn(const QString& memory) {
    Sharded sharded;
    withQuery(memory, [&](QSqlQuery& query) {
        EXPECT_TRUE(query.exec(QStringLiteral(
            "SELECT (SELECT count(*) FROM weight_entries), count(*), sum(w.size_bytes), "
            "sum(s.whole_bytes) FROM trainscope_sharded_weights s JOIN weight_entries w "
            "ON w.id = s.entry_id")));
        EXPECT_TRUE(query.next());
        sharded = {query.value(0).toLongLong(), query.value(1).toLongLong(),
                   query.value(2).toLongLong(), query.value(3).toLongLong()};
    });
    return sharded;
}

class FsdpOverview : public ::testing::TestWithParam<const char*> {
  protected:
    void TearDown() override { ui::installTranslations(QLocale(QStringLiteral("en"))); }
};

// The Overview says what share of its parameters the rank holds, composed in the reader's
// language from the report's figures, and the FSDP lines wrap within the window (German's ran
// behind a horizontal scroll bar).
TEST_P(FsdpOverview, SaysTheRanksShareInItsLanguageWithinTheWindow) {
    const QString language = QString::fromLatin1(GetParam());
    ASSERT_TRUE(ui::installTranslations(QLocale(language)) || language == QLatin1String("en"));
    QTemporaryDir dir;
    const QStringList paths = copyBuiltinProfile(QStringLiteral("transformer"), dir.path());
    ASSERT_EQ(paths.size(), 3);
    ASSERT_FALSE(makeFsdpRank(paths[0]).isEmpty());
    const Sharded sharded = shardedIn(paths[0]);
    ASSERT_EQ(sharded.count, 2);

    ui::MainWindow window;
    window.resize(1100, 760);
    window.show();
    ASSERT_TRUE(openAndWait(window, {paths[0]}));
    QTabWidget* tabs = window.browser()->tabs();
    tabs->setCurrentIndex(0);
    QTest::qWait(50);
    const QString text = window.browser()->overviewText();
    const QString line =
        ui::OverviewPage::tr(
            "Sharded over the ranks: %1 of the %2 parameters (%3); this rank "
            "holds %4 of their %5.")
            .arg(QLocale().toString(sharded.count), QLocale().toString(sharded.parameters),
                 QStringLiteral("Shard(dim=0) over 2 ranks"), ui::formatBytes(sharded.held),
                 ui::formatBytes(sharded.whole));
    EXPECT_TRUE(text.contains(line)) << text.toStdString();
    EXPECT_TRUE(text.contains(ui::formatBytes(1024)) && text.contains(ui::formatBytes(512)))
        << text.toStdString();
    if (language == QLatin1String("en")) {
        EXPECT_TRUE(text.contains(QStringLiteral("Sharded over the ranks: 2 of the ")))
            << text.toStdString();
    }
    // Each line whole: the label within the page, and no horizontal scroll bar.
    for (QLabel* label : tabs->currentWidget()->findChildren<QLabel*>()) {
        if (label->text() == text) {
            EXPECT_LE(label->width(), tabs->currentWidget()->width());
        }
    }
    for (QScrollBar* bar : tabs->currentWidget()->findChildren<QScrollBar*>())
        EXPECT_FALSE(bar->orientation() == Qt::Horizontal && bar->isVisible() && bar->maximum() > 0)
            << "the Overview is " << bar->maximum() << " px wider than the window";
}

INSTANTIATE_TEST_SUITE_P(InEachLanguage, FsdpOverview, ::testing::Values("en", "de", "zh_CN"));

// The unit's row in the Modules tab says what the rank holds of it, as a user hovering it
// reads it.
TEST(ModulesFsdpUnits, AUnitsTooltipSaysWhatThisRankHoldsOfIt) {
    QTemporaryDir dir;
    const QStringList paths = copyBuiltinProfile(QStringLiteral("transformer"), dir.path());
    ASSERT_EQ(paths.size(), 3);
    const QString memory = paths[0];
    ASSERT_TRUE(memory.endsWith(QStringLiteral(".memory.sqlite")));
    const QString unit = makeFsdpRank(memory);
    ASSERT_FALSE(unit.isEmpty());

    ui::MainWindow window;
    window.show();
    ASSERT_TRUE(openAndWait(window, {memory}));
    ui::ModulesPage* page = window.browser()->modulesPage();
    ASSERT_NE(page, nullptr);
    window.browser()->tabs()->setCurrentWidget(page->parentWidget());
    ASSERT_TRUE(QTest::qWaitFor([&] { return page->isRead(); }, 10000));
    const ModulesModel* model = page->model();
    int node = -1;
    for (int i = 0; i < model->tree().size(); ++i)
        if (model->tree().node(i).path == unit)
            node = i;
    ASSERT_GE(node, 0) << unit.toStdString();
    const QString tip = model->indexOfModule(node).data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral(
        "An FSDP unit: this rank holds 64.6 KiB of its 4 parameters; gathered whole they are "
        "129.3 KiB, all-gathered 2 times in the step (1 of them prefetched) and held 3.250 ms in "
        "all; 129.3 KiB of them at the peak; its largest reduce-scatter 258.5 KiB. Its "
        "all-gathers (gloo:all_gather): 2, 129.3 KiB, 4.500 ms. Its reduce-scatters "
        "(gloo:all_reduce): 1, bytes not known, 0.400 ms.")))
        << tip.toStdString();
    // A module that is no unit says nothing of FSDP.
    EXPECT_FALSE(model->indexOfModule(ModuleTree::kRoot)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .contains(QStringLiteral("FSDP")));
}

}  // namespace
}  // namespace trainscope::test
