#include "report/staged_file.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "trainscope/error.h"

namespace fs = std::filesystem;

namespace trainscope {
namespace {

std::string describeErrno(int error) {
    return std::strerror(error);
}

fs::path folderOf(const std::string& path) {
    fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? fs::path(".") : parent;
}

std::string uniqueTempPath(const std::string& final_path) {
    static std::atomic<int> counter{0};
    fs::path path(final_path);
    std::string name = "." + path.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                       std::to_string(counter++);
    return (folderOf(final_path) / name).string();
}

}  // namespace

void checkOutputPath(const std::string& path, Overwrite overwrite) {
    if (path.empty()) {
        throw Error("no output file given");
    }
    std::error_code ec;
    const fs::path folder = folderOf(path);
    if (!fs::is_directory(folder, ec)) {
        throw Error("cannot write '" + path + "': folder '" + folder.string() + "' does not exist");
    }
    if (::access(folder.c_str(), W_OK | X_OK) != 0) {
        throw Error("cannot write '" + path + "': folder '" + folder.string() +
                    "' is not writable");
    }
    if (fs::is_directory(path, ec)) {
        throw Error("cannot write '" + path + "': it is a folder");
    }
    if (overwrite == Overwrite::Refuse && fs::exists(fs::symlink_status(path, ec))) {
        throw Error("'" + path +
                    "' already exists; not overwriting it (use --force to replace it)");
    }
}

StagedFile::StagedFile(std::string final_path)
    : final_path_(std::move(final_path)), temp_path_(uniqueTempPath(final_path_)) {}

StagedFile::~StagedFile() {
    if (!committed_) {
        std::remove(temp_path_.c_str());
    }
}

void StagedFile::commit(Overwrite overwrite) {
    if (overwrite == Overwrite::Allow) {
        if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
            throw Error("cannot write '" + final_path_ + "': " + describeErrno(errno));
        }
    } else {
        // link() fails if the destination exists: an atomic "create, never replace".
        if (::link(temp_path_.c_str(), final_path_.c_str()) != 0) {
            const int error = errno;
            if (error == EEXIST) {
                throw Error("'" + final_path_ +
                            "' already exists; not overwriting it (use --force to replace it)");
            }
            throw Error("cannot write '" + final_path_ + "': " + describeErrno(error));
        }
        std::remove(temp_path_.c_str());
    }
    committed_ = true;
}

void StagedFile::rollback() {
    if (committed_) {
        std::remove(final_path_.c_str());
    }
}

}  // namespace trainscope
