// SPDX-License-Identifier: Apache-2.0
#include "reading/module_tree.h"

#include <QSqlError>
#include <QSqlQuery>
#include <algorithm>

#include "reading/report_file.h"
#include "reading/report_queries.h"
#include "reading/untrusted_sqlite.h"
#include "trainscope/report_format.h"

namespace trainscope::ui {
namespace {

const QLatin1String kModules(report_format::kEntryModulesTable);
const QLatin1String kNumbers(report_format::kActivationOperationsTable);

// A hostile report may name a million modules: the tree keeps this many.
constexpr int kMaxModules = 100000;

// Runs `sql` (values bound in order) and hands each row to `row`; false, with `error` set,
// when it fails.
template <typename RowFunction>
bool forEachRow(const ReportFile& report, const QString& sql, const QVariantList& values,
                RowFunction row, QString* error) {
    restartQueryClock();
    QSqlQuery query(report.database());
    query.setForwardOnly(true);
    if (query.prepare(sql)) {
        for (const QVariant& value : values)
            query.addBindValue(value);
        if (query.exec()) {
            while (query.next())
                row(query);
        }
    }
    if (query.lastError().isValid()) {
        if (error->isEmpty())
            *error = query.lastError().databaseText();
        return false;
    }
    return true;
}

// "m.module_path" of an entry's module row joined as `m` ('' outside any submodule), and that
// join, for the entries of `table` (`entry_type` 0: the run time report's one-key table).
struct ModuleJoin {
    QString path, join;
};

ModuleJoin moduleJoin(const ReportFile& report, const QString& alias, int entry_type) {
    if (!report.hasTable(report_format::kEntryModulesTable))
        return {QStringLiteral("''"), {}};
    QString on = QStringLiteral("m.entry_id = %1.id").arg(alias);
    if (entry_type)
        on += QStringLiteral(" AND m.entry_type = %1").arg(entry_type);
    return {QStringLiteral("IFNULL(substr(m.module_path, 1, %1), '')").arg(kMaxShownText),
            QStringLiteral(" LEFT JOIN %1 m ON %2").arg(kModules, on)};
}

// The entries of module `path` alone, as a WHERE clause over a moduleJoin() (a '?' for it).
QString ofModule(const ReportFile& report) {
    if (!report.hasTable(report_format::kEntryModulesTable))
        return QStringLiteral("? = ''");
    return QStringLiteral("IFNULL(substr(m.module_path, 1, %1), '') = ?").arg(kMaxShownText);
}

// A run time entry's forward, backward, after backward and optimizer time by its part of the
// step (no row in trainscope_entry_parts: forward), as SQL expressions over `e` and `join`.
struct PartColumns {
    QString forward, backward, after_backward, optimizer, join;
    QString all() const {
        return QStringLiteral("%1, %2, %3, %4").arg(forward, backward, after_backward, optimizer);
    }
    QString sums() const {
        return QStringLiteral("SUM(%1), SUM(%2), SUM(%3), SUM(%4)")
            .arg(forward, backward, after_backward, optimizer);
    }
};

PartColumns partColumns(const ReportFile& report) {
    if (!report.hasTable(report_format::kEntryPartsTable))
        return {QStringLiteral("e.forward_ms"),
                QStringLiteral("IFNULL(e.backward_ms, 0)"),
                QStringLiteral("0"),
                QStringLiteral("0"),
                {}};
    const QString part = QStringLiteral("p.part");
    return {QStringLiteral("CASE WHEN %1 IS NULL THEN e.forward_ms ELSE 0 END").arg(part),
            QStringLiteral("IFNULL(e.backward_ms, 0) + "
                           "CASE WHEN %1 = '%2' THEN e.forward_ms ELSE 0 END")
                .arg(part, QLatin1String(report_format::kPartRecomputed)),
            QStringLiteral("CASE WHEN %1 = '%2' THEN e.forward_ms ELSE 0 END")
                .arg(part, QLatin1String(report_format::kPartAfterBackward)),
            QStringLiteral("CASE WHEN %1 = '%2' THEN e.forward_ms ELSE 0 END")
                .arg(part, QLatin1String(report_format::kPartOptimizer)),
            QStringLiteral(" LEFT JOIN %1 p ON p.entry_id = e.id")
                .arg(QLatin1String(report_format::kEntryPartsTable))};
}

}  // namespace

void ModuleFigures::add(const ModuleFigures& other) {
    forward_ms += other.forward_ms;
    backward_ms += other.backward_ms;
    after_backward_ms += other.after_backward_ms;
    optimizer_ms += other.optimizer_ms;
    operations += other.operations;
    activation_bytes += other.activation_bytes;
    weight_bytes += other.weight_bytes;
    gradient_bytes += other.gradient_bytes;
    if (other.first_operation > 0 &&
        (first_operation == 0 || other.first_operation < first_operation))
        first_operation = other.first_operation;
    last_operation = std::max(last_operation, other.last_operation);
}

int ModuleTree::nodeOf(const QString& path) {
    if (const int found = index_.value(path, -1); found >= 0)
        return found;
    const int dot = path.lastIndexOf(QLatin1Char('.'));
    const int parent = nodeOf(dot < 0 ? QString() : path.left(dot));
    ModuleNode node;
    node.path = path;
    node.name = dot < 0 ? path : path.mid(dot + 1);
    node.parent = parent;
    nodes_.push_back(node);
    const int index = int(nodes_.size()) - 1;
    nodes_[parent].children.push_back(index);
    index_.insert(path, index);
    return index;
}

ModuleTree ModuleTree::build(const QHash<QString, ModuleFigures>& self) {
    ModuleTree tree;
    tree.nodes_.push_back(ModuleNode{});
    tree.index_.insert(QString(), kRoot);
    // Sorted paths: the tree comes out the same whatever the hash's order.
    QStringList paths = self.keys();
    std::sort(paths.begin(), paths.end());
    for (const QString& path : paths)
        tree.nodes_[tree.nodeOf(path)].self = self.value(path);
    // Children come after their parents (nodeOf makes the parent first): summing from the
    // last node up gives each its inclusive figures.
    for (ModuleNode& node : tree.nodes_)
        node.inclusive = node.self;
    for (int i = tree.size() - 1; i > kRoot; --i)
        tree.nodes_[tree.nodes_[i].parent].inclusive.add(tree.nodes_[i].inclusive);
    // Submodules in the order they run; those without operations after them, by name.
    for (ModuleNode& node : tree.nodes_) {
        std::stable_sort(node.children.begin(), node.children.end(), [&](int a, int b) {
            const qint64 first_a = tree.nodes_[a].inclusive.first_operation;
            const qint64 first_b = tree.nodes_[b].inclusive.first_operation;
            if ((first_a == 0) != (first_b == 0))
                return first_b == 0;
            return first_a < first_b;
        });
    }
    return tree;
}

QHash<QString, ModuleFigures> readModuleFigures(const ReportFile* memory, const ReportFile* time,
                                                QString* error) {
    QHash<QString, ModuleFigures> figures;
    const QString limit = QStringLiteral(" GROUP BY 1 LIMIT %1").arg(kMaxModules);
    if (time) {
        const ModuleJoin module = moduleJoin(*time, QStringLiteral("e"), 0);
        const PartColumns parts = partColumns(*time);
        forEachRow(
            *time,
            QStringLiteral("SELECT %1, COUNT(*), %2, MIN(e.id), MAX(e.id) FROM %3 e")
                    .arg(module.path, parts.sums(),
                         QLatin1String(report_format::kRunTimeEntriesTable)) +
                module.join + parts.join + limit,
            {},
            [&](const QSqlQuery& row) {
                ModuleFigures& f = figures[row.value(0).toString()];
                f.operations = row.value(1).toLongLong();
                f.forward_ms = row.value(2).toDouble();
                f.backward_ms = row.value(3).toDouble();
                f.after_backward_ms = row.value(4).toDouble();
                f.optimizer_ms = row.value(5).toDouble();
                f.first_operation = row.value(6).toLongLong();
                f.last_operation = row.value(7).toLongLong();
            },
            error);
    }
    if (memory) {
        ModuleJoin module =
            moduleJoin(*memory, QStringLiteral("a"), report_format::kEntryTypeActivation);
        forEachRow(
            *memory,
            QStringLiteral("SELECT %1, SUM(a.size_bytes) FROM %2 a")
                    .arg(module.path, QLatin1String(report_format::kActivationEntriesTable)) +
                module.join + limit,
            {},
            [&](const QSqlQuery& row) {
                figures[row.value(0).toString()].activation_bytes = row.value(1).toLongLong();
            },
            error);
        module = moduleJoin(*memory, QStringLiteral("w"), report_format::kEntryTypeWeight);
        forEachRow(
            *memory,
            QStringLiteral("SELECT %1, SUM(w.size_bytes), SUM(w.grad_size_bytes) FROM %2 w")
                    .arg(module.path, QLatin1String(report_format::kWeightEntriesTable)) +
                module.join + limit,
            {},
            [&](const QSqlQuery& row) {
                ModuleFigures& f = figures[row.value(0).toString()];
                f.weight_bytes = row.value(1).toLongLong();
                f.gradient_bytes = row.value(2).toLongLong();
            },
            error);
        if (memory->hasTable(report_format::kWeightDetailsTable)) {
            // A tied weight's other names, each in the module that holds the attribute.
            forEachRow(
                *memory,
                QStringLiteral("SELECT substr(w.name, 1, %1), substr(d.aliases, 1, %1) FROM %2 w "
                               "JOIN %3 d ON d.entry_id = w.id WHERE d.aliases != '' LIMIT %4")
                    .arg(kMaxShownText)
                    .arg(QLatin1String(report_format::kWeightEntriesTable),
                         QLatin1String(report_format::kWeightDetailsTable))
                    .arg(kMaxModules),
                {},
                [&](const QSqlQuery& row) {
                    const QString weight = row.value(0).toString();
                    for (const QString& alias :
                         row.value(1).toString().split(QStringLiteral(", "), Qt::SkipEmptyParts)) {
                        const QString module = alias.section(QLatin1Char('.'), 0, -2);
                        figures[module].tied_to << weight;
                    }
                },
                error);
        }
        if (memory->hasTable(report_format::kFsdpUnitsTable)) {
            forEachRow(
                *memory,
                QStringLiteral("SELECT substr(unit, 1, %1), parameters, sharded_bytes, "
                               "unsharded_bytes, gathers, prefetched, gathered_ms, "
                               "unsharded_at_peak_bytes, reduce_scatter_bytes, "
                               "substr(gather_collective, 1, %1), gather_collectives, "
                               "ifnull(gather_collective_bytes, -1), gather_collective_ms, "
                               "substr(reduce_collective, 1, %1), reduce_collectives, "
                               "ifnull(reduce_collective_bytes, -1), reduce_collective_ms "
                               "FROM %2 LIMIT %3")
                    .arg(kMaxShownText)
                    .arg(QLatin1String(report_format::kFsdpUnitsTable))
                    .arg(kMaxModules),
                {},
                [&](const QSqlQuery& row) {
                    FsdpUnitEntry unit;
                    unit.unit = row.value(0).toString().toStdString();
                    unit.parameters = row.value(1).toInt();
                    unit.sharded_bytes = row.value(2).toLongLong();
                    unit.unsharded_bytes = row.value(3).toLongLong();
                    unit.gathers = row.value(4).toInt();
                    unit.prefetched = row.value(5).toInt();
                    unit.gathered_ms = row.value(6).toDouble();
                    unit.unsharded_at_peak_bytes = row.value(7).toLongLong();
                    unit.reduce_scatter_bytes = row.value(8).toLongLong();
                    for (auto [first, c] : {std::pair{9, &unit.gathering}, {13, &unit.reducing}}) {
                        c->name = row.value(first).toString().toStdString();
                        c->count = row.value(first + 1).toInt();
                        c->bytes = row.value(first + 2).toLongLong();
                        c->ms = row.value(first + 3).toDouble();
                    }
                    figures[row.value(0).toString()].fsdp_unit = unit;
                },
                error);
        }
    }
    return figures;
}

ModuleOperations readModuleOperations(const ReportFile* memory, const ReportFile* time,
                                      const QString& path, int limit) {
    ModuleOperations result;
    QString* error = &result.error;
    QHash<qint64, int> by_number;  // index in result.operations
    if (time) {
        const ModuleJoin module = moduleJoin(*time, QStringLiteral("e"), 0);
        const PartColumns parts = partColumns(*time);
        forEachRow(
            *time,
            QStringLiteral("SELECT e.id, substr(e.operation_name, 1, %1), %2 FROM %3 e")
                    .arg(kMaxShownText)
                    .arg(parts.all(), QLatin1String(report_format::kRunTimeEntriesTable)) +
                module.join + parts.join + QStringLiteral(" WHERE ") + ofModule(*time) +
                QStringLiteral(" ORDER BY e.id LIMIT %1").arg(limit),
            {path},
            [&](const QSqlQuery& row) {
                by_number.insert(row.value(0).toLongLong(), result.operations.size());
                result.operations.push_back({row.value(0).toLongLong(), row.value(1).toString(),
                                             row.value(2).toDouble(), row.value(3).toDouble(),
                                             row.value(4).toDouble(), row.value(5).toDouble(), 0});
            },
            error);
    }
    if (!memory)
        return result;
    const bool numbered = memory->hasTable(report_format::kActivationOperationsTable);
    const ModuleJoin module =
        moduleJoin(*memory, QStringLiteral("a"), report_format::kEntryTypeActivation);
    const QString number =
        numbered ? QStringLiteral("IFNULL(o.operation_number, -a.id)") : QStringLiteral("-a.id");
    const QString numbers =
        numbered ? QStringLiteral(" LEFT JOIN %1 o ON o.entry_id = a.id").arg(kNumbers) : QString();
    forEachRow(
        *memory,
        QStringLiteral("SELECT %1, substr(a.operation_name, 1, %2), SUM(a.size_bytes) "
                       "FROM %3 a")
                .arg(number)
                .arg(kMaxShownText)
                .arg(QLatin1String(report_format::kActivationEntriesTable)) +
            numbers + module.join + QStringLiteral(" WHERE ") + ofModule(*memory) +
            QStringLiteral(" GROUP BY 1 ORDER BY 1 LIMIT %1").arg(limit),
        {path},
        [&](const QSqlQuery& row) {
            const qint64 key = row.value(0).toLongLong();
            if (const int at = by_number.value(key, -1); at >= 0) {
                result.operations[at].activation_bytes = row.value(2).toLongLong();
            } else if (!time) {  // a memory report alone: its activations are the list
                result.operations.push_back(
                    {key, row.value(1).toString(), 0, 0, 0, 0, row.value(2).toLongLong()});
            }
        },
        error);
    return result;
}

}  // namespace trainscope::ui
