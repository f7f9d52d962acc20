// SPDX-License-Identifier: Apache-2.0
#include "error_text.h"

#include <new>

#include <c10/util/Exception.h>

#include <sstream>

namespace trainscope {
namespace {

std::string trim(const std::string& text) {
    const char* space = " \t\r\n";
    const size_t begin = text.find_first_not_of(space);
    if (begin == std::string::npos) {
        return {};
    }
    return text.substr(begin, text.find_last_not_of(space) - begin + 1);
}

std::string firstMeaningfulLine(const std::string& text) {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        line = trim(line);
        if (!line.empty()) {
            return line;
        }
    }
    return "unknown error";
}

}  // namespace

std::string oneLineMessage(const std::exception& error) {
    std::string text = error.what();
    if (const auto* c10_error = dynamic_cast<const c10::Error*>(&error)) {
        text = c10_error->what_without_backtrace();
    }
    // A TorchScript traceback ends with the Python-style exception that caused it.
    for (const char* marker : {"RuntimeError: ", "ValueError: ", "IndexError: ", "TypeError: "}) {
        const size_t pos = text.rfind(marker);
        if (pos != std::string::npos) {
            return firstMeaningfulLine(text.substr(pos + std::string(marker).size()));
        }
    }
    return firstMeaningfulLine(text);
}

bool isOutOfMemory(const std::exception& error) {
    if (dynamic_cast<const std::bad_alloc*>(&error)) {
        return true;
    }
    const std::string text = error.what();
    return text.find("out of memory") != std::string::npos ||
           text.find("can't allocate memory") != std::string::npos;
}

}  // namespace trainscope
