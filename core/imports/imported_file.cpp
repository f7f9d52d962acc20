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

ImportedRun importFrom(ByteSource& source, const ImportProgress& progress,
                       const std::atomic<bool>* cancel) {
    const auto neither = [&source] {
        return Error(source.name() +
                     " is neither a torch.profiler trace (JSON) nor a memory snapshot (pickle)");
    };
    BufferedBytes bytes(source);
    int first = bytes.peek();
    if (first == 0x80) {
        const PickleData snapshot = readPickle(bytes, progress, cancel);
        return importMemorySnapshot(snapshot, source.name());
    }
    if (first == 0xEF) {  // UTF-8's byte order mark, which some editors write before JSON
        bytes.take();
        if (bytes.take() != 0xBB || bytes.take() != 0xBF) {
            throw neither();
        }
        first = bytes.peek();
    }
    while (first == ' ' || first == '\n' || first == '\r' || first == '\t') {
        bytes.take();
        first = bytes.peek();
    }
    if (first == '{' || first == '[') {
        return importTrace(readTraceEvents(bytes, progress, cancel), source.name());
    }
    throw first < 0 ? Error(source.name() + " is empty") : neither();
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
    // By its first bytes, inflated where gzipped (x.pickle.gz, a trace named x.pt): a pickle's
    // protocol mark, JSON's first character after white space or a byte order mark, or SQLite's
    // header (a report). Other content goes by its name, and gzip's is never a report: the
    // import names what is wrong with it.
    const ImportedFormat otherwise = source->gzipped() && byName() == ImportedFormat::None
                                         ? ImportedFormat::ProfilerTrace
                                         : byName();
    char head[64] = {};
    size_t got = 0;
    try {
        for (size_t n = 1; n > 0 && got < sizeof head;) {  // a read may give fewer bytes
            n = source->read(head + got, sizeof head - got);
            got += n;
        }
    } catch (const Error&) {
        return otherwise;
    }
    const auto* c = reinterpret_cast<const unsigned char*>(head);
    if (got > 0 && c[0] == 0x80) {
        return ImportedFormat::MemorySnapshot;
    }
    size_t i = got >= 3 && c[0] == 0xEF && c[1] == 0xBB && c[2] == 0xBF ? 3 : 0;
    while (i < got && (c[i] == ' ' || c[i] == '\n' || c[i] == '\r' || c[i] == '\t'))
        ++i;
    if (i < got && (c[i] == '{' || c[i] == '[')) {
        return ImportedFormat::ProfilerTrace;
    }
    static constexpr char kSqliteHeader[] = "SQLite format 3";  // and its NUL: 16 bytes
    if (got >= sizeof kSqliteHeader &&
        std::memcmp(head, kSqliteHeader, sizeof kSqliteHeader) == 0) {
        return ImportedFormat::None;
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
