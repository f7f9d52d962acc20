// SPDX-License-Identifier: Apache-2.0
// Module paths ("blocks.0.mlp.fc1") for the operations of an iteration, from the module
// hierarchy that TorchScript's interpreter knows for each call.
//
// The interpreter names a module instance by the attribute it was read from; one taken from a
// ModuleList or Sequential comes out as INSTANCE_NAME_UNKNOWN with only its type. Such a level
// is resolved against the model's module tree: by the weights the operation read when it read
// any, else by the neighbouring operations in the same module (a module's operations run one
// after the other).
#pragma once

#include <string>
#include <vector>

#include "records/operation_records.h"

namespace trainscope {

class ModulePaths {
  public:
    // A module of the model's tree: its path ("blocks.0.mlp", "" for the model) and its type's
    // qualified name ("__torch__.torch.nn.modules.linear.Linear").
    struct TreeModule {
        std::string path;
        std::string qualified_type;
    };
    ModulePaths() = default;  // an empty tree: every level keeps its own name
    explicit ModulePaths(const std::vector<TreeModule>& tree);

    // One path per operation. `weight_names[i]` names the weight that
    // OperationRecord::weights_read refers to as i. A level that cannot be resolved is "?".
    std::vector<std::string> resolve(const std::vector<OperationRecord>& operations,
                                     const std::vector<std::string>& weight_names) const;

    // The module that owns a parameter: "blocks.0.mlp.fc1.weight" -> "blocks.0.mlp.fc1".
    static std::string ofParameter(const std::string& name);

  private:
    std::vector<std::string> candidates(const std::vector<std::string>& hierarchy) const;

    struct Module {
        std::string path;
        std::string type;  // the class name without its qualification: "Linear"
    };
    std::vector<Module> modules_;
};

}  // namespace trainscope
