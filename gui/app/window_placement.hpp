// Where the window opens: a remembered geometry where it fits the screen as it is now, else 1280 x 800 (or nearly
// the whole screen where that is smaller) in its middle; a headless window always 1280 x 800, its picture's size.
#pragma once

#include <QByteArray>

class QMainWindow;

namespace asyncscope {

void placeOnScreen(QMainWindow& window, const QByteArray& rememberedGeometry, bool headless);

}  // namespace asyncscope
