// Min/max decimation of a chart's line: for each pixel column of the x range shown, the lowest and the highest
// point of the line in that column, so a line through what is kept covers the pixels a line through every point
// would, with at most two points per column handed to the chart. No Qt: tested on its own.
#pragma once

#include "engine/model/big_vector.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace asyncscope {

// How the points of one pixel column are spread: the first and last point's x, how many there are, and their
// nearest-rank percentiles (the value of 1-based rank ceil(f·n), as the summaries' p95), the median as the summaries
// take it (the mean of the two middle values of an even count).
struct ColumnSpread {
    double firstX = 0.0, lastX = 0.0;
    std::size_t count = 0;
    double p5 = 0.0, p25 = 0.0, median = 0.0, p75 = 0.0, p95 = 0.0;
};

// Every point of one line, in order of x (a run's index), with each block of points' lowest and highest kept as
// points arrive: a decimation reads the blocks a column covers whole instead of their points, so redrawing a
// million points at a thousand columns reads a few hundred thousand values, not the million.
class LinePoints {
public:
    // `x` must not be below the last point's.
    void append(double x, double y);
    void clear();
    void reserve(std::size_t points);

    std::size_t size() const { return m_y.size(); }
    bool empty() const { return m_y.empty(); }
    std::size_t capacity() const { return m_y.capacity(); }
    double x(std::size_t i) const { return m_x.empty() ? m_firstX + double(i) : m_x[i]; }
    double y(std::size_t i) const { return m_y[i]; }
    double maxY() const { return m_maxY; }  // 0 when empty or nothing is above 0

    // The points to draw for x from `low` to `high` at `columns` pixel columns, as indices in order: in each column
    // its lowest and highest point, the first and last point within the range, and the nearest point outside it on
    // either side (the line runs on to the plot's edges). When the range holds no more than two points per column
    // they are all kept, untouched. `columns` below 1 counts as 1.
    std::vector<std::size_t> decimate(double low, double high, int columns) const;
    // For x from `low` to `high` at `columns` pixel columns (the columns decimate() takes), the spread of each column
    // that holds a point, in order. Reads every point in the range once and partially sorts a copy of each column:
    // linear in the points, not in their logarithm. `medianOnly`: the median alone, at about half the cost (the
    // percentiles are left equal to it).
    std::vector<ColumnSpread> spread(double low, double high, int columns, bool medianOnly = false) const;
    // How many points have x within [low, high].
    std::size_t countWithin(double low, double high) const;
    // The lowest and the highest y of the points with x within [low, high]; nothing when none is. Reads the blocks
    // the range covers whole, not their points.
    std::optional<std::pair<double, double>> rangeWithin(double low, double high) const;

private:
    // Points [begin, end) of x within [low, high].
    std::pair<std::size_t, std::size_t> within(double low, double high) const;
    // The first index whose x is not below `x` (lower bound), and the first whose x is above it (upper bound).
    std::size_t lowerIndex(double x) const;
    std::size_t upperIndex(double x) const;
    // The first index in [from, end) whose x is not below `x`; `end` when there is none.
    std::size_t firstAtOrAbove(std::size_t from, std::size_t end, double x) const;
    // Indices of the lowest and the highest y in [begin, end) (not empty); the first of equals.
    std::pair<std::size_t, std::size_t> extremes(std::size_t begin, std::size_t end) const;

    // A block of points: its lowest and highest point, their values beside their indices so that reading a column's
    // blocks reads one array in order.
    struct Block {
        double lowY, highY;
        std::size_t low, high;
    };

    // A series' runs sit one apart: while every point's x is the first one's plus its index, no x is kept (m_x empty,
    // 8 bytes a point saved); the first point that breaks the rule writes them all out.
    BigVector<double> m_x;
    double m_firstX = 0.0;
    BigVector<double> m_y;
    std::vector<Block> m_blocks;  // one per kBlock points
    double m_maxY = 0.0;
};

}  // namespace asyncscope
