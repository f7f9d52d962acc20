// SPDX-License-Identifier: Apache-2.0
// A stand-in for PyTorch 2.x's libtorch_cpu.so, which exports its own copies of libstdc++'s
// std::filesystem (pytorch/pytorch#133437): this library exports a broken
// std::filesystem::remove_all that removes nothing. A program that lists it before
// libstdc++ calls it; ours list libstdc++ first (the top-level CMakeLists.txt) and must not.
#include <cstdio>
#include <filesystem>

namespace std::filesystem {

uintmax_t remove_all(const path& p) {
    std::fprintf(stderr, "the broken copy of std::filesystem::remove_all was called for %s\n",
                 p.c_str());
    return 0;
}

}  // namespace std::filesystem
