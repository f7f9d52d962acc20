// SPDX-License-Identifier: Apache-2.0
// Test helper: a copy of a real run whose times are chosen by the test. A gate's verdict on
// live timings depends on what the machine did while they were measured; on known times it is
// certain. The copy keeps the run's real operations, frames, module paths and memory (exact
// figures), so that everything but the times is what the engine wrote.
#pragma once

#include <functional>
#include <string>

namespace trainscope::test {

// One operation's time in each measured iteration: the median the report stores, and the
// fastest and slowest iteration (its spread).
struct KnownTime {
    double median_ms = 0.0;
    double min_ms = 0.0;
    double max_ms = 0.0;
};

// A time `ms` whose iterations lay within ±`spread_pct` percent of it.
KnownTime timeWithin(double ms, double spread_pct);

// Copies PREFIX.memory.sqlite and PREFIX.time.sqlite to COPY.memory.sqlite and
// COPY.time.sqlite, and in the copied run time report sets every entry's forward time (and its
// backward time, where it has one) to `time_of(operation_name)`, with its spread, and the
// iteration's wall time to the sum of its entries' (its spread to the sums of their spreads).
void copyWithKnownTimes(const std::string& prefix, const std::string& copy,
                        const std::function<KnownTime(const std::string& operation)>& time_of);

}  // namespace trainscope::test
