// SPDX-License-Identifier: Apache-2.0
// Numbers as text, the same in every locale. The C library's conversions (std::to_string,
// std::stod, strtod) follow LC_NUMERIC, which the app sets to the user's locale (Qt calls
// setlocale) and a user's script may set in the process that the Python host runs in: under a
// German locale a report said iteration_ms=12,345678, which no reader takes for a number, and a
// dropout of 0.1 was refused.
#pragma once

#include <charconv>
#include <optional>
#include <string>
#include <string_view>

namespace trainscope {

// `value` in decimals without an exponent ("12.5", "0.4467215"), the fewest that read back as
// the same double: a figure a report keeps is the figure the run told (six fixed decimals wrote
// a step of 0.4467215 ms as 0.446721).
inline std::string decimalText(double value) {
    // The longest such text, the smallest subnormal's, has 326 characters.
    char text[400];
    const auto [end, error] =
        std::to_chars(text, text + sizeof text, value, std::chars_format::fixed);
    return error == std::errc() ? std::string(text, end) : std::string("nan");
}

// The number that the whole of `text` writes ("0.1", "-2e3"), or nothing.
inline std::optional<double> parseDecimal(std::string_view text) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

}  // namespace trainscope
