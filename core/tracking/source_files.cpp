// SPDX-License-Identifier: Apache-2.0
#include "trainscope/source_files.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace trainscope {
namespace {

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

}  // namespace

SourceFiles::SourceFiles(const std::string& project_root,
                         const std::vector<std::string>& library_roots)
    : root_(canonicalOrAbsolute(project_root).string()) {
    for (const std::string& root : library_roots) {
        library_roots_.push_back(canonicalOrAbsolute(root).string());
    }
}

std::optional<StackFrame> SourceFiles::locate(const std::string& file) {
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

}  // namespace trainscope
