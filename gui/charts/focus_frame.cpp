#include "gui/charts/focus_frame.hpp"

#include <QPainter>
#include <QPalette>

namespace asyncscope {

namespace {

constexpr double kFrameWidth = 2.0;  // pixels

}  // namespace

void paintFocusFrame(QPainter& painter, const QRect& area, const QPalette& palette)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(QPen(palette.color(QPalette::Highlight), kFrameWidth, Qt::SolidLine, Qt::SquareCap,
        Qt::MiterJoin));
    painter.setBrush(Qt::NoBrush);
    const double inset = kFrameWidth / 2.0;
    painter.drawRect(QRectF(area).adjusted(inset, inset, -inset, -inset));
    painter.restore();
}

}  // namespace asyncscope
