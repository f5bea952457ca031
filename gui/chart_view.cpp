#include "gui/chart_view.hpp"

#include <QKeyEvent>

namespace asyncscope {

ChartView::ChartView(QChart* chart, QWidget* parent)
    : QChartView(chart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::RectangleRubberBand);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(tr("Drag to zoom, + / - to zoom, arrows to scroll, 0 or right-click to reset"));
}

void ChartView::resetZoom()
{
    chart()->zoomReset();
}

void ChartView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: chart()->zoomIn(); break;
    case Qt::Key_Minus: chart()->zoomOut(); break;
    case Qt::Key_0:
    case Qt::Key_Home: resetZoom(); break;
    case Qt::Key_Left: chart()->scroll(-10, 0); break;
    case Qt::Key_Right: chart()->scroll(10, 0); break;
    case Qt::Key_Up: chart()->scroll(0, 10); break;
    case Qt::Key_Down: chart()->scroll(0, -10); break;
    default: QChartView::keyPressEvent(event); return;
    }
    event->accept();
}

}  // namespace asyncscope
