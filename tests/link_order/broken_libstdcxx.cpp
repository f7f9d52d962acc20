// SPDX-License-Identifier: Apache-2.0
// A stand-in for PyTorch 2.x's libtorch_cpu.so, which exports its own copies of libstdc++'s
// std::filesystem (pytorch/pytorch#133437): this library exports a broken
// std::filesystem::remove_all that removes nothing, and a broken path::lexically_normal that
// returns an empty path. A program that lists it before libstdc++ calls them; ours list
// libstdc++ first (the top-level CMakeLists.txt) and must not. Preloaded into a Python
// process, it comes before libstdc++ for every module, as PyTorch's copies do once torch is
// imported: the Python host's module binds its own copy (python/CMakeLists.txt) and must not
// call them either.
#include <cstdio>
#include <filesystem>

namespace std::filesystem {

uintmax_t remove_all(const path& p) {
    std::fprintf(stderr, "the broken copy of std::filesystem::remove_all was called for %s\n",
                 p.c_str());
    return 0;
}

path path::lexically_normal() const {
    std::fprintf(stderr,
                 "the broken copy of std::filesystem::path::lexically_normal was called "
                 "for %s\n",
                 c_str());
    return {};
}

}  // namespace std::filesystem
