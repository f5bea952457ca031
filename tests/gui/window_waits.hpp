// Waits the window tests share.
#pragma once

#include "gui/app/main_window.hpp"

#include <QTest>

namespace asyncscope::testing {

// The window looks for devices on a worker thread as it opens, and says what it found in the status bar. A test that
// reads the status bar or starts a run waits for that first: until then, the search may still overwrite the status.
inline bool waitForDevices(MainWindow& window)
{
    return QTest::qWaitFor([&] { return window.runEnabled() || !window.deviceMessage().isEmpty(); }, 5000);
}

}  // namespace asyncscope::testing
