#include "gui/series/chart_decimation.hpp"

#include <algorithm>

namespace asyncscope {

namespace {

constexpr std::size_t kBlock = 64;  // points per block: a column's ends are read point by point, its middle by block

}  // namespace

void LinePoints::append(double x, double y)
{
    const std::size_t i = m_x.size();
    m_x.push_back(x);
    m_y.push_back(y);
    m_maxY = std::max(m_maxY, y);
    if (i % kBlock == 0) {
        m_blocks.push_back({ y, y, i, i });
        return;
    }
    Block& block = m_blocks.back();
    if (y < block.lowY)
        block = { y, block.highY, i, block.high };
    if (y > block.highY)
        block = { block.lowY, y, block.low, i };
}

void LinePoints::clear()
{
    m_x.clear();
    m_y.clear();
    m_blocks.clear();
    m_maxY = 0.0;
}

void LinePoints::reserve(std::size_t points)
{
    m_x.reserve(points);
    m_y.reserve(points);
    m_blocks.reserve(points / kBlock + 1);
}

std::pair<std::size_t, std::size_t> LinePoints::extremes(std::size_t begin, std::size_t end) const
{
    std::size_t low = begin, high = begin;
    double lowY = m_y[begin], highY = m_y[begin];
    auto point = [&](std::size_t i) {
        if (m_y[i] < lowY)
            lowY = m_y[low = i];
        if (m_y[i] > highY)
            highY = m_y[high = i];
    };
    std::size_t i = begin;
    for (; i < end && i % kBlock != 0; ++i)
        point(i);
    for (; i + kBlock <= end; i += kBlock) {
        const Block& block = m_blocks[i / kBlock];
        if (block.lowY < lowY) {
            lowY = block.lowY;
            low = block.low;
        }
        if (block.highY > highY) {
            highY = block.highY;
            high = block.high;
        }
    }
    for (; i < end; ++i)
        point(i);
    return { low, high };
}

std::size_t LinePoints::firstAtOrAbove(std::size_t from, std::size_t end, double x) const
{
    if (from >= end || m_x[from] >= x)
        return from;
    if (m_x[end - 1] < x)
        return end;
    // Runs mostly sit one apart: the position by the spacing of [from, end) is right or near, and the search
    // gallops from it to a short stretch to halve.
    const double share = (x - m_x[from]) / (m_x[end - 1] - m_x[from]);
    const auto guess = std::min(end - 1, from + std::size_t(share * double(end - 1 - from)));
    std::size_t low = guess, high = guess;
    std::size_t step = 1;
    if (m_x[guess] < x) {
        // Every x before `low` is below; x at `high` is not, or `high` is the end.
        low = high = guess + 1;
        while (high < end && m_x[high] < x) {
            low = high + 1;
            high = std::min(end, low + step);
            step *= 2;
        }
    } else {
        // x at `high` is not below; every x before `low` is, or `low` is `from`.
        while (low > from && m_x[low - 1] >= x) {
            high = low - 1;
            low = high >= from + step ? high - step : from;
            step *= 2;
        }
    }
    return std::size_t(std::lower_bound(m_x.begin() + std::ptrdiff_t(low), m_x.begin() + std::ptrdiff_t(high), x) -
        m_x.begin());
}

std::vector<std::size_t> LinePoints::decimate(double low, double high, int columns) const
{
    columns = std::max(columns, 1);
    const auto xBegin = m_x.begin();
    // The points within [low, high], and one more on either side where there is one.
    std::size_t begin = std::size_t(std::lower_bound(xBegin, m_x.end(), low) - xBegin);
    std::size_t end = std::size_t(std::upper_bound(xBegin, m_x.end(), high) - xBegin);
    end = std::max(begin, end);
    const std::size_t first = begin > 0 ? begin - 1 : begin;
    const std::size_t last = end < m_x.size() ? end + 1 : end;  // one past

    std::vector<std::size_t> kept;
    if (last - first <= 2 * std::size_t(columns) + 2) {
        for (std::size_t i = first; i < last; ++i)
            kept.push_back(i);
        return kept;
    }
    kept.reserve(2 * std::size_t(columns) + 4);
    auto keep = [&kept](std::size_t i) {
        if (kept.empty() || kept.back() < i)
            kept.push_back(i);
    };
    keep(first);
    if (begin < end)
        keep(begin);
    // Column c holds the points with low + c·w <= x < low + (c + 1)·w; the last one also those at `high`.
    const double width = (high - low) / columns;
    std::size_t from = begin;
    for (int c = 0; c < columns && from < end; ++c) {
        std::size_t to = end;
        if (c + 1 < columns) {
            const double edge = low + (c + 1) * width;
            to = firstAtOrAbove(from, end, edge);
        }
        if (to > from) {
            const auto [lowest, highest] = extremes(from, to);
            keep(std::min(lowest, highest));
            keep(std::max(lowest, highest));
        }
        from = to;
    }
    if (begin < end)
        keep(end - 1);
    keep(last - 1);
    return kept;
}

}  // namespace asyncscope
