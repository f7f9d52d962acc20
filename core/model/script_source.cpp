// SPDX-License-Identifier: Apache-2.0
#include "model/script_source.h"

#include <torch/csrc/jit/frontend/lexer.h>
#include <torch/csrc/jit/frontend/parser.h>
#include <torch/csrc/jit/frontend/resolver.h>
#include <torch/csrc/jit/frontend/sugared_value.h>

#include <fstream>
#include <sstream>

#include "error_text.h"
#include "trainscope/error.h"

namespace trainscope {

ScriptSource::ScriptSource(const std::string& path)
    : path_(path), unit_(std::make_shared<torch::jit::CompilationUnit>()) {
    std::ifstream file(path);
    if (!file) {
        throw Error("cannot read built-in model source '" + path + "'");
    }
    std::stringstream text;
    text << file.rdbuf();
    try {
        auto source = std::make_shared<torch::jit::Source>(text.str(), path, 1);
        torch::jit::Parser parser(source);
        while (parser.lexer().cur().kind != torch::jit::TK_EOF) {
            torch::jit::ClassDef class_def(parser.parseClass());
            std::vector<torch::jit::Def>& defs = methods_[class_def.name().name()];
            for (const torch::jit::Stmt& statement : class_def.body()) {
                if (statement.kind() == torch::jit::TK_DEF) {
                    defs.emplace_back(statement);
                }
            }
        }
    } catch (const std::exception& e) {
        throw Error("cannot parse '" + path + "': " + oneLineMessage(e));
    }
}

torch::jit::Module ScriptSource::newModule(const std::string& class_name) const {
    if (!methods_.count(class_name)) {
        throw Error("'" + path_ + "' defines no class '" + class_name + "'");
    }
    torch::jit::Module module(c10::QualifiedName("__torch__.trainscope." + class_name), unit_,
                              /*shouldMangle=*/true);
    module.register_attribute("training", c10::BoolType::get(), true);
    return module;
}

void ScriptSource::defineMethods(torch::jit::Module& module, const std::string& class_name) const {
    const std::vector<torch::jit::Def>& defs = methods_.at(class_name);
    const std::vector<torch::jit::ResolverPtr> resolvers(defs.size(), torch::jit::nativeResolver());
    const torch::jit::SimpleSelf self(module.type());
    try {
        unit_->define(module.type()->name(), /*properties=*/{}, /*propResolvers=*/{}, defs,
                      resolvers, &self);
    } catch (const std::exception& e) {
        throw Error("cannot compile class '" + class_name + "' of '" + path_ +
                    "': " + oneLineMessage(e));
    }
}

}  // namespace trainscope
