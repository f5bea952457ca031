#include "gui/charts/chart_view.hpp"

#include "gui/charts/spread_line.hpp"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QToolTip>
#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace asyncscope {

namespace {

constexpr double kWheelStep = 1.25;  // zoom factor per wheel notch
constexpr double kHoverPixels = 8.0;  // how near the pointer a point must be to be named
constexpr double kKeyStep = 2.0;      // zoom factor per + or - key
// Below this width a legend beside the plot (a column of names ~150–250 px wide) would leave the runs too little: the
// names go in rows below the chart.
constexpr int kNarrowPx = 700;

QValueAxis* valueAxis(QChart* chart, Qt::Orientation orientation)
{
    const QList<QAbstractAxis*> axes = chart->axes(orientation);
    return axes.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(axes.first());
}

// Whether a series is drawn against the value axis `y` (a chart may have a second one, in another unit).
bool drawnAgainst(QAbstractSeries* series, QValueAxis* y)
{
    return series->isVisible() && series->attachedAxes().contains(y);
}

// The bounds of every point the chart's visible series on the value axis `y` hold (top() the least value, bottom()
// the most); empty when they hold none.
std::optional<QRectF> dataBounds(QChart* chart, QValueAxis* y)
{
    double left = std::numeric_limits<double>::infinity();
    double right = -left;
    double bottom = left;
    double top = -left;
    for (QAbstractSeries* series : chart->series()) {
        auto* xy = qobject_cast<QXYSeries*>(series);
        if (!xy || !drawnAgainst(xy, y))
            continue;
        const QList<QPointF> points = xy->points();
        for (const QPointF& p : points) {
            left = std::min(left, p.x());
            right = std::max(right, p.x());
            bottom = std::min(bottom, p.y());
            top = std::max(top, p.y());
        }
    }
    if (left > right)
        return std::nullopt;
    return QRectF(QPointF(left, bottom), QPointF(right, top));
}

// [low, high] scaled by `factor` around `centre`, kept within [floor, ceiling].
std::pair<double, double> scaledRange(double low, double high, double centre, double factor, double floor,
    double ceiling)
{
    const double half = (high - low) * factor / 2.0;
    double from = centre - half;
    double to = centre + half;
    if (from < floor) {
        to += floor - from;
        from = floor;
    }
    if (to > ceiling) {
        from -= to - ceiling;
        to = ceiling;
    }
    return { std::max(from, floor), std::min(to, ceiling) };
}

}  // namespace

ChartView::ChartView(QChart* chart, QWidget* parent)
    : FramedChartView(chart, kNarrowPx, parent)
    , m_readout(new QLabel(viewport()))
{
    // The readout looks like a tooltip but is the view's own: it stays while the pointer rests (a tooltip goes on its
    // own timer), never takes the pointer, and follows it.
    m_readout->setObjectName(QStringLiteral("readout"));
    m_readout->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_readout->setForegroundRole(QPalette::ToolTipText);
    m_readout->setBackgroundRole(QPalette::ToolTipBase);
    m_readout->setAutoFillBackground(true);
    m_readout->setFrameShape(QFrame::Box);
    m_readout->setMargin(3);
    m_readout->hide();
    setRenderHint(QPainter::Antialiasing);
    // A click without a drag reaches the chart's points (the time chart's pick a run for the timeline).
    setRubberBand(QChartView::RubberBands(QChartView::RectangleRubberBand | QChartView::ClickThroughRubberBand));
    setMouseTracking(true);
    setToolTip(tr("<p>Drag to zoom into a rectangle, turn the wheel to zoom around the pointer, + and - to zoom, "
                  "arrows to scroll; 0, Home or a right click shows every run again. Point at a run to read its "
                  "value.</p>"));
}

void ChartView::zoomIn()
{
    zoomByKey(1.0 / kKeyStep);
}

void ChartView::zoomOut()
{
    zoomByKey(kKeyStep);
}

// By `factor` around the middle of the runs in view (not of the plot, which may be empty there), never out beyond the
// runs and never below 0 where no value is: a step out that would show more than every run shows every run again.
void ChartView::zoomByKey(double factor)
{
    QValueAxis* x = valueAxis(chart(), Qt::Horizontal);
    QValueAxis* y = valueAxis(chart(), Qt::Vertical);
    const std::optional<QRectF> bounds = y ? dataBounds(chart(), y) : std::nullopt;
    if (!x || !y || !bounds) {
        factor < 1.0 ? chart()->zoomIn() : chart()->zoomOut();
        return;
    }
    const QRectF& data = *bounds;
    // The runs' bounds with a margin, from 0 where the values are not negative.
    const double xPad = std::max(data.width() * 0.02, 0.5);
    const double yPad = std::max(data.height() * 0.05, std::abs(data.bottom()) * 0.05 + 1e-9);
    const double xFloor = data.left() - xPad;
    const double xCeiling = data.right() + xPad;
    const double yFloor = data.top() >= 0.0 ? 0.0 : data.top() - yPad;
    const double yCeiling = data.bottom() + yPad;
    if (factor > 1.0 && x->min() - (x->max() - x->min()) * (factor - 1.0) / 2.0 <= xFloor &&
        x->max() + (x->max() - x->min()) * (factor - 1.0) / 2.0 >= xCeiling) {
        emit resetRequested();
        return;
    }
    // The middle of the values in view: of the runs within the x range shown, their values' middle.
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    double first = low;
    double last = -low;
    for (QAbstractSeries* series : chart()->series()) {
        auto* xy = qobject_cast<QXYSeries*>(series);
        if (!xy || !drawnAgainst(xy, y))
            continue;
        const QList<QPointF> points = xy->points();
        for (const QPointF& p : points) {
            if (p.x() < x->min() || p.x() > x->max() || p.y() < y->min() || p.y() > y->max())
                continue;
            low = std::min(low, p.y());
            high = std::max(high, p.y());
            first = std::min(first, p.x());
            last = std::max(last, p.x());
        }
    }
    const bool seen = low <= high;
    const double xCentre = seen ? (first + last) / 2.0 : (x->min() + x->max()) / 2.0;
    const double yCentre = seen ? (low + high) / 2.0 : (y->min() + y->max()) / 2.0;
    const auto [x0, x1] = scaledRange(x->min(), x->max(), xCentre, factor, xFloor, xCeiling);
    const auto [y0, y1] = scaledRange(y->min(), y->max(), yCentre, factor, yFloor, yCeiling);
    // Through QChart's zoom, so the chart knows it is zoomed (the views draw the runs in view from every run).
    QAbstractSeries* mapped = nullptr;
    for (QAbstractSeries* series : chart()->series()) {
        if (series->isVisible() && series->attachedAxes().contains(x) && series->attachedAxes().contains(y))
            mapped = series;
    }
    if (!mapped) {
        x->setRange(x0, x1);
        y->setRange(y0, y1);
        return;
    }
    chart()->zoomIn(QRectF(chart()->mapToPosition(QPointF(x0, y1), mapped),
        chart()->mapToPosition(QPointF(x1, y0), mapped)));
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
    default: FramedChartView::keyPressEvent(event); return;
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
    FramedChartView::mouseReleaseEvent(event);
}

