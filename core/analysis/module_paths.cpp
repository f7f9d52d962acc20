// SPDX-License-Identifier: Apache-2.0
#include "analysis/module_paths.h"

#include <algorithm>

namespace trainscope {
namespace {

constexpr const char* kUnknownInstance = "INSTANCE_NAME_UNKNOWN";

std::string lastComponent(const std::string& qualified) {
    const size_t dot = qualified.rfind('.');
    return dot == std::string::npos ? qualified : qualified.substr(dot + 1);
}

bool isWithin(const std::string& path, const std::string& module) {
    return path == module || module.empty() ||
           (path.size() > module.size() && path.compare(0, module.size(), module) == 0 &&
            path[module.size()] == '.');
}

// How many leading components two module paths share: "blocks_0.attn.qkv" and
// "blocks_0.attn.heads" share 2, "blocks_0" and "blocks_1" none.
size_t sharedComponents(const std::string& a, const std::string& b) {
    size_t shared = 0;
    size_t start = 0;
    while (start < a.size() && start < b.size()) {
        const size_t a_end = std::min(a.find('.', start), a.size());
        const size_t b_end = std::min(b.find('.', start), b.size());
        if (a_end != b_end || a.compare(start, a_end - start, b, start, b_end - start) != 0) {
            break;
        }
        ++shared;
        start = a_end + 1;
    }
    return shared;
}

// One level of "instance(Type)::function": the instance and the type. Levels that name no
// module of their own give an empty instance.
struct Level {
    std::string instance;
    std::string type;
};

Level parseLevel(const std::string& text) {
    const size_t open = text.find('(');
    const size_t close = text.find(')', open == std::string::npos ? 0 : open);
    if (open == std::string::npos || close == std::string::npos || open == 0) {
        return {};
    }
    Level level{text.substr(0, open), lastComponent(text.substr(open + 1, close - open - 1))};
    // The top module, the same module again, a call of a free function (which the
    // interpreter runs as a frame of its own: "CALL_FUNCTION::batch_norm()::batch_norm").
    if (level.instance == "TOP" || level.instance == "SELF" ||
        level.instance.rfind("CALL_FUNCTION", 0) == 0) {
        level.instance.clear();
    }
    return level;
}

}  // namespace

ModulePaths::ModulePaths(const std::vector<TreeModule>& tree) {
    for (const TreeModule& module : tree)
        modules_.push_back({module.path, lastComponent(module.qualified_type)});
}

std::string ModulePaths::ofParameter(const std::string& name) {
    const size_t dot = name.rfind('.');
    return dot == std::string::npos ? std::string() : name.substr(0, dot);
}

// The module paths that a hierarchy can name.
std::vector<std::string> ModulePaths::candidates(const std::vector<std::string>& hierarchy) const {
    std::vector<std::string> paths{""};
    for (const std::string& text : hierarchy) {
        const Level level = parseLevel(text);
        if (level.instance.empty()) {
            continue;
        }
        std::vector<std::string> next;
        for (const std::string& parent : paths) {
            const std::string prefix = parent.empty() ? "" : parent + ".";
            for (const Module& module : modules_) {
                if (module.path.size() <= prefix.size() ||
                    module.path.compare(0, prefix.size(), prefix) != 0 ||
                    module.path.find('.', prefix.size()) != std::string::npos) {
                    continue;  // not a child of `parent`
                }
                const std::string child = module.path.substr(prefix.size());
                if (level.instance == kUnknownInstance ? module.type == level.type
                                                       : child == level.instance) {
                    next.push_back(module.path);
                }
            }
        }
        if (next.empty()) {
            // The tree does not know this level (a module built outside it): keep its name.
            for (const std::string& parent : paths) {
                next.push_back((parent.empty() ? "" : parent + ".") +
                               (level.instance == kUnknownInstance ? "?" : level.instance));
            }
        }
        paths = std::move(next);
    }
    return paths;
}

std::vector<std::string> ModulePaths::resolve(const std::vector<OperationRecord>& operations,
                                              const std::vector<std::string>& weight_names) const {
    std::vector<std::vector<std::string>> choices;
    std::vector<std::string> paths(operations.size());
    std::vector<bool> resolved(operations.size(), false);
    for (size_t i = 0; i < operations.size(); ++i) {
        choices.push_back(candidates(operations[i].module_hierarchy));
        std::vector<std::string>& options = choices.back();
        if (options.size() > 1) {
            // The weights it read decide: they belong to one of the candidates.
            for (int weight : operations[i].weights_read) {
                const std::string owner = ofParameter(weight_names.at(weight));
                const auto it = std::find_if(options.begin(), options.end(),
                                             [&](const auto& c) { return isWithin(owner, c); });
                if (it != options.end()) {
                    options = {*it};
                    break;
                }
            }
        }
        if (options.size() == 1) {
            paths[i] = options[0];
            resolved[i] = true;
        }
    }
    // Undecided: the candidate closest to the previous (else the next) decided operation's
    // module, the one sharing the most leading components with it: the module it lies in,
    // or a sibling of it (`blocks_0.attn.heads` after `blocks_0.attn.qkv`). A tie decides
    // nothing.
    auto pick = [&](size_t i, size_t neighbour) {
        size_t best = 0;
        const std::string* chosen = nullptr;
        for (const std::string& candidate : choices[i]) {
            const size_t shared = sharedComponents(paths[neighbour], candidate);
            if (shared > best) {
                best = shared;
                chosen = &candidate;
            } else if (shared == best) {
                chosen = nullptr;
            }
        }
        if (!chosen) {
            return false;
        }
        paths[i] = *chosen;
        return true;
    };
    std::vector<bool> decided = resolved;
    for (size_t i = 1; i < operations.size(); ++i) {
        if (!decided[i] && decided[i - 1]) {
            decided[i] = pick(i, i - 1);
        }
    }
    for (size_t i = operations.size(); i-- > 1;) {
        if (!decided[i - 1] && decided[i]) {
            decided[i - 1] = pick(i - 1, i);
        }
    }
    for (size_t i = 0; i < operations.size(); ++i) {
        if (!decided[i]) {
            paths[i] = "?";
        }
    }
    return paths;
}

}  // namespace trainscope
