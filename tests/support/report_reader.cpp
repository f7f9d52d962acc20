// SPDX-License-Identifier: Apache-2.0
#include "support/report_reader.h"

#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace trainscope::test {

ReportReader::ReportReader(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        throw std::runtime_error("cannot open " + path);
    }
}

ReportReader::~ReportReader() {
    sqlite3_close(db_);
}

std::vector<Row> ReportReader::rows(const std::string& sql) const {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        throw std::runtime_error(std::string("bad query: ") + sqlite3_errmsg(db_) + ": " + sql);
    }
    std::vector<Row> result;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        Row row;
        for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
            const unsigned char* text = sqlite3_column_text(stmt, i);
            row.emplace_back(text ? reinterpret_cast<const char*>(text) : "NULL");
        }
        result.push_back(std::move(row));
    }
    sqlite3_finalize(stmt);
    return result;
}

std::string ReportReader::scalar(const std::string& sql) const {
    const std::vector<Row> result = rows(sql);
    if (result.empty() || result[0].empty()) {
        throw std::runtime_error("no result for: " + sql);
    }
    return result[0][0];
}

int taggedLine(const std::string& file, const std::string& tag) {
    std::ifstream in(file);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string marker = "# trainscope-test: " + tag;
        const size_t pos = line.find(marker);
        if (pos != std::string::npos && pos + marker.size() == line.size()) {
            return number;
        }
    }
    throw std::runtime_error("no line tagged '" + tag + "' in " + file);
}

std::string makeTempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "trainscope-test-XXXXXX");
    if (!mkdtemp(pattern.data())) {
        throw std::runtime_error("mkdtemp failed");
    }
    return pattern;
}

std::vector<std::string> fileNames(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace trainscope::test
