// SPDX-License-Identifier: Apache-2.0
// The fixture of trainscope-cli's tests: the CLI run as a user runs it, as a real process in a
// working folder of its own.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/bounded_command.h"
#include "support/report_reader.h"

namespace trainscope::test {

namespace fs = std::filesystem;

struct Result {
    int exit_code;
    std::string out;
    std::string err;
};

inline std::string slurp(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// In the sanitizer build (allocator_may_return_null=1), AddressSanitizer's allocator says on
// stderr that it refused a huge allocation before returning null to the program. That note is
// the sanitizer's, not the program's: it is left out of what the tests read.
inline std::string withoutSanitizerNotes(const std::string& err) {
    std::istringstream lines(err);
    std::string kept;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("==", 0) == 0 &&
            line.find("==WARNING: AddressSanitizer failed to allocate") != std::string::npos)
            continue;
        kept += line + "\n";
    }
    return kept;
}

class Cli : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = makeTempDir();
        fs::create_directories(fs::path(dir_) / "work");
    }
    void TearDown() override { fs::remove_all(dir_); }

    Result run(const std::string& args) { return shell(std::string(TRAINSCOPE_CLI) + " " + args); }

    // Runs a shell command in the working folder, capturing its output.
    Result shell(const std::string& command_line) {
        const fs::path out = fs::path(dir_) / "stdout.txt";
        const fs::path err = fs::path(dir_) / "stderr.txt";
        const std::string command = "cd '" + dir_ + "/work' && " + command_line + " >'" +
                                    out.string() + "' 2>'" + err.string() + "'";
        const int status = std::system(trainscope::test::bounded(command).c_str());
        Result result{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out),
                      withoutSanitizerNotes(slurp(err))};
        fs::remove(out);
        fs::remove(err);
        return result;
    }

    // The files a run left in the working folder.
    std::vector<std::string> workFiles() const { return fileNames(dir_ + "/work"); }

    std::string work(const std::string& name) const { return dir_ + "/work/" + name; }

    // A failed run: non-zero exit, exactly one line on stderr, the given files only.
    void expectCleanFailure(const std::string& args, const std::string& needle,
                            std::vector<std::string> files_after = {}) {
        const Result result = run(args);
        EXPECT_NE(result.exit_code, 0) << args;
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
        EXPECT_NE(result.err.find(needle), std::string::npos) << result.err;
        EXPECT_EQ(workFiles(), files_after) << args;
    }

    std::string dir_;
};

}  // namespace trainscope::test
