// SPDX-License-Identifier: Apache-2.0
#include "trainscope/imported_file.h"

#include <cstring>
#include <optional>

#include "imports/byte_source.h"
#include "imports/memory_snapshot.h"
#include "imports/pickle_reader.h"
#include "imports/trace_events.h"
#include "imports/trace_import.h"
#include "trainscope/error.h"
#include "trainscope/report_reading.h"

namespace trainscope {
namespace {

bool endsWith(const std::string& text, const std::string& end) {
    return text.size() >= end.size() &&
           text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// What a file's first bytes say it is: a pickle's protocol mark (a snapshot), or JSON's first
// character after a UTF-8 byte order mark (some editors write one) and white space (a trace);
// the mark and the space are taken. None: neither; `first` is then the byte that said so (-1:
// the end).
ImportedFormat formatByFirstBytes(BufferedBytes& bytes, int& first) {
    first = bytes.peek();
    if (first == 0x80) {
        return ImportedFormat::MemorySnapshot;
    }
    if (first == 0xEF) {
        bytes.take();
        if (bytes.take() != 0xBB || bytes.take() != 0xBF) {
            return ImportedFormat::None;
        }
        first = bytes.peek();
    }
    while (first == ' ' || first == '\n' || first == '\r' || first == '\t') {
        bytes.take();
        first = bytes.peek();
    }
    return first == '{' || first == '[' ? ImportedFormat::ProfilerTrace : ImportedFormat::None;
}

ImportedRun importFrom(ByteSource& source, const ImportProgress& progress,
                       const std::atomic<bool>* cancel) {
    BufferedBytes bytes(source);
    int first = -1;
    switch (formatByFirstBytes(bytes, first)) {
        case ImportedFormat::MemorySnapshot:
            return importMemorySnapshot(readPickle(bytes, progress, cancel), source.name());
        case ImportedFormat::ProfilerTrace:
            return importTrace(readTraceEvents(bytes, progress, cancel), source.name());
        case ImportedFormat::None:
            break;
    }
    throw Error(source.name() + (first < 0 ? " is empty"
                                           : " is neither a torch.profiler trace (JSON) nor a "
                                             "memory snapshot (pickle)"));
}

}  // namespace

ImportedFormat importedFormatOf(const std::string& path) {
    // What cannot be opened as a file (a missing one, a FIFO that opening would wait on) is
    // judged by its name: whoever reads it then says why it cannot be read.
    const auto byName = [&path] {
        if (endsWith(path, ".json") || endsWith(path, ".json.gz")) {
            return ImportedFormat::ProfilerTrace;
        }
        if (endsWith(path, ".pickle") || endsWith(path, ".pkl")) {
            return ImportedFormat::MemorySnapshot;
        }
        return ImportedFormat::None;
    };
    if (!notAReportFile(path).empty()) {
        return byName();
    }
    std::optional<ByteSource> source;
    try {
        source.emplace(ByteSource::openFile(path));
    } catch (const Error&) {
        return byName();
    }
    // By its first bytes, inflated where gzipped (x.pickle.gz, a trace named x.pt), as the
    // import reads them, or SQLite's header (a report). Other content goes by its name, and
    // gzip's is never a report: the import names what is wrong with it.
    const ImportedFormat otherwise = source->gzipped() && byName() == ImportedFormat::None
                                         ? ImportedFormat::ProfilerTrace
                                         : byName();
    try {
        BufferedBytes bytes(*source);
        int first = -1;
        if (const ImportedFormat format = formatByFirstBytes(bytes, first);
            format != ImportedFormat::None) {
            return format;
        }
        static constexpr char kSqliteHeader[] = "SQLite format 3";  // and its NUL: 16 bytes
        char head[sizeof kSqliteHeader] = {};
        if (first == 'S' && bytes.take(head, sizeof head) &&
            std::memcmp(head, kSqliteHeader, sizeof head) == 0) {
            return ImportedFormat::None;
        }
    } catch (const Error&) {  // a damaged gzip stream
    }
    return otherwise;
}

ImportedRun importFile(const std::string& path, const ImportProgress& progress,
                       const std::atomic<bool>* cancel) {
    ByteSource source = ByteSource::openFile(path);
    return importFrom(source, progress, cancel);
}

ImportedRun importBytes(std::string_view bytes, const std::string& name) {
    ByteSource source = ByteSource::ofBytes(bytes, name);
    return importFrom(source, {}, nullptr);
}

std::string importedReportsPrefix(const std::string& path) {
    return path + ".trainscope";
}

}  // namespace trainscope
