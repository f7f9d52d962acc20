// SPDX-License-Identifier: Apache-2.0
// A page that reads or computes on a worker once it is made: settled when what it shows is
// complete (read, computed, or failed with its message). The window is settled when every such
// page of it is (MainWindow::isSettled): a screenshot, a demo or a test waits for that.
#pragma once

namespace trainscope::ui {

class SettlingPage {
  public:
    virtual ~SettlingPage() = default;
    virtual bool isSettled() const = 0;
};

}  // namespace trainscope::ui
