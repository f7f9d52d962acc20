// SPDX-License-Identifier: Apache-2.0
// Report files under construction, and how a run's set of them replaces what was there.
//
// Each report is written to a temporary file in its destination folder, synced, then moved
// into place. The files of one run are committed together through a journal: once every
// temporary file is complete, a journal naming each (temporary, final) pair is synced, then
// the files are renamed and the journal removed. A crash before the journal leaves the old set
// untouched; a crash after it is rolled forward by the next write to the same name. So a set
// is replaced whole or not at all.
#pragma once

#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "trainscope/error.h"
#include "trainscope/report_writer.h"

namespace trainscope {

class SqliteDb;

class StagedFile {
  public:
    // Also finishes an interrupted commit of the same name, and removes temporary files that a
    // killed run left for it.
    explicit StagedFile(std::string final_path);
    ~StagedFile();  // removes the temporary file unless committed
    StagedFile(const StagedFile&) = delete;
    StagedFile& operator=(const StagedFile&) = delete;

    const std::string& tempPath() const { return temp_path_; }
    const std::string& finalPath() const { return final_path_; }

    // Flushes the finished temporary file to disk.
    void sync() const;

    // Throws trainscope::Error when the temporary file is no longer at its path: its folder was
    // moved or replaced since it was created (a later write there would make a new, empty one).
    void checkInPlace() const;

  private:
    bool inPlace() const;  // the file at temp_path_ is the one it created
    friend void commitTogether(const std::vector<StagedFile*>& files, Overwrite overwrite);
    std::string final_path_;
    std::string temp_path_;
    bool committed_ = false;
    pid_t owner_;       // the process that staged it, the only one that removes it
    int fd_ = -1;       // held open: where the file went when its folder was moved
    dev_t device_ = 0;  // the file's identity, to tell it from another at its path
    ino_t inode_ = 0;
    int signal_slot_ = -1;  // where the SIGINT/SIGTERM handler finds the temporary path
};

// An error writing `path`: "cannot write 'PATH': " and `error`'s text, once (an error that
// names the file already is kept as it is).
Error cannotWrite(const std::string& path, const std::exception& error);

// The commit journal of the set whose first file is `final_path`: pairs of lines, a temporary
// path and the final path it becomes.
std::string commitJournalPath(const std::string& final_path);

// Moves the files into place as one set (see above). With Overwrite::Refuse no existing file
// is replaced, even one that appeared while the reports were being written; an existing path
// that is not a regular file is refused either way.
void commitTogether(const std::vector<StagedFile*>& files, Overwrite overwrite);

// A report written into a new staged file by `fill`, in one transaction, without a rollback
// journal (a staged file is thrown away whole when anything fails); the caller commits it.
// Errors name the final path.
std::unique_ptr<StagedFile> writeStaged(const std::string& path,
                                        const std::function<void(SqliteDb&)>& fill);

}  // namespace trainscope
