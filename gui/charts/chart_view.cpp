#include "gui/charts/chart_view.hpp"

#include <QKeyEvent>
#include <QToolTip>
#include <QXYSeries>

#include <algorithm>
#include <cmath>
#include <limits>

namespace asyncscope {

namespace {

constexpr double kWheelStep = 1.25;  // zoom factor per wheel notch
constexpr double kHoverPixels = 8.0;  // how near the pointer a point must be to be named

}  // namespace

ChartView::ChartView(QChart* chart, QWidget* parent)
    : QChartView(chart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    // A click without a drag reaches the chart's points (the time chart's pick a run for the timeline).
    setRubberBand(QChartView::RubberBands(QChartView::RectangleRubberBand | QChartView::ClickThroughRubberBand));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setToolTip(tr("<p>Drag to zoom into a rectangle, turn the wheel to zoom around the pointer, + and - to zoom, "
                  "arrows to scroll; 0, Home or a right click shows every run again. Point at a run to read its "
                  "value.</p>"));
}

void ChartView::zoomIn()
{
    chart()->zoomIn();
}

void ChartView::zoomOut()
{
    chart()->zoomOut();
}

void ChartView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomIn(); break;
    case Qt::Key_Minus: zoomOut(); break;
    case Qt::Key_0:
    case Qt::Key_Home: emit resetRequested(); break;
    case Qt::Key_Left: chart()->scroll(-10, 0); break;
    case Qt::Key_Right: chart()->scroll(10, 0); break;
    case Qt::Key_Up: chart()->scroll(0, 10); break;
    case Qt::Key_Down: chart()->scroll(0, -10); break;
    default: QChartView::keyPressEvent(event); return;
    }
    event->accept();
}

void ChartView::mouseReleaseEvent(QMouseEvent* event)
{
    // QChartView zooms out a step on a right click; here it resets, as the tooltip says.
    if (event->button() == Qt::RightButton) {
        emit resetRequested();
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void ChartView::wheelEvent(QWheelEvent* event)
{
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0.0) {
        QChartView::wheelEvent(event);
        return;
    }
    const double factor = std::pow(kWheelStep, notches);
    // Zoom about the pointer: shrink the plot rectangle around it, keeping the point under the pointer in place.
    const QRectF plot = chart()->plotArea();
    const QPointF at = chart()->mapFromScene(mapToScene(event->position().toPoint()));
    QRectF rect(0, 0, plot.width() / factor, plot.height() / factor);
    rect.moveLeft(at.x() - (at.x() - plot.left()) / factor);
    rect.moveTop(at.y() - (at.y() - plot.top()) / factor);
    chart()->zoomIn(rect);
    event->accept();
}

void ChartView::mouseMoveEvent(QMouseEvent* event)
{
    QChartView::mouseMoveEvent(event);
    const QPointF pointer = chart()->mapFromScene(mapToScene(event->position().toPoint()));
    double best = kHoverPixels * kHoverPixels;
    QString text;
    for (QAbstractSeries* series : chart()->series()) {
        auto* xy = qobject_cast<QXYSeries*>(series);
        if (!xy || !xy->isVisible() || xy->count() == 0)
            continue;
        // Runs are in order along x: only the points within the pointer's reach along x are measured.
        const QPointF value = chart()->mapToValue(pointer, xy);
        const double reach = std::abs(chart()->mapToValue(pointer + QPointF(kHoverPixels, 0), xy).x() - value.x());
        const QList<QPointF> points = xy->points();
        const auto first = std::lower_bound(points.begin(), points.end(), value.x() - reach,
            [](const QPointF& p, double x) { return p.x() < x; });
        for (auto it = first; it != points.end() && it->x() <= value.x() + reach; ++it) {
            const QPointF& p = *it;
            const QPointF d = chart()->mapToPosition(p, xy) - pointer;
            const double distance = d.x() * d.x() + d.y() * d.y();
            if (distance < best) {
                best = distance;
                text = tr("%1\nrun %2: %3").arg(xy->name()).arg(p.x(), 0, 'f', 0).arg(p.y(), 0, 'g', 5);
            }
        }
    }
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

}  // namespace asyncscope
