// SPDX-License-Identifier: Apache-2.0
#include "imports/pickle_reader.h"

#include <cstring>
#include <unordered_map>

#include "trainscope/error.h"

namespace trainscope {

const PickleContainer* PickleData::list(const PickleValue& v) const {
    if (v.kind != PickleValue::Kind::List) {
        return nullptr;
    }
    return &containers[static_cast<size_t>(v.number)];
}

PickleValue PickleData::get(const PickleValue& v, const char* key) const {
    if (v.kind != PickleValue::Kind::Dict) {
        return {};
    }
    const std::vector<PickleValue>& items = containers[static_cast<size_t>(v.number)].items;
    for (size_t i = 0; i + 1 < items.size(); i += 2) {
        if (items[i].kind == PickleValue::Kind::Text &&
            texts[static_cast<int32_t>(items[i].number)] == key) {
            return items[i + 1];
        }
    }
    return {};
}

const std::string* PickleData::text(const PickleValue& v) const {
    return v.kind == PickleValue::Kind::Text ? &texts[static_cast<int32_t>(v.number)] : nullptr;
}

namespace {

using Kind = PickleValue::Kind;

// Opcodes that name code to run: the reason a pickle cannot be trusted.
const char* codeOpcode(int op) {
    switch (op) {
        case 'c':
            return "GLOBAL";
        case 0x93:
            return "STACK_GLOBAL";
        case 'R':
            return "REDUCE";
        case 'b':
            return "BUILD";
        case 'i':
            return "INST";
        case 'o':
            return "OBJ";
        case 0x81:
            return "NEWOBJ";
        case 0x92:
            return "NEWOBJ_EX";
        case 'P':
            return "PERSID";
        case 'Q':
            return "BINPERSID";
        case 0x82:
        case 0x83:
        case 0x84:
            return "EXT";
        default:
            return nullptr;
    }
}

constexpr size_t kMaxMemo = size_t{1} << 28;
constexpr int kOpcodesPerProgress = 1 << 16;

class PickleMachine {
  public:
    PickleMachine(BufferedBytes& bytes, const ImportProgress& progress,
                  const std::atomic<bool>* cancel)
        : source_(bytes.source()), bytes_(bytes), progress_(progress), cancel_(cancel) {}

    PickleData run() {
        if (bytes_.peek() != 0x80) {
            throw Error(source_.name() +
                        " is not a pickle of protocol 2 or later (a memory "
                        "snapshot's): it does not start with PROTO");
        }
        for (int64_t count = 0;; ++count) {
            if (count % kOpcodesPerProgress == 0) {
                if (cancel_ && cancel_->load()) {
                    throw Cancelled();
                }
                if (progress_) {
                    progress_(source_.consumed(), source_.total());
                }
            }
            const int op = bytes_.take();
            if (op < 0) {
                cutOff();
            }
            if (op == '.') {
                break;
            }
            step(op);
        }
        if (stack_.size() != 1 || !marks_.empty()) {
            damaged("it stops with " + std::to_string(stack_.size()) + " values on its stack");
        }
        data_.root = stack_.back();
        return std::move(data_);
    }

