// SPDX-License-Identifier: Apache-2.0
// Test helper: reads a report file with plain SQLite, independently of the writer.
#pragma once

#include <string>
#include <vector>

struct sqlite3;

namespace trainscope::test {

using Row = std::vector<std::string>;  // NULL reads as "NULL"

class ReportReader {
  public:
    explicit ReportReader(const std::string& path);  // read-only
    ~ReportReader();
    std::vector<Row> rows(const std::string& sql) const;
    std::string scalar(const std::string& sql) const;  // first column of the first row
    double number(const std::string& sql) const { return std::stod(scalar(sql)); }

  private:
    sqlite3* db_ = nullptr;
};

// The lines of a source file tagged "# trainscope-test: TAG" (1-based).
int taggedLine(const std::string& file, const std::string& tag);

// A fresh, empty folder under the system's temporary folder; removed by the caller.
std::string makeTempDir();

// The names of the entries of a folder, sorted: what a run left there.
std::vector<std::string> fileNames(const std::string& dir);

}  // namespace trainscope::test
