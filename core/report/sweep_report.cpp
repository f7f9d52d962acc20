// SPDX-License-Identifier: Apache-2.0
// The sweep report (PREFIX.sweep.sqlite): written as every report is (staged, then moved into
// place), read back as untrusted input.
#include <algorithm>
#include <climits>
#include <cmath>

#include "report/readonly_db.h"
#include "report/report_tables.h"
#include "report/schema.h"
#include "report/sqlite_db.h"
#include "report/staged_file.h"
#include "report/timeline_reading.h"
#include "trainscope/error.h"
#include "trainscope/report_format.h"
#include "trainscope/report_reading.h"
#include "trainscope/sweep_report.h"

namespace trainscope {
namespace {

namespace rf = report_format;

const char* kMeasured = "measured";
const char* kOutOfMemory = "out_of_memory";
const char* kVerified = "verified";

void insertPoint(SqliteStatement& insert, const SweepPoint& point, const char* outcome) {
    insert.bind(1, int64_t{point.batch_size}).bind(2, std::string_view(outcome));
    if (point.out_of_memory) {
        for (int column = 3; column <= 7; ++column)
            insert.bindNull(column);
    } else {
        insert.bind(3, int64_t{point.peak_bytes})
            .bind(4, int64_t{point.activation_bytes})
            .bind(5, int64_t{point.weight_bytes})
            .bind(6, point.iteration_ms)
            .bind(7, point.samplesPerSecond());
    }
    insert.step();
}

void fill(SqliteDb& db, const SweepReport& report) {
    createTables(db, std::begin(schema::kSweepTables), std::end(schema::kSweepTables));
    SqliteStatement points(
        db, std::string("INSERT INTO ") + rf::kSweepPointsTable + " VALUES (?, ?, ?, ?, ?, ?, ?)");
    for (const SweepPoint& point : report.points)
        insertPoint(points, point, point.out_of_memory ? kOutOfMemory : kMeasured);
    if (report.verified) {
        insertPoint(points, *report.verified,
                    report.verified->out_of_memory ? kOutOfMemory : kVerified);
    }
    SqliteStatement fits(
        db, std::string("INSERT INTO ") + rf::kSweepFitsTable + " VALUES (?, ?, ?, ?, ?, ?)");
    const std::pair<const char*, const LinearFit*> lines[] = {
        {"peak_bytes", &report.peak},
        {"activation_bytes", &report.activations},
        {"iteration_ms", &report.iteration}};
    for (const auto& [quantity, fit] : lines) {
        fits.bind(1, std::string_view(quantity))
            .bind(2, fit->intercept)
            .bind(3, fit->slope)
            .bind(4, fit->r_squared)
            .bind(5, fit->max_residual)
            .bind(6, int64_t{fit->points})
            .step();
    }
    RunMetadata metadata = report.metadata;
    metadata[rf::kBudgetBytesKey] = std::to_string(report.budget_bytes);
    metadata[rf::kBudgetSourceKey] = report.budget_source;
    if (report.largest_batch) {
        metadata[rf::kLargestBatchKey] = std::to_string(*report.largest_batch);
    }
    insertMetadata(db, metadata);
}

double finiteNumber(const ReadOnlyDb& db, double value, const char* what) {
    if (!std::isfinite(value)) {
        throw Error(db.path() + ": " + what + " is not a finite number (a damaged report)");
    }
    return value;
}

int64_t nonNegative(const ReadOnlyDb& db, int64_t value, const char* what) {
    if (value < 0) {
        throw Error(db.path() + ": a negative " + what + " (a damaged report)");
    }
    return value;
}

}  // namespace

void writeSweepReport(const SweepReport& report, const std::string& path, Overwrite overwrite) {
    checkOutputPath(path, overwrite);
    const std::unique_ptr<StagedFile> staged =
        writeStaged(path, [&](SqliteDb& db) { fill(db, report); });
    commitTogether({staged.get()}, overwrite);
}

bool isSweepReport(const std::string& path) {
    if (!notAReportFile(path).empty()) {
        return false;
    }
    try {
        return ReadOnlyDb(path).hasTable(rf::kSweepPointsTable);
    } catch (const Error&) {
        return false;
    }
}

SweepReport readSweepReport(const std::string& path) {
    if (const std::string why = notAReportFile(path); !why.empty()) {
        throw Error(path + ": " + why);
    }
    const ReadOnlyDb db(path);
    if (!db.hasTable(rf::kSweepPointsTable) || !db.hasTable(rf::kSweepFitsTable)) {
        throw Error(path + ": not a sweep report (no " + rf::kSweepPointsTable + " or " +
                    rf::kSweepFitsTable + " table)");
    }
    requireColumns(db, rf::kSweepPointsTable,
                   {"batch_size", "outcome", "peak_bytes", "activation_bytes", "weight_bytes",
                    "iteration_ms"});
    requireColumns(db, rf::kSweepFitsTable,
                   {"quantity", "intercept", "slope", "r_squared", "max_residual", "points"});
    SweepReport report;
    // A sweep measures a handful of sizes: a file with more rows than this is not one of ours.
    constexpr size_t kMostPoints = 10000;
    ReadQuery points(db, std::string("SELECT batch_size, outcome, peak_bytes, activation_bytes, "
                                     "weight_bytes, iteration_ms FROM ") +
                             rf::kSweepPointsTable +
                             " ORDER BY outcome = 'out_of_memory', "
                             "batch_size");
    while (points.step()) {
        if (report.points.size() >= kMostPoints) {
            throw Error(path + ": more than " + std::to_string(kMostPoints) + " batch sizes");
        }
        SweepPoint point;
        point.batch_size = points.integer(0);
        if (point.batch_size < 1) {
            throw Error(path + ": a batch size below 1 (a damaged report)");
        }
        const std::string outcome = points.text(1);
        point.out_of_memory = outcome == kOutOfMemory;
        if (!point.out_of_memory) {
            if (points.isNull(2) || points.isNull(5)) {
                throw Error(path + ": a measured batch size without its figures");
            }
            point.peak_bytes = nonNegative(db, points.integer(2), "peak");
            point.activation_bytes = nonNegative(db, points.integer(3), "activation size");
            point.weight_bytes = nonNegative(db, points.integer(4), "weight size");
            point.iteration_ms = finiteNumber(db, points.real(5), "an iteration time");
        }
        if (outcome == kVerified) {
            report.verified = point;
        } else {
            report.points.push_back(point);
        }
    }
    ReadQuery fits(db, std::string("SELECT quantity, intercept, slope, r_squared, max_residual, "
                                   "points FROM ") +
                           rf::kSweepFitsTable);
    while (fits.step()) {
        LinearFit fit{finiteNumber(db, fits.real(1), "a fit's intercept"),
                      finiteNumber(db, fits.real(2), "a fit's slope"),
                      finiteNumber(db, fits.real(3), "a fit's R²"),
                      finiteNumber(db, fits.real(4), "a fit's residual"),
                      static_cast<int>(std::min<int64_t>(fits.integer(5), INT32_MAX))};
        const std::string quantity = fits.text(0);
        if (quantity == "peak_bytes") {
            report.peak = fit;
        } else if (quantity == "activation_bytes") {
            report.activations = fit;
        } else if (quantity == "iteration_ms") {
            report.iteration = fit;
        }
    }
    if (db.hasTable(rf::kMetadataTable)) {
        ReadQuery meta(db, std::string("SELECT key, value FROM ") + rf::kMetadataTable);
        while (meta.step())
            report.metadata[meta.text(0)] = meta.text(1);
    }
    const auto number = [&](const char* key) -> std::optional<double> {
        const auto found = report.metadata.find(key);
        if (found == report.metadata.end()) {
            return std::nullopt;
        }
        const std::optional<double> value = nonNegativeNumber(found->second);
        return value ? std::optional<double>(std::min(*value, 9e18)) : std::nullopt;
    };
    report.budget_bytes = static_cast<int64_t>(number(rf::kBudgetBytesKey).value_or(0));
    report.budget_source = report.metadata[rf::kBudgetSourceKey];
    if (const auto largest = number(rf::kLargestBatchKey)) {
        report.largest_batch = static_cast<int64_t>(*largest);
    }
    return report;
}

}  // namespace trainscope
