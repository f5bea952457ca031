#include "gui/charts/focus_frame.hpp"

#include <QFocusEvent>
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

FramedChartView::FramedChartView(QChart* chart, QWidget* parent)
    : QChartView(chart, parent)
{
    setFocusPolicy(Qt::StrongFocus);
}

void FramedChartView::focusInEvent(QFocusEvent* event)
{
    QChartView::focusInEvent(event);
    viewport()->update();
}

void FramedChartView::focusOutEvent(QFocusEvent* event)
{
    QChartView::focusOutEvent(event);
    viewport()->update();
}

void FramedChartView::drawForeground(QPainter* painter, const QRectF& rect)
{
    QChartView::drawForeground(painter, rect);
    if (!hasFocus())
        return;
    painter->save();
    painter->resetTransform();  // in the viewport's pixels, whatever the scene's
    paintFocusFrame(*painter, viewport()->rect(), palette());
    painter->restore();
}

}  // namespace asyncscope
