// SPDX-License-Identifier: Apache-2.0
#include "imports/byte_source.h"

#include <zlib.h>

#include <cstring>

#include "trainscope/error.h"
#include "trainscope/report_reading.h"

namespace trainscope {

struct ByteSource::Gzip {
    z_stream stream{};
    std::vector<char> input = std::vector<char>(size_t{1} << 16);
    bool member_ended = false;  // the last member ended; another may follow
    ~Gzip() { inflateEnd(&stream); }
};

ByteSource ByteSource::openFile(const std::string& path) {
    // Before opening: opening a FIFO waits for a writer, maybe for ever.
    if (const std::string why = notAReportFile(path); !why.empty()) {
        throw Error("cannot open " + path + ": " + why);
    }
    ByteSource source;
    source.name_ = path;
    source.file_ = std::fopen(path.c_str(), "rb");
    if (!source.file_) {
        throw Error("cannot open " + path + ": " + std::strerror(errno));
    }
    if (std::fseek(source.file_, 0, SEEK_END) == 0) {
        const long size = std::ftell(source.file_);
        source.total_ = size > 0 ? static_cast<uint64_t>(size) : 0;
        std::rewind(source.file_);
    }
    source.startInflating();
    return source;
}

ByteSource ByteSource::ofBytes(std::string_view bytes, std::string name) {
    ByteSource source;
    source.name_ = std::move(name);
    source.memory_ = bytes;
    source.total_ = bytes.size();
    source.startInflating();
    return source;
}

ByteSource::ByteSource(ByteSource&& other) noexcept {
    *this = std::move(other);
}

ByteSource& ByteSource::operator=(ByteSource&& other) noexcept {
    if (this != &other) {
        if (file_) {
            std::fclose(file_);
        }
        name_ = std::move(other.name_);
        file_ = other.file_;
        other.file_ = nullptr;
        memory_ = other.memory_;
        consumed_ = other.consumed_;
        total_ = other.total_;
        gzip_ = std::move(other.gzip_);
        pending_ = std::move(other.pending_);
        pending_at_ = other.pending_at_;
    }
    return *this;
}

ByteSource::~ByteSource() {
    if (file_) {
        std::fclose(file_);
    }
}

size_t ByteSource::readRaw(char* out, size_t size) {
    size_t taken = 0;
    if (pending_at_ < pending_.size()) {
        taken = std::min(size, pending_.size() - pending_at_);
        std::memcpy(out, pending_.data() + pending_at_, taken);
        pending_at_ += taken;
        return taken;
    }
    if (file_) {
        taken = std::fread(out, 1, size, file_);
        if (taken == 0 && std::ferror(file_)) {
            throw Error("cannot read " + name_ + ": " + std::strerror(errno));
        }
    } else {
        const size_t at = static_cast<size_t>(consumed_);
        taken = std::min(size, memory_.size() - at);
        std::memcpy(out, memory_.data() + at, taken);
    }
    consumed_ += taken;
    return taken;
}

void ByteSource::startInflating() {
    char magic[2];
    const size_t got = readRaw(magic, 2);
    pending_.assign(magic, magic + got);
    if (pending_.size() == 2 && static_cast<unsigned char>(pending_[0]) == 0x1f &&
        static_cast<unsigned char>(pending_[1]) == 0x8b) {
        gzip_ = std::make_unique<Gzip>();
        // 16 + MAX_WBITS: a gzip header and trailer around the deflate stream.
        if (inflateInit2(&gzip_->stream, 16 + MAX_WBITS) != Z_OK) {
            throw Error("cannot inflate " + name_ + ": zlib would not start");
        }
    }
}

size_t ByteSource::inflateInto(char* out, size_t size) {
    z_stream& z = gzip_->stream;
    z.next_out = reinterpret_cast<Bytef*>(out);
    z.avail_out = static_cast<uInt>(size);
    while (z.avail_out == size) {
        if (z.avail_in == 0) {
            const size_t got = readRaw(gzip_->input.data(), gzip_->input.size());
            if (got == 0) {
                if (gzip_->member_ended) {
                    return 0;  // the end, after a whole member
                }
                throw Error(name_ + " ends early: its gzip stream is cut off");
            }
            z.next_in = reinterpret_cast<Bytef*>(gzip_->input.data());
            z.avail_in = static_cast<uInt>(got);
        }
        if (gzip_->member_ended) {
            if (*z.next_in != 0x1f) {
                return (size - z.avail_out) + endAfterLastMember();
            }
            // Another member follows (gzip files may be concatenated).
            inflateReset(&z);
            gzip_->member_ended = false;
        }
        const int rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            gzip_->member_ended = true;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            throw Error(name_ + " is not a valid gzip file: " + (z.msg ? z.msg : "damaged data"));
        }
    }
    return size - z.avail_out;
}

// What follows the last gzip member: zeros (a block device's or an archiver's padding, which
// gunzip skips too) end the file; other bytes are none of the data, and refused as such rather
// than as a damaged gzip header. Returns 0: nothing more to read.
size_t ByteSource::endAfterLastMember() {
    z_stream& z = gzip_->stream;
    for (;;) {
        for (; z.avail_in > 0; ++z.next_in, --z.avail_in)
            if (*z.next_in != 0) {
                throw Error(name_ +
                            " holds other bytes after its gzip data (not a gzip member, nor "
                            "zeros): they are not read, and the file is refused");
            }
        const size_t got = readRaw(gzip_->input.data(), gzip_->input.size());
        if (got == 0) {
            return 0;
        }
        z.next_in = reinterpret_cast<Bytef*>(gzip_->input.data());
        z.avail_in = static_cast<uInt>(got);
    }
}

size_t ByteSource::read(char* out, size_t size) {
    if (size == 0) {
        return 0;
    }
    return gzip_ ? inflateInto(out, size) : readRaw(out, size);
}

bool BufferedBytes::fill() {
    at_ = 0;
    end_ = source_.read(buffer_.data(), buffer_.size());
    return end_ > 0;
}

bool BufferedBytes::take(char* out, size_t size) {
    while (size > 0) {
        if (at_ == end_ && !fill()) {
            return false;
        }
        const size_t n = std::min(size, end_ - at_);
        std::memcpy(out, buffer_.data() + at_, n);
        at_ += n;
        offset_ += n;
        out += n;
        size -= n;
    }
    return true;
}

}  // namespace trainscope
