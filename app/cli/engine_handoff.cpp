// SPDX-License-Identifier: Apache-2.0
#include "cli/engine_handoff.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include "cli/exit_codes.h"

namespace fs = std::filesystem;

namespace trainscope::cli {

int handOverToEngine(char** argv) {
    std::error_code ec;
    const fs::path here = fs::read_symlink("/proc/self/exe", ec).parent_path();
    const fs::path candidates[] = {
        here / "trainscope-cli-engine",                               // the build tree
        here / TRAINSCOPE_ENGINE_FROM_BIN / "trainscope-cli-engine",  // an installed prefix
    };
    for (const fs::path& engine : candidates) {
        std::error_code missing;
        if (!ec && fs::is_regular_file(engine, missing)) {
            argv[0] = const_cast<char*>("trainscope-cli");
            const std::string path = engine.string();
            ::execv(path.c_str(), argv);
            std::cerr << "trainscope-cli: error: cannot start " << path << ": "
                      << std::strerror(errno) << std::endl;
            return kRunFailed;
        }
    }
    std::cerr << "trainscope-cli: error: the engine that runs models (trainscope-cli-engine) is "
                 "missing beside "
              << here.string() << "; reinstall TrainScope" << std::endl;
    return kRunFailed;
}

}  // namespace trainscope::cli
