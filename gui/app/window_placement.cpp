#include "gui/app/window_placement.hpp"

#include <QMainWindow>
#include <QScreen>

#include <algorithm>

namespace asyncscope {

void placeOnScreen(QMainWindow& window, const QByteArray& rememberedGeometry, bool headless)
{
    // A remembered geometry is used only if it fits this screen as it is now (another scale, another monitor).
    const QRect screen = window.screen()->availableGeometry();
    if (headless)
        return window.resize(1280, 800);  // the screenshot's size, whatever the (virtual) screen
    const QSize fitting(std::min(1280, screen.width() * 19 / 20), std::min(800, screen.height() * 19 / 20));
    if (!rememberedGeometry.isEmpty() && window.restoreGeometry(rememberedGeometry) &&
        screen.contains(window.frameGeometry()) && window.width() >= fitting.width() / 2 &&
        window.height() >= fitting.height() / 2)
        return;
    window.resize(fitting);
    window.move(screen.center() - window.rect().center());
}

}  // namespace asyncscope
