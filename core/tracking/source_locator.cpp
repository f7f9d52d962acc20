// SPDX-License-Identifier: Apache-2.0
#include "tracking/source_locator.h"

#include <torch/csrc/jit/runtime/interpreter.h>

#include <algorithm>

namespace trainscope {
namespace {

// A printed range longer than this is not one call's text; its origin is not searched.
constexpr size_t kMaxProbe = 4096;

// The original source range of an archive's node. A loaded archive maps its printed code back
// to the user's source by the start offset of each node's range. A call to a scripted free
// function is printed as `__torch__.torch.nn.functional.relu(y0, False, )`; the call node's
// range covers only the callee's name, which carries no origin, and the origin (`F.relu(y)` in
// the user's file) is tagged on the argument list that follows. So the first offset from the
// range's start to the end of its printed line whose origin names a file decides.
std::optional<torch::jit::SourceRange> originalRange(const torch::jit::SourceRange& range) {
    const auto& source = range.source();
    if (!source) {
        return std::nullopt;
    }
    const auto& text = source->text_str();
    const size_t line_end = std::min(text.find("\n", range.start()), text.size());
    const size_t end = std::min(std::max(line_end, range.start() + 1), range.start() + kMaxProbe);
    for (size_t offset = range.start(); offset < end; ++offset) {
        auto original = source->findSourceRangeThatGenerated(
            torch::jit::SourceRange(source, offset, offset + 1));
        if (!original) {
            return std::nullopt;  // not an archive's printed code: no origins at all
        }
        // Printed code with no origin maps to an empty range of a file named "".
        if (const auto file_line_col = original->file_line_col();
            file_line_col && !std::get<0>(*file_line_col).empty()) {
            return *original;
        }
    }
    return std::nullopt;
}

}  // namespace

StackTrace SourceLocator::frames(const std::vector<torch::jit::StackEntry>& stack) {
    StackTrace result;
    for (auto entry = stack.begin(); entry != stack.end(); ++entry) {
        torch::jit::SourceRange range = entry->range;
        if (auto original = originalRange(range)) {
            range = *original;
        }
        const auto file_line_col = range.file_line_col();
        if (!file_line_col) {
            continue;
        }
        const auto& [file, line, column] = *file_line_col;
        (void)column;
        if (auto located = locate(file)) {
            located->line_number = static_cast<int>(line);
            if (result.empty() || !(result.back() == *located)) {
                result.push_back(std::move(*located));
            }
        }
    }
    return result;
}

StackTrace TorchScriptFrames::currentFrames() {
    return locator_.frames(torch::jit::currentCallstack());
}

}  // namespace trainscope
