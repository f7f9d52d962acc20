// SPDX-License-Identifier: Apache-2.0
#include "reading/file_read_ahead.h"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <vector>

#include <fcntl.h>

#include <unistd.h>

namespace trainscope::ui {

FileReadAhead::FileReadAhead(const QString& path, int64_t limit_bytes) {
    const QFileInfo info(path);
    if (info.isFile() && info.size() <= limit_bytes)
        thread_ = std::thread([this, path] { readToTheEnd(path); });
}

FileReadAhead::~FileReadAhead() {
    stop();
    wait();
}

void FileReadAhead::wait() {
    if (thread_.joinable())
        thread_.join();
}

int64_t FileReadAhead::halfOfThePhysicalMemory() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    return pages > 0 && page_size > 0 ? int64_t(pages) * page_size / 2 : 0;
}

void FileReadAhead::readToTheEnd(const QString& path) {
    QFile file(path);
    // Unbuffered: each read (elsewhere than on Linux) goes to the kernel as one large read.
    if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
        return;
#ifdef __linux__
    // The kernel reads each chunk into the page cache without copying it out: far less CPU
    // time than read(), on cores that the checks keep busy meanwhile. 128 KiB a call: the kernel
    // reads at most the larger of its read-ahead window and the disk's largest request per call,
    // 128 KiB or more on any disk.
    const qint64 size = file.size();
    constexpr qint64 kAdvised = 128 << 10;
    while (!stop_ && bytes_read_ < size) {
        if (posix_fadvise(file.handle(), bytes_read_, kAdvised, POSIX_FADV_WILLNEED) != 0)
            return;  // a hint the file system does not take: SQLite reads what it needs
        bytes_read_ += std::min(kAdvised, size - bytes_read_);
    }
#else
    // 1 MiB: large enough for the kernel's read-ahead to keep the disk busy, and the reading
    // stops within one of them when the report closes.
    std::vector<char> chunk(1 << 20);
    while (!stop_) {
        const qint64 count = file.read(chunk.data(), qint64(chunk.size()));
        if (count <= 0)
            return;  // the end, or a file that shrank or cannot be read
        bytes_read_ += count;
    }
#endif
}

}  // namespace trainscope::ui
