// SPDX-License-Identifier: Apache-2.0
// One unit per column: a column of times or sizes picks the unit that suits its largest
// figure (µs, ms or s; B, KiB, MiB or GiB), so that its figures compare at a glance.
#pragma once

#include <QString>

namespace trainscope::ui {

struct Unit {
    QString name;      // "ms", "MiB"
    double per = 1;    // base units (ms, bytes) per one of this unit
    int decimals = 0;  // digits after the decimal mark
    double of(double base) const { return base / per; }
};

Unit timeUnit(double largest_ms);
Unit byteUnit(double largest_bytes);
// `base` in `unit`, as the interface language writes numbers (no unit name).
QString inUnit(double base, const Unit& unit);
// Whether a figure that is not zero would read "0.0" in `unit` (a bias in a column of MiB).
bool showsAsZero(double base, const Unit& unit);
// `base` in a column of `unit` (its name in the header, none in the cells): as inUnit(), and a
// figure that would read 0 there reads "< 0.1" (the unit's smallest step), never 0.
QString inColumn(double base, const Unit& unit);
// `value`'s share of `total` in percent with one decimal, "< 0.1" where something rounds to
// 0.0; "–" without a total.
QString shareText(double value, double total);

}  // namespace trainscope::ui
