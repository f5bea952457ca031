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

using runchart::kCpuQuantity;
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
    // Drawn as density: the highest p95 of the current series and median of an overlay, on each value axis.
    double densityTop = 0.0, cpuDensityTop = 0.0;
    QList<QPointF> points, upper, lower;
    for (std::size_t o = 0; o < m_lines.size(); ++o) {
        RunLines& lines = m_lines[o];
        const SeriesPoints::Lines& read = pointsOf(o);
        for (std::size_t i = 0; i < lines.series.size(); ++i) {
            const LinePoints& all = read.points[i];
            const double scale = valueScale(i);
            points.clear();
            if (density) {
                // Each column's median at the middle of its runs; the current run's bands around it.
                std::vector<ColumnSpread> columns = all.spread(now.low, now.high, now.columns, o != 0);
                points.reserve(qsizetype(columns.size()));
                const bool onValueAxis = valueAxisOf(i) == m_y || !m_cpuOwnAxis;
                for (ColumnSpread& c : columns) {
                    for (double* v : { &c.p5, &c.p25, &c.median, &c.p75, &c.p95 })
                        *v *= scale;
                    points.append({ (c.firstX + c.lastX) / 2.0, c.median });
                    double& top = onValueAxis ? densityTop : cpuDensityTop;
                    top = std::max(top, o == 0 ? c.p95 : c.median);
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
        }
    }
    // Drawn as density, every run shows within its column's p5-p95: the value axis fits what is drawn, not the one run
    // in a million that took a hundred times the rest and would press every band flat against 0. Lines show it.
    if (density && densityTop > 0.0 && !m_chart->isZoomed()) {
        const double top = densityTop * 1.1;
        m_full.setBottom(niceCeil(top, niceStep(top, tickRoom(m_chart, Qt::Vertical), 0.0)));
        setRange(m_full);
    }
    if (m_kind == SeriesPoints::Time)
        fitCpuAxis(cpuDensityTop);
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

void RunChart::fitCpuAxis(double densityTop)
{
    // The CPU submit times of the runs in view, not the warm-ups': the first submit of a process costs a millisecond
    // or more (lazy loading), a hundred times a measured run's, and would flatten every other run at the bottom.
    // Drawn as density, what is drawn: the highest p95 or median.
    if (!m_cpuOwnAxis)
        return;
    const double low = m_x->min(), high = m_x->max();
    double highest = densityTop;
    for (std::size_t o = 0; o < m_lines.size() && densityTop <= 0.0; ++o) {
        const SeriesPoints::Lines& read = pointsOf(o);
        const LinePoints& warmups = read.warmupPoints[kCpuQuantity];
        std::vector<double> skipped;
        skipped.reserve(warmups.size());
        for (std::size_t i = 0; i < warmups.size(); ++i)
            skipped.push_back(warmups.x(i));
        const LinePoints& cpu = read.points[kCpuQuantity];
        std::optional<double> most = cpu.highestWithin(low, high, skipped);
        if (!most)  // only warm-ups in view: theirs, then
            most = cpu.highestWithin(low, high, {});
        highest = std::max(highest, most.value_or(0.0) * runchart::kMicrosecondsPerMs);
    }
    const double top = highest > 0.0 ? highest * 1.1 : 1.0;
    const double room = tickRoom(m_chart, Qt::Vertical);
    setNiceRange(m_cpuY, 0.0, niceCeil(top, niceStep(top, room, 0.0)), room, 0.0);
}

}  // namespace asyncscope
