// SPDX-License-Identifier: Apache-2.0
// The archive and built-in runs know their operations' modules another way than a host's
// ModuleSource: from the model's module tree, against which each operation's TorchScript module
// hierarchy is resolved when the memory step ends (it may need the weights the operation read
// and its neighbours). Core-internal: the tree is a LibTorch module's.
#pragma once

#include "analysis/module_paths.h"
#include "trainscope/session.h"

namespace trainscope {

class ArchiveModules {
  public:
    // Before the first step: `tree` resolves the modules, in place of SessionOptions::modules.
    static void resolveWith(Session& session, const ModulePaths* tree);
};

}  // namespace trainscope
