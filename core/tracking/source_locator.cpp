// SPDX-License-Identifier: Apache-2.0
#include "tracking/source_locator.h"

#include <torch/csrc/jit/runtime/interpreter.h>

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace trainscope {
namespace {

// A printed range longer than this is not one call's text; its origin is not searched.
constexpr size_t kMaxProbe = 4096;

bool escapesRoot(const fs::path& relative) {
    return relative.empty() || relative.is_absolute() || *relative.begin() == "..";
}

fs::path canonicalOrAbsolute(const std::string& folder) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(fs::absolute(folder), ec);
    return (ec ? fs::absolute(folder) : canonical).lexically_normal();
}

// `file` relative to `root`, when it lies under it.
std::optional<std::string> under(const fs::path& root, const fs::path& file) {
    const fs::path relative = file.lexically_normal().lexically_relative(root);
    return escapesRoot(relative) ? std::nullopt : std::optional(relative.generic_string());
}

std::optional<std::string> inProject(const fs::path& root, const fs::path& file) {
    std::error_code ec;
    if (file.is_absolute()) {
        if (auto relative = under(root, file)) {
            return relative;
        }
    } else if (fs::is_regular_file(root / file, ec)) {
        const fs::path relative = file.lexically_normal();
        return escapesRoot(relative) ? std::nullopt : std::optional(relative.generic_string());
    }
    // The project was moved: find the longest tail of the recorded path under the root.
    std::vector<fs::path> parts(file.begin(), file.end());
    for (size_t first = 1; first < parts.size(); ++first) {
        fs::path tail;
        for (size_t i = first; i < parts.size(); ++i) {
            tail /= parts[i];
        }
        if (!escapesRoot(tail.lexically_normal()) && fs::is_regular_file(root / tail, ec)) {
            return tail.lexically_normal().generic_string();
        }
    }
    return std::nullopt;
}

// The root a library file is shown relative to, as Python would import it: the nearest
// site-packages or dist-packages folder above it, else (for a file that exists here) the
// folder above its outermost package (the last folder upwards with an __init__.py), else the
// file's own folder.
fs::path libraryRoot(const fs::path& file) {
    for (fs::path folder = file.parent_path(); folder != folder.root_path() && !folder.empty();
         folder = folder.parent_path()) {
        if (folder.filename() == "site-packages" || folder.filename() == "dist-packages") {
            return folder;
        }
    }
    std::error_code ec;
    fs::path folder = file.parent_path();
    while (fs::is_regular_file(folder / "__init__.py", ec) && folder.has_parent_path() &&
           folder != folder.root_path()) {
        folder = folder.parent_path();
    }
    return folder;
}

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

SourceLocator::SourceLocator(const std::string& project_root,
                             const std::vector<std::string>& library_roots)
    : root_(canonicalOrAbsolute(project_root).string()) {
    for (const std::string& root : library_roots) {
        library_roots_.push_back(canonicalOrAbsolute(root).string());
    }
}

std::optional<StackFrame> SourceLocator::locate(const std::string& file) {
    auto it = cache_.find(file);
    if (it != cache_.end()) {
        return it->second;
    }
    std::optional<StackFrame> found;
    const fs::path path(file);
    if (auto relative = inProject(fs::path(root_), path)) {
        found = StackFrame{*relative, 0, {}};
    } else if (path.is_absolute()) {
        for (const std::string& root : library_roots_) {
            if (auto relative = under(fs::path(root), path)) {
                found = StackFrame{*relative, 0, root};
                break;
            }
        }
        if (!found) {
            const fs::path root = libraryRoot(path.lexically_normal());
            if (auto relative = under(root, path)) {
                found = StackFrame{*relative, 0, root.string()};
            }
        }
    }
    return cache_.emplace(file, found).first->second;
}

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
