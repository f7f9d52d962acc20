// SPDX-License-Identifier: Apache-2.0
// The read-ahead of an opened report puts the file's pages into the page cache (which a cold
// open's scans then find there), and leaves alone what it must not read.
#include <gtest/gtest.h>

#include <QDeadlineTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QThread>
#include <vector>

#include "reading/file_read_ahead.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace trainscope::ui {
namespace {

constexpr int64_t kFileBytes = 24 << 20;  // several of the read-ahead's chunks

// The share of the file's pages that are in the page cache (mincore over a mapping of it).
double residentShare(const QString& path) {
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    void* mapping = ::mmap(nullptr, kFileBytes, PROT_READ, MAP_SHARED, fd, 0);
    const long page = sysconf(_SC_PAGESIZE);
    std::vector<unsigned char> resident((kFileBytes + page - 1) / page);
    double share = -1;
    if (mapping != MAP_FAILED && ::mincore(mapping, kFileBytes, resident.data()) == 0) {
        size_t count = 0;
        for (unsigned char flags : resident)
            count += flags & 1;
        share = double(count) / resident.size();
    }
    if (mapping != MAP_FAILED)
        ::munmap(mapping, kFileBytes);
    ::close(fd);
    return share;
}

// Asks the kernel to drop the file's pages from the page cache (they are clean once synced).
void evict(const QString& path) {
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
}

class FileReadAheadTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(dir_.isValid());
        path_ = dir_.filePath(QStringLiteral("report.sqlite"));
        QFile file(path_);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        QByteArray bytes(kFileBytes, '\0');
        for (int64_t i = 0; i < kFileBytes; i += 4096)
            bytes[int(i)] = char(i / 4096);  // no page the file system could leave out
        ASSERT_EQ(file.write(bytes), kFileBytes);
    }
    QTemporaryDir dir_;
    QString path_;
};

TEST_F(FileReadAheadTest, TheWholeFileIsInThePageCacheOnceRead) {
    evict(path_);
    const double before = residentShare(path_);
    if (before > 0.5)  // tmpfs, for one, keeps its pages: nothing to show there
        GTEST_SKIP() << "the page cache keeps this folder's files (" << before * 100
                     << "% resident after eviction)";
    FileReadAhead read_ahead(path_);
    ASSERT_TRUE(read_ahead.started());
    read_ahead.wait();
    EXPECT_EQ(read_ahead.bytesRead(), kFileBytes);
    // The kernel may still be reading what it was asked for: the pages come within seconds.
    QDeadlineTimer deadline(30000);
    double after = residentShare(path_);
    while (after < 1.0 && !deadline.hasExpired()) {
        QThread::msleep(10);
        after = residentShare(path_);
    }
    EXPECT_EQ(after, 1.0) << "before: " << before;
}

TEST_F(FileReadAheadTest, AFileOverTheLimitIsNotRead) {
    FileReadAhead read_ahead(path_, kFileBytes - 1);
    EXPECT_FALSE(read_ahead.started());
    EXPECT_EQ(read_ahead.bytesRead(), 0);
}

TEST_F(FileReadAheadTest, TheLimitIsHalfOfThePhysicalMemory) {
    const int64_t memory = int64_t(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
    EXPECT_EQ(FileReadAhead::halfOfThePhysicalMemory(), memory / 2);
    EXPECT_GT(FileReadAhead::halfOfThePhysicalMemory(), kFileBytes);
}

TEST_F(FileReadAheadTest, AFolderOrAMissingFileIsLeftAlone) {
    FileReadAhead folder(dir_.path());
    EXPECT_FALSE(folder.started());
    FileReadAhead missing(dir_.filePath(QStringLiteral("missing.sqlite")));
    EXPECT_FALSE(missing.started());
}

TEST_F(FileReadAheadTest, StoppingEndsTheReadingAtTheNextChunk) {
    // 64 GiB without a byte on the disk (a sparse file): far more than is read before the stop.
    const QString path = dir_.filePath(QStringLiteral("large.sqlite"));
    const int64_t size = int64_t(64) << 30;
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        if (!file.resize(size))
            GTEST_SKIP() << "this file system holds no sparse file of 64 GiB";
    }
    FileReadAhead read_ahead(path, size);
    ASSERT_TRUE(read_ahead.started());
    read_ahead.stop();  // as the destructor does when the report closes
    read_ahead.wait();
    EXPECT_LT(read_ahead.bytesRead(), size);
}

}  // namespace
}  // namespace trainscope::ui
