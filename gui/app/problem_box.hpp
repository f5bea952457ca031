// A problem the window says in a box over it: non-modal, so nothing blocks the event loop (the run thread's results
// keep arriving). One said while the window is built (a file of the command line refused at once) is shown once the
// window is, in the event loop's first turn: a box opened over a window not yet shown is lost under it.
#pragma once

#include <QString>

class QWidget;

namespace asyncscope {

void showProblemBox(QWidget& window, const QString& text);

}  // namespace asyncscope
