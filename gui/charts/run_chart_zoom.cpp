// A run chart's zoom: back to every run, into runs asked for (once the chart is laid out), the axes' ranges with
// tidy ticks, and drawing again once a zoom or resize under way is done. Qt Charts zooms a drag's rectangle and the
// keys itself (gui/charts/chart_view); the lines follow through the run axis's signal.
#include "gui/charts/run_chart.hpp"

#include "gui/charts/nice_axis.hpp"
#include "gui/charts/spread_line.hpp"

#include <QMetaObject>

#include <algorithm>

namespace asyncscope {

namespace {

constexpr double kFewestRunsZoomed = 10.0;  // a zoom into runs shows at least this many, so one run has neighbours
constexpr double kZoomMargin = 0.05;        // of the runs zoomed into, either side

}  // namespace

void RunChart::rescale()
{
    if (m_chart->isZoomed())
        return;
    m_full = fullRange();
    setRange(m_full);
}

void RunChart::setRange(const QRectF& range)
{
    const QChart* chart = m_chart;
    setNiceRange(m_x, range.left(), range.right(), tickRoom(chart, Qt::Horizontal), 1.0);
    setNiceRange(m_y, range.top(), range.bottom(), tickRoom(chart, Qt::Vertical), 0.0);
}

void RunChart::resetZoom()
{
    setRange(m_full);  // with a few ticks, so the reset does not lay out the zoomed interval
    m_chart->zoomReset();
    rescale();
    draw();
}

void RunChart::zoomToRuns(double first, double last)
{
    m_zoomToRuns = std::pair { std::min(first, last), std::max(first, last) };
    applyZoomToRuns();
}

void RunChart::applyZoomToRuns()
{
    // The chart zooms by a rectangle of its plot, mapped through the plot's size: a chart shown for the first time
    // has none until its view has laid it out.
    QChart* chart = m_chart;
    const QRectF plot = chart->plotArea();
    if (!m_zoomToRuns || !(plot.width() > 1.0 && plot.height() > 1.0))
        return;
    auto [low, high] = *m_zoomToRuns;
    m_zoomToRuns.reset();
    const double margin = std::max({ (high - low) * kZoomMargin, (kFewestRunsZoomed - (high - low)) / 2.0, 0.5 });
    chart->zoomReset();
    rescale();  // every run, so the zoom is into the runs asked for whatever was shown before
    low = std::max(low - margin, m_x->min());
    high = std::min(high + margin, m_x->max());
    QAbstractSeries* series = m_lines[0].series[0];
    QRectF runs(chart->mapToPosition(QPointF(low, 0.0), series), chart->mapToPosition(QPointF(high, 0.0), series));
    runs = runs.normalized();
    runs.setTop(plot.top());
    runs.setBottom(plot.bottom());
    if (runs.width() >= 1.0)
        chart->zoomIn(runs);
    draw();
}

void RunChart::drawLater()
{
    // A zoom changes the x axis's range while the chart is still taking in the new one: the lines follow once it
    // has, and one zoom's several signals draw once.
    if (m_drawPending)
        return;
    m_drawPending = true;
    QMetaObject::invokeMethod(m_context.get(), [this] { draw(); }, Qt::QueuedConnection);
}

}  // namespace asyncscope
