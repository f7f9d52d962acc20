// SPDX-License-Identifier: Apache-2.0
// A session's timeline written to its staged file as soon as its memory step ends, rather than
// held until the run's other reports are written: a large step's timeline is most of what the
// session would hold (SessionOptions::timeline_path). Its steps come last, once every observed
// step has ended.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "report/staged_file.h"
#include "trainscope/reports.h"

namespace trainscope {

// Writes a timeline into a staged file for `path` part by part, so that each part of the
// record can be released once written: a part is a TimelineReport holding those rows only
// (its texts: each part's own, or all of them).
class StagedTimelineWriter {
  public:
    explicit StagedTimelineWriter(const std::string& path);
    ~StagedTimelineWriter();  // unfinished: the staged file is removed
    StagedTimelineWriter(const StagedTimelineWriter&) = delete;
    StagedTimelineWriter& operator=(const StagedTimelineWriter&) = delete;

    // Each may be called for one part after another: the rows add up.
    void writeSamples(const TimelineReport& part);  // its memory samples
    void writeBlocks(const TimelineReport& part);   // its blocks' lifetimes
    void writeCalls(const TimelineReport& part);    // its calls
    // Once: the callchains that the calls name and the connections among them.
    void writeCallLinks(const TimelineReport& part);
    // The rest (steps, phases, rank, metadata) and the file complete, to be committed.
    std::shared_ptr<StagedFile> finish(const TimelineReport& rest);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Adds the steps' STEP_TIME rows and their collectives to a timeline staged so.
void addTimelineSteps(const StagedFile& file, const std::vector<TimelineStep>& steps,
                      const std::vector<StepCollective>& collectives);

}  // namespace trainscope
