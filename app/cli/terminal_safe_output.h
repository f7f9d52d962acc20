// SPDX-License-Identifier: Apache-2.0
// What the CLI prints passes through here on its way to the terminal: names, paths and frames
// come from files, and a hostile trace's operation name can hold an escape sequence that
// recolours or clears the terminal, a carriage return that overwrites a line, or a
// right-to-left override that reverses what follows. Those are written as visible escapes
// ("\x1b", "\u202e"); the CLI's own newlines and tabs, and every other character, as they are.
#pragma once

#include <ostream>
#include <streambuf>
#include <string>

namespace trainscope::cli {

// Filters one stream for as long as it lives (std::cout and std::cerr in main()).
class TerminalSafeOutput {
  public:
    explicit TerminalSafeOutput(std::ostream& stream);
    ~TerminalSafeOutput();
    TerminalSafeOutput(const TerminalSafeOutput&) = delete;
    TerminalSafeOutput& operator=(const TerminalSafeOutput&) = delete;

  private:
    class Filter : public std::streambuf {
      public:
        explicit Filter(std::streambuf* out) : out_(out) {}
        void finish();  // passes on what it holds, a sequence cut short too

      protected:
        int_type overflow(int_type c) override;
        int sync() override;

      private:
        std::streambuf* out_;
        std::string pending_;  // the start of a UTF-8 sequence that may be a control character
    };

    std::ostream& stream_;
    Filter filter_;
    std::streambuf* original_;
};

}  // namespace trainscope::cli
