// SPDX-License-Identifier: Apache-2.0
// A text of a file as it is shown: a name of a damaged or hostile file may be megabytes long.
#pragma once

#include <cstddef>
#include <string>

namespace trainscope {

// Where `text` would be cut to keep `characters` UTF-8 characters (a character begins at every
// byte that is not a continuation byte, 10xxxxxx), or its size where it is not longer.
inline size_t cutAfterCharacters(const std::string& text, size_t characters) {
    size_t seen = 0;
    for (size_t i = 0; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xc0) != 0x80 && ++seen > characters) {
            return i;
        }
    return text.size();
}

}  // namespace trainscope
