// SPDX-License-Identifier: Apache-2.0
// An append-only sequence kept in chunks of about 64 KiB: what the recorder appends for every
// call and allocation of a step (hundreds of thousands of them in a large one). A vector would
// double as it grows, copying everything and holding up to twice what it needs; chunks are
// never moved, and small enough for malloc to serve from memory the step itself has freed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace trainscope {

template <typename T>
class ChunkedLog {
  public:
    static constexpr size_t kChunk =
        sizeof(T) < (size_t{64} << 10) ? (size_t{64} << 10) / sizeof(T) : 1;

    T& push_back(T value) {
        if (size_ == chunks_.size() * kChunk) {
            chunks_.emplace_back(new T[kChunk]);
        }
        T& slot = chunks_.back()[size_++ % kChunk];
        slot = std::move(value);
        return slot;
    }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](size_t i) { return chunks_[i / kChunk][i % kChunk]; }
    const T& operator[](size_t i) const { return chunks_[i / kChunk][i % kChunk]; }
    const T& at(size_t i) const {
        if (i >= size_) {
            throw std::out_of_range("ChunkedLog::at");
        }
        return (*this)[i];
    }
    const T& front() const { return (*this)[0]; }
    T& back() { return (*this)[size_ - 1]; }
    const T& back() const { return (*this)[size_ - 1]; }
    void clear() {
        chunks_.clear();
        size_ = 0;
        released_ = 0;
    }
    // Frees the whole chunks that hold only elements before `index`, for a reader that goes
    // through the log once and is done with them: those elements are gone, the others keep
    // their indices.
    void releaseBefore(size_t index) {
        for (const size_t whole = std::min(index, size_) / kChunk; released_ < whole; ++released_)
            chunks_[released_].reset();
    }

    class const_iterator {
      public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = const T*;
        using reference = const T&;
        const_iterator(const ChunkedLog* log, size_t i) : log_(log), i_(i) {}
        const T& operator*() const { return (*log_)[i_]; }
        const T* operator->() const { return &(*log_)[i_]; }
        const_iterator& operator++() {
            ++i_;
            return *this;
        }
        bool operator==(const const_iterator& other) const { return i_ == other.i_; }
        bool operator!=(const const_iterator& other) const { return i_ != other.i_; }

      private:
        const ChunkedLog* log_;
        size_t i_;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size_}; }

  private:
    std::vector<std::unique_ptr<T[]>> chunks_;
    size_t size_ = 0;
    size_t released_ = 0;  // chunks freed by releaseBefore()
};

}  // namespace trainscope
