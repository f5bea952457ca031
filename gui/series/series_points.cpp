#include "gui/series/series_points.hpp"

#include <algorithm>

namespace asyncscope {

namespace {

struct Quantity {
    double (*read)(const RunResult&);
    bool (*has)(const RunResult&);
};

bool always(const RunResult&)
{
    return true;
}

bool staged(const RunResult& r)
{
    return r.stagesTimed();
}

template <SpanKind Kind>
double spanMs(const RunResult& r)
{
    return r.totalMs(Kind);
}

const std::vector<Quantity>& quantities(SeriesPoints::Chart chart)
{
    static const std::vector<Quantity> time {
        { [](const RunResult& r) { return r.gpuMs; }, always },
        { [](const RunResult& r) { return r.cpuSubmitMs(); }, always },
    };
    static const std::vector<Quantity> polls {
        { [](const RunResult& r) { return static_cast<double>(r.pollIterations); }, always },
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

// The runs a series has room for where its store says (a series being measured is given room for every run it will
// have), else the runs it has.
template <class Runs>
auto roomOf(const Runs& runs, int) -> decltype(runs.capacity())
{
    return runs.capacity();
}
template <class Runs>
std::size_t roomOf(const Runs& runs, long)
{
    return runs.size();
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

bool SeriesPoints::update(const std::vector<RunResult>& runs)
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
                // Only here: the points of a series still growing would otherwise be copied at every doubling.
                lines.points[i].reserve(roomOf(runs, 0));
                lines.warmupPoints[i].clear();
            }
            lines.maxY = 0.0;
        }
        for (std::size_t i = 0; i < qs.size(); ++i) {
            LinePoints& points = lines.points[i];
            for (std::size_t r = from; r < runs.size(); ++r) {
                const RunResult& run = runs[r];
                if (!qs[i].has(run))
                    continue;
                const double y = qs[i].read(run);
                points.append(run.index, y);
                if (run.warmup && c == Time)
                    lines.warmupPoints[i].append(run.index, y);
            }
            lines.maxY = std::max(lines.maxY, points.maxY());
        }
        lines.maxX = runs.empty() ? 0.0 : runs.back().index;
    }
    m_read.read(runs);
    return true;
}

bool SeriesPoints::isOf(const std::vector<RunResult>& runs) const
{
    return m_read.readAll(runs);
}

}  // namespace asyncscope
