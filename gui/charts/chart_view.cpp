#include "gui/charts/chart_view.hpp"

#include "gui/charts/spread_line.hpp"

#include <QApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QPointer>
#include <QRubberBand>
#include <QToolTip>
#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>

namespace asyncscope {

namespace {

constexpr double kWheelStep = 1.25;  // zoom factor per wheel notch
constexpr double kHoverPixels = 8.0;  // how near the pointer a point must be to be named
constexpr double kKeyStep = 2.0;      // zoom factor per + or - key
constexpr double kScrollStep = 0.1;   // of the range in view, per arrow key
// Below this width a legend beside the plot (a column of names ~150–250 px wide) would leave the runs too little: the
// names go in rows below the chart.
constexpr int kNarrowPx = 700;

QValueAxis* valueAxis(QChart* chart, Qt::Orientation orientation)
{
    const QList<QAbstractAxis*> axes = chart->axes(orientation);
    return axes.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(axes.first());
}

}  // namespace

ChartView::ChartView(RunChart& chart, QWidget* parent)
    : FramedChartView(chart.chart(), kNarrowPx, parent)
    , m_runChart(chart)
    , m_readout(new QLabel(viewport()))
    , m_whatToDo(new QLabel(viewport()))
    , m_band(new QRubberBand(QRubberBand::Rectangle, viewport()))
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
    m_band->hide();
    m_whatToDo->setObjectName(QStringLiteral("whatToDo"));
    m_whatToDo->setWordWrap(true);
    m_whatToDo->setAlignment(Qt::AlignCenter);
    m_whatToDo->setTextFormat(Qt::PlainText);
    m_whatToDo->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_whatToDo->hide();
    connect(chart.chart(), &QChart::plotAreaChanged, this, &ChartView::placeWhatToDo);
    setLegendListing([&chart] { return chart.legendNames(); });
    chart.onLegendChanged([self = QPointer<ChartView>(this)] {  // the chart may outlive its view
        if (self)
            self->legendChanged();
    });
    setRenderHint(QPainter::Antialiasing);
    // The view drags its own rectangle: the chart's points get every click (the time chart's pick a run for the
    // timeline), and the zoom is the run chart's, which fits the values to the runs in view.
    setRubberBand(QChartView::NoRubberBand);
    setMouseTracking(true);
    // The chart takes no drops itself (a graphics scene would take every drag): a file dropped on it goes on to the
    // window, which opens it.
    setAcceptDrops(false);
    viewport()->setAcceptDrops(false);
    setToolTip(tr("<p>Drag to zoom into a rectangle (a thin one along the runs zooms into those runs); turn the wheel "
                  "or press + and - to zoom the runs (with Shift, the wheel zooms the values); arrows scroll; 0, "
                  "Home, a double click or a right click shows every run again. Point at a run to read its "
                  "value.</p>"));
}

void ChartView::zoomIn()
{
    m_runChart.zoomRuns(1.0 / kKeyStep);
}

void ChartView::zoomOut()
{
    m_runChart.zoomRuns(kKeyStep);
}

QRectF ChartView::plotInView() const
{
    return mapFromScene(chart()->mapToScene(chart()->plotArea())).boundingRect();
}

void ChartView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomIn(); break;
    case Qt::Key_Minus: zoomOut(); break;
    case Qt::Key_0:
    case Qt::Key_Home: m_runChart.resetZoom(); break;
    case Qt::Key_Left: m_runChart.scrollRuns(-kScrollStep); break;
    case Qt::Key_Right: m_runChart.scrollRuns(kScrollStep); break;
    case Qt::Key_Up: m_runChart.scrollValues(kScrollStep); break;
    case Qt::Key_Down: m_runChart.scrollValues(-kScrollStep); break;
    default: FramedChartView::keyPressEvent(event); return;
    }
    event->accept();
}

