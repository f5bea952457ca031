// How the app's process ends: with the first exit status decided (a headless run's end, a quit signal), whatever the
// event loop itself returns. Closing the last window posts a quit of its own, with status 0, which the loop may take
// after the status decided; a headless run that failed then ended with 0 and no picture.
#pragma once

#include <optional>

class QWidget;

namespace asyncscope {

class AppExit {
public:
    // Decides `code` unless a status was decided already, closes `window` as its close button does and leaves the
    // event loop.
    void end(QWidget& window, int code);
    // Runs the application's event loop: the status decided, or the loop's own where none was.
    int exec();
    const std::optional<int>& decided() const { return m_code; }

private:
    std::optional<int> m_code;
};

}  // namespace asyncscope
