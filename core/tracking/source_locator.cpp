#include "tracking/source_locator.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace trainscope {
namespace {

bool escapesRoot(const fs::path& relative) {
    return relative.empty() || relative.is_absolute() || *relative.begin() == "..";
}

std::optional<std::string> locate(const fs::path& root, const fs::path& file) {
    std::error_code ec;
    if (file.is_absolute()) {
        const fs::path relative = file.lexically_normal().lexically_relative(root);
        if (!escapesRoot(relative)) {
            return relative.generic_string();
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

}  // namespace

SourceLocator::SourceLocator(const std::string& project_root) {
    std::error_code ec;
    fs::path root = fs::weakly_canonical(fs::absolute(project_root), ec);
    root_ = (ec ? fs::absolute(project_root) : root).lexically_normal().string();
}

std::optional<std::string> SourceLocator::relativePath(const std::string& file) {
    auto it = cache_.find(file);
    if (it == cache_.end()) {
        it = cache_.emplace(file, locate(fs::path(root_), fs::path(file))).first;
    }
    return it->second;
}

StackTrace SourceLocator::frames(const std::vector<torch::jit::StackEntry>& stack) {
    StackTrace result;
    for (auto entry = stack.begin(); entry != stack.end(); ++entry) {
        torch::jit::SourceRange range = entry->range;
        if (auto original = range.findSourceRangeThatGenerated()) {
            range = *original;
        }
        const auto file_line_col = range.file_line_col();
        if (!file_line_col) {
            continue;
        }
        const auto& [file, line, column] = *file_line_col;
        (void)column;
        if (auto relative = relativePath(file)) {
            StackFrame frame{*relative, static_cast<int>(line)};
            if (result.empty() || !(result.back() == frame)) {
                result.push_back(std::move(frame));
            }
        }
    }
    return result;
}

}  // namespace trainscope
