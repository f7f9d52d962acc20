// SPDX-License-Identifier: Apache-2.0
#include "reading/units.h"

#include <QObject>
#include <cmath>

#include "reading/sql_table_model.h"

namespace trainscope::ui {

Unit timeUnit(double largest_ms) {
    if (largest_ms >= 10000)
        return {QObject::tr("s"), 1000, 3};
    if (largest_ms > 0 && largest_ms < 1)
        return {QObject::tr("µs"), 0.001, 1};
    return {QObject::tr("ms"), 1, 3};
}

Unit byteUnit(double largest_bytes) {
    const double kib = 1024;
    if (largest_bytes >= kib * kib * kib)
        return {QObject::tr("GiB"), kib * kib * kib, 2};
    if (largest_bytes >= kib * kib)
        return {QObject::tr("MiB"), kib * kib, 1};
    if (largest_bytes >= kib)
        return {QObject::tr("KiB"), kib, 1};
    return {QObject::tr("B"), 1, 0};
}

bool showsAsZero(double base, const Unit& unit) {
    return base != 0 && std::isfinite(base) &&
           std::abs(unit.of(base)) < 0.5 * std::pow(10.0, -unit.decimals);
}

QString inUnit(double base, const Unit& unit) {
    return formatNumber(std::isfinite(base) ? unit.of(base) : 0.0, unit.decimals);
}

QString inColumn(double base, const Unit& unit) {
    if (!showsAsZero(base, unit))
        return inUnit(base, unit);
    const QString step = formatNumber(std::pow(10.0, -unit.decimals), unit.decimals);
    return base > 0 ? QStringLiteral("< %1").arg(step) : QStringLiteral("> -%1").arg(step);
}

QString shareText(double value, double total) {
    if (!(total > 0))
        return QStringLiteral("–");
    const double percent = 100.0 * value / total;
    // Something is never "0.0": a share below the last decimal says so.
    if (value != 0 && std::abs(percent) < 0.05)
        return (percent > 0 ? QStringLiteral("< %1") : QStringLiteral("> -%1"))
            .arg(formatNumber(0.1, 1));
    return formatNumber(percent, 1);
}

}  // namespace trainscope::ui