void ChartView::mousePressEvent(QMouseEvent* event)
{
    const QPoint at = event->position().toPoint();
    if (event->button() == Qt::LeftButton && plotInView().contains(at))
        m_dragFrom = at;
    FramedChartView::mousePressEvent(event);  // the chart's points see the press too
}

void ChartView::mouseMoveEvent(QMouseEvent* event)
{
    FramedChartView::mouseMoveEvent(event);
    const QPoint at = event->position().toPoint();
    if (m_dragFrom && (event->buttons() & Qt::LeftButton) &&
        (m_band->isVisible() || (at - *m_dragFrom).manhattanLength() >= QApplication::startDragDistance())) {
        m_band->setGeometry(QRect(*m_dragFrom, at).normalized() & plotInView().toAlignedRect());
        m_band->show();
        m_readout->hide();
        return;
    }
    showReadout(at);
    if (m_readout->isVisible())
        QToolTip::hideText();  // the zoom help, shown while no run was near
}

void ChartView::mouseReleaseEvent(QMouseEvent* event)
{
    // QChartView zooms out a step on a right click; here it shows every run, as the tooltip says.
    if (event->button() == Qt::RightButton) {
        m_runChart.resetZoom();
        event->accept();
        return;
    }
    FramedChartView::mouseReleaseEvent(event);  // the press's point gets its release (a click where it did not move)
    if (event->button() != Qt::LeftButton)
        return;
    m_dragFrom.reset();
    if (!m_band->isVisible())
        return;
    m_band->hide();
    const QRect dragged = m_band->geometry();
    m_runChart.zoomToArea(chart()->mapFromScene(mapToScene(dragged)).boundingRect());
}

void ChartView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        m_runChart.resetZoom();
        event->accept();
        return;
    }
    FramedChartView::mouseDoubleClickEvent(event);
}

void ChartView::wheelEvent(QWheelEvent* event)
{
    // A shifted wheel turns sideways on some systems: either direction counts.
    const QPoint delta = event->angleDelta();
    const double notches = (delta.y() != 0 ? delta.y() : delta.x()) / 120.0;
    const QRectF plot = plotInView();
    if (notches == 0.0 || plot.width() < 1.0 || plot.height() < 1.0) {
        FramedChartView::wheelEvent(event);
        return;
    }
    const double factor = std::pow(kWheelStep, -notches);  // away from the user zooms in
    const QPointF at = event->position();
    if (event->modifiers() & Qt::ShiftModifier) {
        m_runChart.zoomValues(factor, std::clamp((plot.bottom() - at.y()) / plot.height(), 0.0, 1.0));
    } else {
        QValueAxis* runs = valueAxis(chart(), Qt::Horizontal);
        const double across = std::clamp((at.x() - plot.left()) / plot.width(), 0.0, 1.0);
        m_runChart.zoomRuns(factor, runs->min() + (runs->max() - runs->min()) * across);
    }
    showReadout(at.toPoint());
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

void ChartView::setWhatToDo(const QString& text)
{
    m_whatToDo->setText(text);
    m_whatToDo->setVisible(!text.isEmpty());
    placeWhatToDo();
}

QString ChartView::whatToDo() const
{
    return m_whatToDo->isHidden() ? QString() : m_whatToDo->text();
}

void ChartView::placeWhatToDo()
{
    // In the middle of the plot, as wide as a short paragraph reads well, and never wider than the plot.
    const QRect plot = plotInView().toAlignedRect();
    const int width = std::min(plot.width() - 16, m_whatToDo->fontMetrics().averageCharWidth() * 60);
    if (width < 40)
        return;
    m_whatToDo->setFixedWidth(width);
    m_whatToDo->adjustSize();
    m_whatToDo->move(plot.center() - QPoint(width / 2, m_whatToDo->height() / 2));
}

void ChartView::resizeEvent(QResizeEvent* event)
{
    FramedChartView::resizeEvent(event);
    placeWhatToDo();
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

}  // namespace asyncscope
