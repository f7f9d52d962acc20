// A report file under construction: written at a temporary path in its destination folder,
// then moved into place in one step, so readers never see a half-written report.
#pragma once

#include <string>

#include "trainscope/report_writer.h"

namespace trainscope {

class StagedFile {
  public:
    explicit StagedFile(std::string final_path);
    ~StagedFile();  // removes the temporary file unless committed
    StagedFile(const StagedFile&) = delete;
    StagedFile& operator=(const StagedFile&) = delete;

    const std::string& tempPath() const { return temp_path_; }
    const std::string& finalPath() const { return final_path_; }

    // Moves the file into place. With Overwrite::Refuse an existing file is never replaced,
    // even one that appeared while the report was being written.
    void commit(Overwrite overwrite);
    // Removes the committed file again (used when a sibling report failed to commit).
    void rollback();

  private:
    std::string final_path_;
    std::string temp_path_;
    bool committed_ = false;
};

}  // namespace trainscope
