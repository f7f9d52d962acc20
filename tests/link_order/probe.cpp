// SPDX-License-Identifier: Apache-2.0
// Linked as our programs are, with the broken library as its first dependency (as LibTorch
// is theirs): removes a folder with std::filesystem::remove_all and exits 0 only if libstdc++'s
// copy did it (the broken one removes nothing).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

int main() {
    char pattern[] = "/tmp/trainscope-link-order-XXXXXX";
    if (!mkdtemp(pattern)) {
        std::perror("mkdtemp");
        return 2;
    }
    const fs::path folder(pattern);
    std::ofstream(folder / "file") << "x";
    const std::uintmax_t removed = fs::remove_all(folder);
    if (removed == 2 && !fs::exists(folder)) {
        std::printf("std::filesystem::remove_all is libstdc++'s: it removed %ju entries\n",
                    removed);
        return 0;
    }
    std::printf("std::filesystem::remove_all is not libstdc++'s: %ju removed, the folder %s\n",
                removed, fs::exists(folder) ? "is still there" : "is gone");
    std::error_code ignored;
    for (const auto& entry : fs::directory_iterator(folder, ignored)) {
        fs::remove(entry.path(), ignored);
    }
    fs::remove(folder, ignored);
    return 1;
}
