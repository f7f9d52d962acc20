// SPDX-License-Identifier: Apache-2.0
// A restricted reader of Python pickles (protocols 2 to 5) that holds plain data only: dicts,
// lists, tuples, sets, strings, bytes, integers, floats, booleans and None, which is all that a
// CUDA memory snapshot (`torch.cuda.memory._dump_snapshot`) holds. Nothing in the file is run:
// an opcode that would import or call anything (GLOBAL, REDUCE, BUILD, ...) is refused with one
// line, as is a damaged or cut-off pickle. Python's own `pickle.load` runs the code a pickle
// names, which is why a snapshot is never read with it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "imports/byte_source.h"
#include "imports/trace_events.h"

namespace trainscope {

// A value: scalars inline, texts and containers by number into the PickleData that holds them.
struct PickleValue {
    enum class Kind : uint8_t { None, Bool, Int, Float, Text, List, Dict };
    Kind kind = Kind::None;
    union {
        int64_t number;  // Bool, Int; Text: a number into texts; List, Dict: into containers
        double real;
    };
    PickleValue() : number(0) {}
    static PickleValue of(Kind kind, int64_t number) {
        PickleValue v;
        v.kind = kind;
        v.number = number;
        return v;
    }
};

// A list (tuples and sets are read as lists) or a dict (its keys and values alternating).
struct PickleContainer {
    bool dict = false;
    std::vector<PickleValue> items;
};

struct PickleData {
    TraceTexts texts;
    std::vector<PickleContainer> containers;
    PickleValue root;

    // Queries for a reader that knows the shape it expects; each answers "nothing" (a None, an
    // empty list) when the value is of another kind, so that a foreign pickle reads as empty.
    const PickleContainer* list(const PickleValue& v) const;
    // The value of `key` in dict `v`, or None.
    PickleValue get(const PickleValue& v, const char* key) const;
    const std::string* text(const PickleValue& v) const;
    bool isInt(const PickleValue& v) const { return v.kind == PickleValue::Kind::Int; }
};

// Throws trainscope::Error, one line, for a file that is not a pickle, is damaged or cut off,
// or would run code; Cancelled when `cancel` becomes true.
PickleData readPickle(BufferedBytes& bytes, const ImportProgress& progress = {},
                      const std::atomic<bool>* cancel = nullptr);

}  // namespace trainscope
