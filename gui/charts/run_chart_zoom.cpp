// A run chart's zoom: the runs in view (every run, or those zoomed into), the value axes fitted to them unless the
// user chose their range, and drawing again once a zoom or resize under way is done. The chart view turns the mouse
// and the keys into these calls (gui/charts/chart_view); the lines follow through the run axis's signal.
#include "gui/charts/run_chart.hpp"

#include "gui/charts/nice_axis.hpp"

#include <QMetaObject>

#include <algorithm>
#include <vector>

namespace asyncscope {

namespace {

constexpr double kFewestRunsZoomed = 10.0;  // a zoom into runs asked for shows at least this many, with neighbours
constexpr double kZoomMargin = 0.05;        // of the runs zoomed into, either side
constexpr double kThinAreaPx = 12.0;        // a drag no taller than this zooms into the runs alone

// The value at `fraction` of the axis's range from its minimum.
double valueAt(const QValueAxis* axis, double fraction)
{
    return axis->min() + (axis->max() - axis->min()) * fraction;
}

}  // namespace

void RunChart::rescale()
{
    m_allRuns = allRuns();
    if (!m_runsShown)
        setNiceRange(m_x, m_allRuns.first, m_allRuns.second, tickRoom(m_chart, Qt::Horizontal), 1.0);
}

void RunChart::resetZoom()
{
    m_runsShown.reset();
    m_valuesChosen = false;
    m_drawn = {};  // the value axes fit again even where the runs in view are the same
    rescale();
    draw();
}

void RunChart::setRunAxis(double low, double high)
{
    m_allRuns = allRuns();
    const auto [first, last] = m_allRuns;
    if (high - low >= last - first) {
        resetZoom();
        return;
    }
    // Within every run: a range beyond an end moves back inside, its width kept.
    if (low < first) {
        high += first - low;
        low = first;
    }
    if (high > last) {
        low -= high - last;
        high = last;
    }
    m_runsShown = std::pair { low, high };
    setNiceRange(m_x, low, high, tickRoom(m_chart, Qt::Horizontal), 1.0);
    draw();
}

void RunChart::zoomRuns(double factor, std::optional<double> around)
{
    const double low = m_x->min(), high = m_x->max();
    const double at = std::clamp(around.value_or((low + high) / 2.0), low, high);
    const double width = std::max((high - low) * factor, kFewestRuns);
    if (factor > 1.0 && !m_runsShown) {
        // Every run shows already: only the values the user chose go back to fitting them.
        if (m_valuesChosen)
            resetZoom();
        return;
    }
    // The run under `at` stays where it is on the plot; the values fit the runs then in view.
    const double from = at - (at - low) / (high - low) * width;
    m_valuesChosen = false;
    setRunAxis(from, from + width);
}

std::vector<QValueAxis*> RunChart::valueAxes() const
{
    std::vector<QValueAxis*> axes { m_y };
    if (m_cpuOwnAxis && m_cpuY)
        axes.push_back(m_cpuY);
    return axes;
}

void RunChart::zoomValues(double factor, double fromBottom)
{
    for (QValueAxis* axis : valueAxes()) {
        const double at = valueAt(axis, fromBottom);
        const double width = (axis->max() - axis->min()) * factor;
        const double low = at - fromBottom * width;
        setNiceRange(axis, low, low + width, tickRoom(m_chart, Qt::Vertical), 0.0);
    }
    m_valuesChosen = true;
}

void RunChart::zoomToArea(const QRectF& area)
{
    const QRectF plot = m_chart->plotArea();
    const QRectF within = area.normalized().intersected(plot);
    if (!(within.width() > 0.0) || plot.width() < 1.0 || plot.height() < 1.0)
        return;
    // The fractions of each axis the area covers, measured on the plot (value axes grow upwards).
    const double left = (within.left() - plot.left()) / plot.width();
    const double right = (within.right() - plot.left()) / plot.width();
    const double bottom = (plot.bottom() - within.bottom()) / plot.height();
    const double top = (plot.bottom() - within.top()) / plot.height();
    const double low = valueAt(m_x, left), high = valueAt(m_x, right);
    const double width = std::max(high - low, kFewestRuns);
    const double centre = (low + high) / 2.0;
    m_valuesChosen = within.height() > kThinAreaPx;
    if (!m_valuesChosen) {
        setRunAxis(centre - width / 2.0, centre + width / 2.0);
        return;
    }
    // The values read off the axes as they are, then the runs (drawn, the values left as chosen), then the values.
    std::vector<std::pair<QValueAxis*, std::pair<double, double>>> values;
    for (QValueAxis* axis : valueAxes())
        values.push_back({ axis, { valueAt(axis, bottom), valueAt(axis, top) } });
    setRunAxis(centre - width / 2.0, centre + width / 2.0);
    for (const auto& [axis, range] : values)
        setNiceRange(axis, range.first, range.second, tickRoom(m_chart, Qt::Vertical), 0.0);
}

void RunChart::scrollRuns(double fraction)
{
    if (!m_runsShown)
        return;  // every run shows
    // Values the user chose stay; fitted ones fit the runs then in view.
    const double shift = (m_x->max() - m_x->min()) * fraction;
    setRunAxis(m_x->min() + shift, m_x->max() + shift);
}

void RunChart::scrollValues(double fraction)
{
    for (QValueAxis* axis : valueAxes()) {
        const double shift = (axis->max() - axis->min()) * fraction;
        setNiceRange(axis, axis->min() + shift, axis->max() + shift, tickRoom(m_chart, Qt::Vertical), 0.0);
    }
    m_valuesChosen = true;
}

void RunChart::zoomToRuns(double first, double last)
{
    const double low = std::min(first, last), high = std::max(first, last);
    const double margin = std::max({ (high - low) * kZoomMargin, (kFewestRunsZoomed - (high - low)) / 2.0, 0.5 });
    m_valuesChosen = false;
    setRunAxis(low - margin, high + margin);
}

void RunChart::drawLater()
{
    // A resize changes the plot while the chart is still taking in the new one: the lines follow once it has, and
    // one resize's several signals draw once.
    if (m_drawPending)
        return;
    m_drawPending = true;
    QMetaObject::invokeMethod(m_context.get(), [this] { draw(); }, Qt::QueuedConnection);
}

}  // namespace asyncscope
