// SPDX-License-Identifier: Apache-2.0
#include "cli/terminal_safe_output.h"

#include <cstdio>

namespace trainscope::cli {
namespace {

std::string escaped(unsigned code) {
    char text[12];
    std::snprintf(text, sizeof text, code < 0x80 ? "\\x%02x" : "\\u%04x", code);
    return text;
}

// The control character that `bytes` (one to three bytes) begins with, or 0: C1 controls
// (U+0080–U+009F) and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069), in UTF-8. Sets `undecided` where more bytes are needed to tell.
unsigned controlAt(const std::string& bytes, bool& undecided) {
    const auto b = [&](size_t i) { return static_cast<unsigned char>(bytes[i]); };
    undecided = false;
    if (b(0) == 0xC2) {
        undecided = bytes.size() < 2;
        return !undecided && b(1) >= 0x80 && b(1) <= 0x9F ? b(1) : 0;
    }
    if (b(0) != 0xE2 || (bytes.size() >= 2 && b(1) != 0x80 && b(1) != 0x81)) {
        return 0;
    }
    undecided = bytes.size() < 3;
    if (undecided) {
        return 0;
    }
    if (b(1) == 0x80 && b(2) >= 0xAA && b(2) <= 0xAE) {
        return 0x2000 + b(2) - 0x80;
    }
    if (b(1) == 0x81 && b(2) >= 0xA6 && b(2) <= 0xA9) {
        return 0x2040 + b(2) - 0x80;
    }
    return 0;
}

// Filters `pending` (bytes written so far, not yet passed on) into `out`; leaves in `pending`
// the start of a sequence that the next bytes decide, unless `final`.
void drain(std::string& pending, std::string& out, bool final) {
    size_t i = 0;
    while (i < pending.size()) {
        const unsigned char c = static_cast<unsigned char>(pending[i]);
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
            out += escaped(c);
            ++i;
            continue;
        }
        if (c == 0xC2 || c == 0xE2) {
            bool undecided = false;
            const unsigned control = controlAt(pending.substr(i, 3), undecided);
            if (undecided && !final) {
                break;
            }
            if (control) {
                out += escaped(control);
                i += control < 0x100 ? 2 : 3;
                continue;
            }
        }
        out += pending[i];
        ++i;
    }
    pending.erase(0, i);
    if (final) {
        out += pending;
        pending.clear();
    }
}

}  // namespace

TerminalSafeOutput::TerminalSafeOutput(std::ostream& stream)
    : stream_(stream), filter_(stream.rdbuf()), original_(stream.rdbuf(&filter_)) {}

TerminalSafeOutput::~TerminalSafeOutput() {
    stream_.flush();
    filter_.finish();
    stream_.rdbuf(original_);
}

TerminalSafeOutput::Filter::int_type TerminalSafeOutput::Filter::overflow(int_type c) {
    if (traits_type::eq_int_type(c, traits_type::eof())) {
        return traits_type::not_eof(c);
    }
    const char ch = traits_type::to_char_type(c);
    const auto byte = static_cast<unsigned char>(ch);
    // Unbuffered, as the stream below it: a line is on the terminal when it is written.
    if (pending_.empty() && ((byte >= 0x20 && byte != 0x7F && byte != 0xC2 && byte != 0xE2) ||
                             ch == '\n' || ch == '\t')) {
        return out_->sputc(ch);
    }
    pending_ += ch;
    std::string out;
    drain(pending_, out, false);
    const auto size = static_cast<std::streamsize>(out.size());
    return out_->sputn(out.data(), size) == size ? c : traits_type::eof();
}

int TerminalSafeOutput::Filter::sync() {
    return out_->pubsync();
}

void TerminalSafeOutput::Filter::finish() {
    std::string out;
    drain(pending_, out, true);
    out_->sputn(out.data(), static_cast<std::streamsize>(out.size()));
    out_->pubsync();
}

}  // namespace trainscope::cli
