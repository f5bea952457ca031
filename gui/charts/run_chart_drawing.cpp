// Drawing a run chart's lines for the runs in view and the plot's width: each run's line through the lowest and
// highest run of every pixel column, or, as density, each column's median and the current run's p25-p75 and p5-p95
// bands around it; the value axes fitted to what is drawn.
#include "gui/charts/run_chart.hpp"

#include "gui/charts/nice_axis.hpp"
#include "gui/charts/spread_line.hpp"
#include "gui/series/nice_ticks.hpp"

#include <QScatterSeries>

#include <algorithm>
#include <cmath>

namespace asyncscope {

using runchart::RunLines;

namespace {

constexpr int kPointsShownUpTo = 100;  // markers on every point while runs in view are few enough to see apart
constexpr int kColumnsUnlaidOut = 1920;  // pixel columns assumed before a chart has a size

}  // namespace

bool RunChart::Drawn::operator==(const Drawn& other) const
{
    return low == other.low && high == other.high && columns == other.columns && version == other.version;
}

int RunChart::columns() const
{
    const double width = m_chart->plotArea().width();
    if (!(width > 0.0))
        return kColumnsUnlaidOut;
    return std::max(1, int(std::ceil(width * m_pixelScale)));
}

void RunChart::setPixelScale(double scale)
{
    m_pixelScale = std::max(scale, 1e-3);
    restyle();
    rescale();  // the plot has its size now: as many ticks as it has room for
    draw();
}

void RunChart::draw()
{
    m_drawPending = false;
    const Drawn now { m_x->min(), m_x->max(), columns(), m_version };
    if (now == m_drawn || hidden())
        return;
    m_drawn = now;
    const bool density = densityFor(now.low, now.high, now.columns);
    const bool changedLook = density != m_density;
    m_density = density;
    // What is drawn in view on each value axis, to fit them to: the runs (as density, the current series' p5-p95
    // and an overlay's medians), or the warm-ups where no measured run is in view.
    Extent values, cpuValues, warmups, cpuWarmups;
    QList<QPointF> points, upper, lower;
    for (std::size_t o = 0; o < m_lines.size(); ++o) {
        RunLines& lines = m_lines[o];
        const SeriesPoints::Lines& read = pointsOf(o);
        for (std::size_t i = 0; i < lines.series.size(); ++i) {
            const LinePoints& all = read.points[i];
            const double scale = valueScale(i);
            Extent& drawn = fittedOnCpu(i) ? cpuValues : values;
            points.clear();
            if (density) {
                // Each column's median at the middle of its runs; the current run's bands around it.
                std::vector<ColumnSpread> columns = all.spread(now.low, now.high, now.columns, o != 0);
                points.reserve(qsizetype(columns.size()));
                for (ColumnSpread& c : columns) {
                    for (double* v : { &c.p5, &c.p25, &c.median, &c.p75, &c.p95 })
                        *v *= scale;
                    points.append({ (c.firstX + c.lastX) / 2.0, c.median });
                    o == 0 ? drawn.take(c.p5, c.p95) : drawn.take(c.median, c.median);
                }
                if (o == 0) {
                    const std::pair<QAreaSeries*, std::pair<double ColumnSpread::*, double ColumnSpread::*>> bands[] = {
                        { lines.outer[i], { &ColumnSpread::p95, &ColumnSpread::p5 } },
                        { lines.inner[i], { &ColumnSpread::p75, &ColumnSpread::p25 } },
                    };
                    for (const auto& [band, edges] : bands) {
                        upper.clear();
                        lower.clear();
                        for (const ColumnSpread& c : columns) {
                            const double x = (c.firstX + c.lastX) / 2.0;
                            upper.append({ x, c.*edges.first });
                            lower.append({ x, c.*edges.second });
                        }
                        band->upperSeries()->replace(upper);
                        band->lowerSeries()->replace(lower);
                    }
                }
                lines.series[i]->replace(points);
                lines.series[i]->setColumns(std::move(columns), o == 0);
            } else {
                const std::vector<std::size_t> kept = all.decimate(now.low, now.high, now.columns);
                points.reserve(qsizetype(kept.size()));
                for (const std::size_t p : kept)
                    points.append({ all.x(p), all.y(p) * scale });
                if (const auto range = all.rangeWithin(now.low, now.high))
                    drawn.take(range->first * scale, range->second * scale);
                if (o == 0 && changedLook) {
                    for (const auto& bands : { lines.inner, lines.outer }) {
                        for (QAreaSeries* band : bands) {
                            band->upperSeries()->clear();
                            band->lowerSeries()->clear();
                        }
                    }
                }
                lines.series[i]->replace(points);
                lines.series[i]->setColumns({}, false);
            }
            lines.series[i]->setPointsVisible(!density && points.size() <= kPointsShownUpTo);
        }
        for (std::size_t i = 0; i < lines.warmups.size(); ++i) {
            const LinePoints& all = read.warmupPoints[i];
            const double scale = valueScale(i);
            points.clear();
            for (const std::size_t p : all.decimate(now.low, now.high, now.columns))
                points.append({ all.x(p), all.y(p) * scale });
            lines.warmups[i]->replace(points);
            if (const auto range = all.rangeWithin(now.low, now.high))
                (fittedOnCpu(i) ? cpuWarmups : warmups).take(range->first * scale, range->second * scale);
        }
    }
    // Drawn as density, every run shows within its column's p5-p95: the value axis fits what is drawn, not the one run
    // in a million that took a hundred times the rest and would press every band flat against 0. Lines show it.
    // Warm-ups are marked, not fitted: the first submit of a process costs a millisecond or more (lazy loading), a
    // hundred times a measured run's, and would flatten every other run at the bottom.
    fitValues(values.low <= values.high ? values : warmups, cpuValues.low <= cpuValues.high ? cpuValues : cpuWarmups);
    if (changedLook) {
        nameLines();
        updateLegend();
    }
}

bool RunChart::densityFor(double low, double high, int columns) const
{
    if (m_style != Style::Automatic)
        return m_style == Style::Density;
    std::size_t most = 0;
    for (std::size_t o = 0; o < m_lines.size(); ++o) {
        for (const LinePoints& line : pointsOf(o).points)
            most = std::max(most, line.countWithin(low, high));
    }
    return most > std::size_t(std::max(columns, 1));
}

void RunChart::Extent::take(double lowest, double highest)
{
    if (low > high) {
        low = lowest;
        high = highest;
        return;
    }
    low = std::min(low, lowest);
    high = std::max(high, highest);
}

bool RunChart::fittedOnCpu(std::size_t quantity) const
{
    return valueAxisOf(quantity) == m_cpuY && m_cpuOwnAxis;
}

void RunChart::fitValues(const Extent& values, const Extent& cpu)
{
    if (m_valuesChosen)
        return;
    const double room = tickRoom(m_chart, Qt::Vertical);
    auto fit = [&](QValueAxis* axis, const Extent& drawn) {
        const bool any = drawn.low <= drawn.high;
        if (!m_runsShown || !any) {
            // Every run: from 0 (or the lowest value below it) to a tick above the highest value and a margin.
            const double top = any && drawn.high > 0.0 ? drawn.high * 1.1 : 1.0;
            const double bottom = any ? std::min(0.0, drawn.low * 1.1) : 0.0;
            const double step = niceStep(top - bottom, room, 0.0);
            setNiceRange(axis, niceFloor(bottom, step), niceCeil(top, step), room, 0.0);
            return;
        }
        // Zoomed into runs: closely around their values, so that what sets them apart shows; never below 0 where
        // no value is.
        const double pad = std::max((drawn.high - drawn.low) * 0.08, std::abs(drawn.high) * 0.002 + 1e-9);
        const double low = drawn.low >= 0.0 ? std::max(0.0, drawn.low - pad) : drawn.low - pad;
        const double high = drawn.high + pad;
        const double step = niceStep(high - low, room, 0.0);
        setNiceRange(axis, niceFloor(low, step), niceCeil(high, step), room, 0.0);
    };
    fit(m_y, values);
    if (m_cpuY && m_cpuOwnAxis)
        fit(m_cpuY, cpu);
}

}  // namespace asyncscope
