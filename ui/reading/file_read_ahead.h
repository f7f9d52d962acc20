// SPDX-License-Identifier: Apache-2.0
// Has a report file read from start to end on a thread of its own while the report is checked
// and read, so that the page cache holds its pages when SQLite asks for them (on Linux, the
// kernel reads it, asked chunk by chunk with posix_fadvise; elsewhere, the thread reads it). SQLite
// reads a table's pages one at a time, in b-tree order; in a report written entry by entry (as
// other tools may write one), each table's pages are spread over the whole file, so the kernel
// sees no sequential reading and reads a page at a time, while the disk reads the whole file in
// large sequential reads in a fraction of that time (bench/report_open, docs/benchmarks.md).
// TrainScope writes a report table by table, the tables of the open first, so that this reading
// brings them in first. The frames check that follows the first screens reads the rest.
#pragma once

#include <QString>
#include <atomic>
#include <cstdint>
#include <thread>

namespace trainscope::ui {

class FileReadAhead {
  public:
    // Starts reading `path` unless it is larger than `limit_bytes`: a file that does not fit in
    // the memory would push its own first pages out of the page cache before SQLite reads them.
    // A file that cannot be read is left alone: the reading is a hint, SQLite says what fails.
    explicit FileReadAhead(const QString& path, int64_t limit_bytes = halfOfThePhysicalMemory());
    // Stops the reading (stop) and waits for it.
    ~FileReadAhead();
    FileReadAhead(const FileReadAhead&) = delete;
    FileReadAhead& operator=(const FileReadAhead&) = delete;

    // Whether the file is being read (or was read): false for a file over the limit.
    bool started() const { return thread_.joinable(); }
    // Ends the reading at the next chunk (128 KiB on Linux, 1 MiB elsewhere).
    void stop() { stop_ = true; }
    // Waits until the whole file is read (or the reading stopped).
    void wait();
    // The bytes read so far, or asked of the kernel (posix_fadvise), which reads them into the
    // page cache in the background: they may still be on their way.
    int64_t bytesRead() const { return bytes_read_; }

    static int64_t halfOfThePhysicalMemory();

  private:
    void readToTheEnd(const QString& path);
    std::atomic<bool> stop_{false};
    std::atomic<int64_t> bytes_read_{0};
    std::thread thread_;
};

}  // namespace trainscope::ui