  private:
    [[noreturn]] void cutOff() {
        throw Error(source_.name() + " ends early: the pickle is cut off at byte " +
                    std::to_string(bytes_.offset()));
    }
    [[noreturn]] void damaged(const std::string& why) {
        throw Error(source_.name() + " is a damaged pickle: " + why + " (at byte " +
                    std::to_string(bytes_.offset()) + ")");
    }
    uint64_t little(int size) {
        unsigned char b[8] = {};
        if (!bytes_.take(reinterpret_cast<char*>(b), static_cast<size_t>(size))) {
            cutOff();
        }
        uint64_t v = 0;
        for (int i = size - 1; i >= 0; --i)
            v = v << 8 | b[i];
        return v;
    }
    PickleValue pop() {
        if (stack_.size() <= floor()) {
            damaged("a value is taken from an empty stack");
        }
        PickleValue v = stack_.back();
        stack_.pop_back();
        return v;
    }
    size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
    // The values since the last mark, which is removed.
    std::vector<PickleValue> popMark() {
        if (marks_.empty()) {
            damaged("a mark is missing");
        }
        const size_t mark = marks_.back();
        marks_.pop_back();
        std::vector<PickleValue> items(stack_.begin() + static_cast<std::ptrdiff_t>(mark),
                                       stack_.end());
        stack_.resize(mark);
        return items;
    }
    PickleValue container(bool dict, std::vector<PickleValue> items = {}) {
        data_.containers.push_back({dict, std::move(items)});
        return PickleValue::of(dict ? Kind::Dict : Kind::List,
                               static_cast<int64_t>(data_.containers.size() - 1));
    }
    PickleContainer& containerOf(const PickleValue& v, bool dict) {
        if (v.kind != (dict ? Kind::Dict : Kind::List)) {
            damaged(dict ? "items are set on a value that is not a dict"
                         : "items are appended to a value that is not a list");
        }
        return data_.containers[static_cast<size_t>(v.number)];
    }
    PickleValue& top() {
        if (stack_.size() <= floor()) {
            damaged("a value is missing");
        }
        return stack_.back();
    }
    void text(uint64_t size) {
        if (size > source_.total() * 1024 + (uint64_t{1} << 20)) {
            damaged("a string longer than the file could hold");
        }
        std::string value;
        char chunk[1 << 14];
        while (size > 0) {
            const size_t n = static_cast<size_t>(std::min<uint64_t>(size, sizeof chunk));
            if (!bytes_.take(chunk, n)) {
                cutOff();
            }
            value.append(chunk, n);
            size -= n;
        }
        stack_.push_back(PickleValue::of(Kind::Text, data_.texts.add(value)));
    }
    // Python's pickler numbers its memo from 0 without gaps; an index beyond the next one (a
    // hostile file's, 13 bytes asking for 4 GiB) is kept apart, so that the memo never holds
    // more entries than the file stored.
    void memoPut(size_t index) {
        if (index >= kMaxMemo) {
            damaged("a memo index out of range");
        }
        if (index < memo_.size()) {
            memo_[index] = top();
        } else if (index == memo_.size()) {
            memo_.push_back(top());
        } else {
            sparse_memo_[index] = top();
        }
    }
    void memoGet(size_t index) {
        if (index < memo_.size()) {
            stack_.push_back(memo_[index]);
            return;
        }
        const auto found = sparse_memo_.find(index);
        if (found == sparse_memo_.end()) {
            damaged("it refers to a value it never stored");
        }
        stack_.push_back(found->second);
    }
    void integer(int64_t v) { stack_.push_back(PickleValue::of(Kind::Int, v)); }
    void longInteger(uint64_t size) {
        if (size > 8) {
            // Beyond 64 bits: no snapshot holds such a number.
            damaged("an integer of " + std::to_string(size) + " bytes");
        }
        unsigned char b[8] = {};
        if (size > 0 && !bytes_.take(reinterpret_cast<char*>(b), static_cast<size_t>(size))) {
            cutOff();
        }
        uint64_t v = 0;
        for (int i = static_cast<int>(size) - 1; i >= 0; --i)
            v = v << 8 | b[i];
        if (size > 0 && size < 8 && (b[size - 1] & 0x80)) {
            v |= ~uint64_t{0} << (8 * size);  // sign extension
        }
        integer(static_cast<int64_t>(v));
    }