void ChartView::wheelEvent(QWheelEvent* event)
{
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0.0) {
        FramedChartView::wheelEvent(event);
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

bool ChartView::event(QEvent* event)
{
    // The hover pause's tooltip: the help on zooming, only where no run is near (the readout shows the value there).
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        showReadout(help->pos());
        if (m_readout->isVisible())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), toolTip(), this);
        return true;
    }
    return FramedChartView::event(event);
}

bool ChartView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::Leave)
        m_readout->hide();
    return FramedChartView::viewportEvent(event);
}

QString ChartView::shownReadout() const
{
    return m_readout->isVisible() ? m_readout->text() : QString();
}

void ChartView::showReadout(const QPoint& viewPos)
{
    const QString text = readoutAt(viewPos);
    if (text.isEmpty()) {
        m_readout->hide();
        return;
    }
    m_readout->setText(text);
    m_readout->adjustSize();
    // Below and right of the pointer, clear of it; turned to the other side where the view ends.
    const QRect area = viewport()->rect();
    QPoint at = viewPos + QPoint(14, 18);
    if (at.x() + m_readout->width() > area.right())
        at.setX(viewPos.x() - 14 - m_readout->width());
    if (at.y() + m_readout->height() > area.bottom())
        at.setY(viewPos.y() - 8 - m_readout->height());
    m_readout->move(std::max(at.x(), 0), std::max(at.y(), 0));
    m_readout->show();
    m_readout->raise();
}

QString ChartView::readoutAt(const QPoint& viewPos) const
{
    const QPointF pointer = chart()->mapFromScene(mapToScene(viewPos));
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
        // The unit is the value axis's title where it is one ("ms"), or ends with one ("CPU submit µs"), not a
        // sentence.
        QString unit;
        for (QAbstractAxis* axis : xy->attachedAxes()) {
            const QString last = axis->titleText().section(' ', -1);
            if (axis->orientation() == Qt::Vertical && last.size() <= 10)
                unit = last;
        }
        // A line of column medians stands for the runs of each column: its readout names them and their spread, over
        // its band as well as on the line.
        const auto* spread = qobject_cast<const SpreadLine*>(xy);
        const bool columns = spread && !spread->columns().empty() &&
            spread->columns().size() == std::size_t(points.size());
        auto describe = [&](qsizetype i) {
            if (columns)
                return xy->name() + '\n' + spread->describe(std::size_t(i), unit);
            const QPointF& p = points[i];
            return tr("%1\nrun %2: %3").arg(xy->name()).arg(p.x(), 0, 'f', 0).arg(p.y(), 0, 'g', 5) +
                (unit.isEmpty() ? QString() : ' ' + unit);
        };
        for (auto it = first; it != points.end() && it->x() <= value.x() + reach; ++it) {
            const QPointF& p = *it;
            const QPointF d = chart()->mapToPosition(p, xy) - pointer;
            const double distance = d.x() * d.x() + d.y() * d.y();
            if (distance < best) {
                best = distance;
                text = describe(it - points.begin());
            }
        }
        if (columns && spread->banded()) {
            // Within a column's p5-p95 band: that column, unless a point is nearer (another line crossing it).
            const std::vector<ColumnSpread>& all = spread->columns();
            const auto at = std::lower_bound(all.begin(), all.end(), value.x() - reach / 2.0,
                [](const ColumnSpread& c, double x) { return c.lastX < x; });
            if (at != all.end() && at->firstX <= value.x() + reach / 2.0 && value.y() >= at->p5 &&
                value.y() <= at->p95 && best == kHoverPixels * kHoverPixels) {
                best = kHoverPixels * kHoverPixels - 1.0;
                text = describe(at - all.begin());
            }
        }
    }
    return text;
}

void ChartView::mouseMoveEvent(QMouseEvent* event)
{
    FramedChartView::mouseMoveEvent(event);
    showReadout(event->position().toPoint());
    if (m_readout->isVisible())
        QToolTip::hideText();  // the zoom help, shown while no run was near
}

}  // namespace asyncscope
