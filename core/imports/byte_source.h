// SPDX-License-Identifier: Apache-2.0
// The bytes of a file that users hold, read in chunks, gzip inflated as it is read: a trace of
// gigabytes is never in memory whole, packed or unpacked. A file that starts with gzip's magic
// is inflated (every member of a multi-member gzip, as gunzip does); any other is read as is.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace trainscope {

class ByteSource {
  public:
    // Throws trainscope::Error when the file cannot be opened.
    static ByteSource openFile(const std::string& path);
    // Bytes in memory (the fuzz target's input); they must outlive the source.
    static ByteSource ofBytes(std::string_view bytes, std::string name);

    ByteSource(ByteSource&&) noexcept;
    ByteSource& operator=(ByteSource&&) noexcept;
    ~ByteSource();

    // Up to `size` bytes of the (inflated) content into `out`; 0 at its end. Throws
    // trainscope::Error for a damaged gzip stream or one that ends early.
    size_t read(char* out, size_t size);

    // How far into the file the reading is (its own bytes, packed), and the file's size: what a
    // progress bar shows.
    uint64_t consumed() const { return consumed_; }
    uint64_t total() const { return total_; }
    bool gzipped() const { return gzip_ != nullptr; }
    const std::string& name() const { return name_; }

  private:
    ByteSource() = default;
    size_t readRaw(char* out, size_t size);
    size_t endAfterLastMember();
    void startInflating();
    size_t inflateInto(char* out, size_t size);

    std::string name_;
    std::FILE* file_ = nullptr;
    std::string_view memory_;
    uint64_t consumed_ = 0, total_ = 0;
    struct Gzip;
    std::unique_ptr<Gzip> gzip_;
    std::vector<char> pending_;  // the raw bytes read to look for gzip's magic, not yet handed on
    size_t pending_at_ = 0;
};

// A byte at a time over a ByteSource, with a buffer: what the JSON and pickle readers take.
class BufferedBytes {
  public:
    explicit BufferedBytes(ByteSource& source) : source_(source), buffer_(size_t{1} << 16) {}
    // The next byte without taking it, or -1 at the end.
    int peek() {
        if (at_ == end_ && !fill()) {
            return -1;
        }
        return static_cast<unsigned char>(buffer_[at_]);
    }
    int take() {
        const int c = peek();
        if (c >= 0) {
            ++at_;
            ++offset_;
        }
        return c;
    }
    // Exactly `size` bytes into `out`; false when the content ends first.
    bool take(char* out, size_t size);
    // The bytes read ahead and not taken yet (read more where none are), to be scanned in place
    // (a parser's hot loop, without a call per byte); empty at the end. skip(n) takes n of
    // them.
    std::string_view available() {
        if (at_ == end_) {
            fill();
        }
        return {buffer_.data() + at_, end_ - at_};
    }
    void skip(size_t n) {
        at_ += n;
        offset_ += n;
    }
    uint64_t offset() const { return offset_; }  // of the (inflated) content
    ByteSource& source() { return source_; }

  private:
    bool fill();
    ByteSource& source_;
    std::vector<char> buffer_;
    size_t at_ = 0, end_ = 0;
    uint64_t offset_ = 0;
};

}  // namespace trainscope
