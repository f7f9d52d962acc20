// SPDX-License-Identifier: Apache-2.0
#include "trainscope/imported_file.h"

#include "imports/byte_source.h"
#include "imports/memory_snapshot.h"
#include "imports/pickle_reader.h"
#include "imports/trace_events.h"
#include "imports/trace_import.h"
#include "trainscope/error.h"

namespace trainscope {
namespace {

bool endsWith(const std::string& text, const std::string& end) {
    return text.size() >= end.size() &&
           text.compare(text.size() - end.size(), end.size(), end) == 0;
}

ImportedRun importFrom(ByteSource& source, const ImportProgress& progress,
                       const std::atomic<bool>* cancel) {
    BufferedBytes bytes(source);
    int first = bytes.peek();
    if (first == 0x80) {
        const PickleData snapshot = readPickle(bytes, progress, cancel);
        return importMemorySnapshot(snapshot, source.name());
    }
    while (first == ' ' || first == '\n' || first == '\r' || first == '\t') {
        bytes.take();
        first = bytes.peek();
    }
    if (first == '{' || first == '[') {
        return importTrace(readTraceEvents(bytes, progress, cancel), source.name());
    }
    throw Error(source.name() + (first < 0 ? " is empty"
                                           : " is neither a torch.profiler trace (JSON) nor a "
                                             "memory snapshot (pickle)"));
}

}  // namespace

ImportedFormat importedFormatOf(const std::string& path) {
    if (endsWith(path, ".json") || endsWith(path, ".json.gz")) {
        return ImportedFormat::ProfilerTrace;
    }
    if (endsWith(path, ".pickle") || endsWith(path, ".pkl")) {
        return ImportedFormat::MemorySnapshot;
    }
    return ImportedFormat::None;
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