    void step(int op) {
        if (const char* code = codeOpcode(op)) {
            throw Error(source_.name() + " is a pickle that would run code (" + code + " at byte " +
                        std::to_string(bytes_.offset() - 1) +
                        "): TrainScope reads only plain data and does not open it");
        }
        switch (op) {
            case 0x80:
                little(1);
                break;  // PROTO
            case 0x95:
                little(8);
                break;  // FRAME: a length, for readers that prefetch
            case '(':
                marks_.push_back(stack_.size());
                break;  // MARK
            case '}':
                stack_.push_back(container(true));
                break;
            case ']':
                stack_.push_back(container(false));
                break;
            case ')':
                stack_.push_back(container(false));
                break;  // EMPTY_TUPLE
            case 0x8f:
                stack_.push_back(container(false));
                break;  // EMPTY_SET
            case 't':
            case 'l':
            case 0x91:
                stack_.push_back(container(false, popMark()));
                break;
            case 'd': {
                std::vector<PickleValue> items = popMark();
                if (items.size() % 2) {
                    damaged("a dict with a key without value");
                }
                stack_.push_back(container(true, std::move(items)));
                break;
            }
            case 0x85:
            case 0x86:
            case 0x87: {  // TUPLE1..3
                const size_t n = static_cast<size_t>(op - 0x84);
                std::vector<PickleValue> items(n);
                for (size_t i = n; i > 0; --i)
                    items[i - 1] = pop();
                stack_.push_back(container(false, std::move(items)));
                break;
            }
            case 's': {  // SETITEM
                const PickleValue value = pop(), key = pop();
                PickleContainer& dict = containerOf(top(), true);
                dict.items.push_back(key);
                dict.items.push_back(value);
                break;
            }
            case 'u': {  // SETITEMS
                std::vector<PickleValue> items = popMark();
                if (items.size() % 2) {
                    damaged("a dict with a key without value");
                }
                PickleContainer& dict = containerOf(top(), true);
                dict.items.insert(dict.items.end(), items.begin(), items.end());
                break;
            }
            case 'a': {  // APPEND
                const PickleValue value = pop();
                containerOf(top(), false).items.push_back(value);
                break;
            }
            case 'e':
            case 0x90: {  // APPENDS, ADDITEMS
                std::vector<PickleValue> items = popMark();
                PickleContainer& list = containerOf(top(), false);
                list.items.insert(list.items.end(), items.begin(), items.end());
                break;
            }
            case 'X':
                text(little(4));
                break;  // BINUNICODE
            case 0x8c:
                text(little(1));
                break;  // SHORT_BINUNICODE
            case 0x8d:
                text(little(8));
                break;  // BINUNICODE8
            case 'B':
                text(little(4));
                break;  // BINBYTES
            case 'C':
                text(little(1));
                break;  // SHORT_BINBYTES
            case 0x8e:
                text(little(8));
                break;  // BINBYTES8
            case 0x96:
                text(little(8));
                break;  // BYTEARRAY8
            case 'J':
                integer(static_cast<int32_t>(static_cast<uint32_t>(little(4))));
                break;
            case 'K':
                integer(static_cast<int64_t>(little(1)));
                break;
            case 'M':
                integer(static_cast<int64_t>(little(2)));
                break;
            case 0x8a:
                longInteger(little(1));
                break;  // LONG1
            case 0x8b:
                longInteger(little(4));
                break;   // LONG4
            case 'G': {  // BINFLOAT: big-endian
                unsigned char b[8];
                if (!bytes_.take(reinterpret_cast<char*>(b), 8)) {
                    cutOff();
                }
                uint64_t bits = 0;
                for (unsigned char c : b)
                    bits = bits << 8 | c;
                PickleValue v;
                v.kind = Kind::Float;
                std::memcpy(&v.real, &bits, 8);
                stack_.push_back(v);
                break;
            }
            case 'N':
                stack_.push_back({});
                break;
            case 0x88:
                stack_.push_back(PickleValue::of(Kind::Bool, 1));
                break;
            case 0x89:
                stack_.push_back(PickleValue::of(Kind::Bool, 0));
                break;
            case 0x94:
                memoPut(memo_.size());
                break;  // MEMOIZE
            case 'q':
                memoPut(static_cast<size_t>(little(1)));
                break;
            case 'r':
                memoPut(static_cast<size_t>(little(4)));
                break;
            case 'h':
                memoGet(static_cast<size_t>(little(1)));
                break;
            case 'j':
                memoGet(static_cast<size_t>(little(4)));
                break;
            case '0':
                pop();
                break;  // POP
            case '1':
                popMark();
                break;  // POP_MARK
            case '2':
                stack_.push_back(top());
                break;  // DUP
            default: {
                char hex[8];
                std::snprintf(hex, sizeof hex, "0x%02x", op);
                damaged(std::string("an opcode it does not read (") + hex + ")");
            }
        }
    }

    ByteSource& source_;
    BufferedBytes& bytes_;
    const ImportProgress& progress_;
    const std::atomic<bool>* cancel_;
    PickleData data_;
    std::vector<PickleValue> stack_;
    std::vector<size_t> marks_;
    std::vector<PickleValue> memo_;
    std::unordered_map<size_t, PickleValue> sparse_memo_;
};

}  // namespace

PickleData readPickle(BufferedBytes& bytes, const ImportProgress& progress,
                      const std::atomic<bool>* cancel) {
    return PickleMachine(bytes, progress, cancel).run();
}

}  // namespace trainscope
