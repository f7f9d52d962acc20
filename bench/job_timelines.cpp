// SPDX-License-Identifier: Apache-2.0
#include "job_timelines.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

extern char** environ;

namespace trainscope::bench {

Measured runQuietly(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (const std::string& arg : args)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    Measured m;
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0) {
        struct rusage usage {};
        int status = 0;
        if (wait4(pid, &status, 0, &usage) == pid) {
            m.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            m.peak_mb = usage.ru_maxrss * 1024.0 / 1e6;  // KiB
        }
    }
    m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    posix_spawn_file_actions_destroy(&actions);
    return m;
}

std::vector<std::string> jobTimelines(long ranks, long calls, const std::string& generator) {
    const std::filesystem::path folder =
        "/tmp/trainscope-ranks-" + std::to_string(ranks) + "x" + std::to_string(calls);
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    std::vector<std::string> files;
    for (long rank = 0; rank < ranks; ++rank) {
        const std::string file =
            (folder / ("job.rank" + std::to_string(rank) + ".timeline.sqlite")).string();
        // Reused where the generator as built now wrote it (the writer decides what the file
        // holds, and so what reading it costs).
        const bool current = std::filesystem::exists(file, ec) &&
                             std::filesystem::last_write_time(file, ec) >=
                                 std::filesystem::last_write_time(generator, ec);
        if (!current) {
            // Written beside its name, then renamed: an interrupted run leaves no half file.
            const std::string part = file + ".part";
            if (runQuietly({generator, part, std::to_string(calls), std::to_string(rank)}).status !=
                    0 ||
                (std::filesystem::rename(part, file, ec), ec)) {
                std::fprintf(stderr, "could not write %s\n", file.c_str());
                return {};
            }
        }
        files.push_back(file);
    }
    std::printf("Timelines: %ld ranks of %ld calls (%.0f MB each) in %s\n", ranks, calls,
                std::filesystem::file_size(files[0]) / 1e6, folder.c_str());
    return files;
}

}  // namespace trainscope::bench
