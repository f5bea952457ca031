#include "gui/series/series_points.hpp"

#include <algorithm>

namespace asyncscope {

namespace {

// A value of run i of a series, and whether the run has it.
struct Quantity {
    double (*read)(const RunStore&, std::size_t);
    bool (*has)(const RunStore&, std::size_t);
};

bool always(const RunStore&, std::size_t)
{
    return true;
}

bool staged(const RunStore& runs, std::size_t i)
{
    return runs.stagesTimed(i);
}

template <SpanKind Kind>
double spanMs(const RunStore& runs, std::size_t i)
{
    return runs.totalMs(i, Kind);
}

const std::vector<Quantity>& quantities(SeriesPoints::Chart chart)
{
    static const std::vector<Quantity> time {
        { [](const RunStore& runs, std::size_t i) { return runs.gpuMs(i); }, always },
        { [](const RunStore& runs, std::size_t i) { return runs.cpuSubmitMs(i); }, always },
    };
    static const std::vector<Quantity> polls {
        { [](const RunStore& runs, std::size_t i) { return static_cast<double>(runs.pollIterations(i)); }, always },
    };
    static const std::vector<Quantity> stages {
        { spanMs<SpanKind::H2D>, staged },
        { spanMs<SpanKind::Kernel>, staged },
        { spanMs<SpanKind::D2H>, staged },
    };
    switch (chart) {
    case SeriesPoints::Time: return time;
    case SeriesPoints::Polls: return polls;
    case SeriesPoints::Stages: return stages;
    }
    return time;
}

}  // namespace

int SeriesPoints::quantityCount(Chart chart)
{
    return static_cast<int>(quantities(chart).size());
}

SeriesPoints::SeriesPoints()
{
    for (int c = 0; c < kChartCount; ++c) {
        m_lines[c].points.resize(quantities(Chart(c)).size());
        m_lines[c].warmupPoints.resize(quantities(Chart(c)).size());
    }
}

bool SeriesPoints::update(const RunStore& runs)
{
    if (m_read.readAll(runs))
        return false;
    const std::size_t from = m_read.firstUnread(runs);
    for (int c = 0; c < kChartCount; ++c) {
        const auto& qs = quantities(Chart(c));
        Lines& lines = m_lines[c];
        if (from == 0) {
            for (std::size_t i = 0; i < qs.size(); ++i) {
                lines.points[i].clear();
                // Room for every run the store has room for (a series being measured is given room for every run it
                // will have): the points of a growing series would otherwise be copied, on the window's thread, at
                // every doubling, the last copies a hundred megabytes for a million runs.
                lines.points[i].reserve(runs.capacity());
                lines.warmupPoints[i].clear();
            }
            lines.maxY = 0.0;
        }
        for (std::size_t i = 0; i < qs.size(); ++i) {
            LinePoints& points = lines.points[i];
            for (std::size_t r = from; r < runs.size(); ++r) {
                if (!qs[i].has(runs, r))
                    continue;
                const double y = qs[i].read(runs, r);
                const int index = runs.index(r);
                (runs.warmup(r) ? lines.warmupPoints[i] : points).append(index, y);
            }
            lines.maxY = std::max(lines.maxY, points.maxY());
        }
        lines.maxX = runs.empty() ? 0.0 : runs.index(runs.size() - 1);
    }
    m_read.read(runs);
    return true;
}

bool SeriesPoints::isOf(const RunStore& runs) const
{
    return m_read.readAll(runs);
}

}  // namespace asyncscope
