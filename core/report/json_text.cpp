// SPDX-License-Identifier: Apache-2.0
#include "trainscope/json_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include <rapidjson/encodings.h>
#include <rapidjson/stream.h>

namespace trainscope {

namespace {

// The length of the valid UTF-8 sequence at `text[i]` (RapidJSON's decoder: no overlong forms,
// surrogates or code points past U+10FFFF), or 0 where none begins.
size_t validSequence(std::string_view text, size_t i) {
    char sequence[5] = {};  // a sequence is 4 bytes at most; the NUL ends the stream
    text.copy(sequence, 4, i);
    rapidjson::StringStream in(sequence);
    unsigned codepoint = 0;
    return rapidjson::UTF8<>::Decode(in, &codepoint) ? in.Tell() : 0;
}

}  // namespace

void appendJsonString(std::string& out, std::string_view text) {
    out += '"';
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
                    out += escaped;
                } else if (c < 0x80) {
                    out += static_cast<char>(c);
                } else if (const size_t length = validSequence(text, i); length > 0) {
                    out.append(text.substr(i, length));
                    i += length - 1;
                } else {
                    // JSON is UTF-8: a byte that begins no valid sequence (a damaged or foreign
                    // file's name) is written as U+FFFD, as a decoder shows it.
                    out += "\xEF\xBF\xBD";
                }
        }
    }
    out += '"';
}

std::string jsonNumber(double value) {
    if (!std::isfinite(value)) {
        return "null";
    }
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text, value);  // the shortest exact text
    return std::string(text, result.ptr);
}

}  // namespace trainscope
