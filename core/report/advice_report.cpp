// SPDX-License-Identifier: Apache-2.0
// The advice report (PREFIX.advice.sqlite): written as every report is (staged, then moved into
// place), read back as untrusted input.
#include "trainscope/advice_report.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "decimal_text.h"
#include "report/readonly_db.h"
#include "report/report_tables.h"
#include "report/schema.h"
#include "report/sqlite_db.h"
#include "report/staged_file.h"
#include "report/timeline_reading.h"
#include "trainscope/error.h"
#include "trainscope/report_format.h"
#include "trainscope/report_reading.h"

namespace trainscope {
namespace {

namespace rf = report_format;

// A what-if list is a handful of rows: a file with more is not one of ours.
constexpr size_t kMostWhatIfs = 10000;

void fill(SqliteDb& db, const AdviceReport& report) {
    const char* const tables[] = {schema::kWhatIfsTable};
    createTables(db, std::begin(tables), std::end(tables));
    SqliteStatement insert(db, std::string("INSERT INTO ") + rf::kWhatIfsTable +
                                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    int64_t id = 1;
    for (const WhatIf& w : report.what_ifs) {
        insert.bind(1, id++).bind(2, w.change).bind(3, w.target);
        insert.bind(4, w.predicted.peak_bytes).bind(5, w.predicted.activation_bytes);
        if (w.step_predicted) {
            insert.bind(6, w.predicted.step_ms);
        } else {
            insert.bindNull(6);
        }
        if (w.measured) {
            insert.bind(7, w.measured->peak_bytes).bind(8, w.measured->activation_bytes);
            insert.bind(9, w.measured->step_ms);
        } else {
            insert.bindNull(7).bindNull(8).bindNull(9);
        }
        insert.bind(10, w.why_not);
        if (w.source_file.empty() || w.source_line <= 0) {
            insert.bindNull(11).bindNull(12);
        } else {
            insert.bind(11, w.source_file).bind(12, int64_t{w.source_line});
        }
        if (w.step_ratio) {
            insert.bind(13, w.step_ratio->median).bind(14, w.step_ratio->low);
            insert.bind(15, w.step_ratio->high).bind(16, int64_t{w.step_ratio->pairs});
        } else {
            insert.bindNull(13).bindNull(14).bindNull(15).bindNull(16);
        }
        if (w.not_predicted.empty()) {
            insert.bindNull(17);
        } else {
            insert.bind(17, w.not_predicted);
        }
        insert.step();
    }
    RunMetadata metadata = report.metadata;
    metadata[kBaselinePeakKey] = std::to_string(report.baseline.peak_bytes);
    metadata[kBaselineActivationsKey] = std::to_string(report.baseline.activation_bytes);
    metadata[kBaselineStepKey] = decimalText(report.baseline.step_ms);
    if (report.budget_bytes) {
        metadata[kMemoryBudgetKey] = std::to_string(*report.budget_bytes);
    }
    insertMetadata(db, metadata);
}

int64_t bytesOf(const ReadOnlyDb& db, const ReadQuery& row, int column) {
    const int64_t value = row.integer(column);
    if (value < 0) {
        throw Error(db.path() + ": a negative size (a damaged report)");
    }
    return value;
}

double msOf(const ReadOnlyDb& db, const ReadQuery& row, int column) {
    const double value = row.real(column);
    if (!std::isfinite(value) || value < 0) {
        throw Error(db.path() + ": a step time that is no finite, non-negative number");
    }
    return value;
}

}  // namespace

MemoryEffect memoryEffect(const WhatIf& what_if, const StepFigures& baseline) {
    const StepFigures& figures = what_if.measured ? *what_if.measured : what_if.predicted;
    MemoryEffect effect;
    effect.measured = what_if.measured.has_value();
    effect.peak_change = figures.peak_bytes - baseline.peak_bytes;
    effect.activation_change = figures.activation_bytes - baseline.activation_bytes;
    effect.worse =
        what_if.target != "the inputs" &&
        (effect.peak_change > 0 || (effect.peak_change == 0 && effect.activation_change > 0));
    return effect;
}

void writeAdviceReport(const AdviceReport& report, const std::string& path, Overwrite overwrite) {
    checkOutputPath(path, overwrite);
    const std::unique_ptr<StagedFile> staged =
        writeStaged(path, [&](SqliteDb& db) { fill(db, report); });
    commitTogether({staged.get()}, overwrite);
}

bool isAdviceReport(const std::string& path) {
    if (!notAReportFile(path).empty()) {
        return false;
    }
    try {
        return ReadOnlyDb(path).hasTable(rf::kWhatIfsTable);
    } catch (const Error&) {
        return false;
    }
}

AdviceReport readAdviceReport(const std::string& path) {
    if (const std::string why = notAReportFile(path); !why.empty()) {
        throw Error(path + ": " + why);
    }
    const ReadOnlyDb db(path);
    if (!db.hasTable(rf::kWhatIfsTable)) {
        throw Error(path + ": not an advice report (no " + rf::kWhatIfsTable + " table)");
    }
    requireColumns(db, rf::kWhatIfsTable,
                   {"id", "change", "target", "predicted_peak_bytes", "predicted_activation_bytes",
                    "predicted_step_ms", "measured_peak_bytes", "measured_activation_bytes",
                    "measured_step_ms", "why_not"});
    AdviceReport report;
    // Reports written before the what-ifs had their line, their step ratio or what they leave
    // out lack those columns.
    const auto columns = db.columns(rf::kWhatIfsTable);
    ReadQuery rows(
        db, std::string("SELECT substr(CAST(change AS TEXT), 1, 4097), "
                        "substr(CAST(target AS TEXT), 1, 4097), "
                        "predicted_peak_bytes, predicted_activation_bytes, "
                        "predicted_step_ms, measured_peak_bytes, "
                        "measured_activation_bytes, measured_step_ms, "
                        "substr(CAST(why_not AS TEXT), 1, 4097), ") +
                (columns.count("source_line")
                     ? "substr(CAST(source_file AS TEXT), 1, 4097), source_line"
                     : "NULL, NULL") +
                (columns.count("step_pairs")
                     ? ", step_ratio, step_ratio_low, step_ratio_high, step_pairs"
                     : ", NULL, NULL, NULL, NULL") +
                (columns.count("not_predicted") ? ", substr(CAST(not_predicted AS TEXT), 1, 4097)"
                                                : ", NULL") +
                " FROM " + rf::kWhatIfsTable + " ORDER BY id");
    while (rows.step()) {
        if (report.what_ifs.size() >= kMostWhatIfs) {
            throw Error(path + ": more than " + std::to_string(kMostWhatIfs) + " what-ifs");
        }
        WhatIf w;
        w.change = shownText(rows.text(0));
        w.target = shownText(rows.text(1));
        w.step_predicted = !rows.isNull(4);
        w.predicted = {bytesOf(db, rows, 2), bytesOf(db, rows, 3),
                       w.step_predicted ? msOf(db, rows, 4) : 0.0};
        if (!rows.isNull(5) && !rows.isNull(6) && !rows.isNull(7)) {
            w.measured = StepFigures{bytesOf(db, rows, 5), bytesOf(db, rows, 6), msOf(db, rows, 7)};
        }
        w.why_not = shownText(rows.text(8));
        if (!rows.isNull(9) && !rows.isNull(10) && rows.integer(10) > 0 &&
            rows.integer(10) <= std::numeric_limits<int>::max()) {
            w.source_file = shownText(rows.text(9));
            w.source_line = static_cast<int>(rows.integer(10));
        }
        if (!rows.isNull(11) && !rows.isNull(12) && !rows.isNull(13) && !rows.isNull(14)) {
            StepRatio ratio{rows.real(11), rows.real(12), rows.real(13),
                            static_cast<int>(std::clamp<int64_t>(rows.integer(14), 0, 1 << 20))};
            if (!std::isfinite(ratio.median) || !std::isfinite(ratio.low) ||
                !std::isfinite(ratio.high) || ratio.low <= 0 || ratio.low > ratio.median ||
                ratio.median > ratio.high || ratio.pairs < 1) {
                throw Error(path +
                            ": a step ratio that is no range of positive numbers around "
                            "its median (a damaged report)");
            }
            w.step_ratio = ratio;
        }
        if (!rows.isNull(15)) {
            w.not_predicted = shownText(rows.text(15));
        }
        report.what_ifs.push_back(std::move(w));
    }
    if (db.hasTable(rf::kMetadataTable)) {
        ReadQuery meta(
            db, std::string("SELECT key, value FROM ") + rf::kMetadataTable + " LIMIT 10000");
        while (meta.step())
            report.metadata[shownText(meta.text(0))] = shownText(meta.text(1));
    }
    auto number = [&](const char* key) {
        const auto found = report.metadata.find(key);
        const std::optional<double> value =
            found == report.metadata.end() ? std::nullopt : nonNegativeNumber(found->second);
        return value ? std::min(*value, 9e18) : 0.0;
    };
    report.baseline = {static_cast<int64_t>(number(kBaselinePeakKey)),
                       static_cast<int64_t>(number(kBaselineActivationsKey)),
                       number(kBaselineStepKey)};
    if (report.metadata.count(kMemoryBudgetKey)) {
        report.budget_bytes = static_cast<int64_t>(number(kMemoryBudgetKey));
    }
    return report;
}

}  // namespace trainscope
