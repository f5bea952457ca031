#include "gui/series/chart_decimation.hpp"

#include <algorithm>
#include <cmath>

namespace asyncscope {

namespace {

constexpr std::size_t kBlock = 64;  // points per block: a column's ends are read point by point, its middle by block

}  // namespace

void LinePoints::append(double x, double y)
{
    const std::size_t i = m_y.size();
    if (i == 0)
        m_firstX = x;
    else if (!m_x.empty())
        m_x.push_back(x);
    else if (!(x == m_firstX + double(i))) {  // the first point off the rule: every x written out from here on
        m_x.reserve(m_y.capacity());
        for (std::size_t k = 0; k < i; ++k)
            m_x.push_back(m_firstX + double(k));
        m_x.push_back(x);
    }
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
    m_firstX = 0.0;
    m_y.clear();
    m_blocks.clear();
    m_maxY = 0.0;
}

void LinePoints::reserve(std::size_t points)
{
    if (!m_x.empty())
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

std::size_t LinePoints::lowerIndex(double x) const
{
    if (!m_x.empty())
        return std::size_t(std::lower_bound(m_x.begin(), m_x.end(), x) - m_x.begin());
    if (!(x > m_firstX))
        return 0;
    return std::size_t(std::min(std::ceil(x - m_firstX), double(size())));
}

std::size_t LinePoints::upperIndex(double x) const
{
    if (!m_x.empty())
        return std::size_t(std::upper_bound(m_x.begin(), m_x.end(), x) - m_x.begin());
    if (std::isnan(x))
        return size();
    if (x < m_firstX)
        return 0;
    return std::size_t(std::min(std::floor(x - m_firstX) + 1.0, double(size())));
}

std::size_t LinePoints::firstAtOrAbove(std::size_t from, std::size_t end, double x) const
{
    if (m_x.empty())
        return std::clamp(lowerIndex(x), from, std::max(from, end));
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
    // The points within [low, high], and one more on either side where there is one.
    const auto [begin, end] = within(low, high);
    const std::size_t first = begin > 0 ? begin - 1 : begin;
    const std::size_t last = end < size() ? end + 1 : end;  // one past

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

std::pair<std::size_t, std::size_t> LinePoints::within(double low, double high) const
{
    const std::size_t begin = lowerIndex(low);
    return { begin, std::max(begin, upperIndex(high)) };
}

std::size_t LinePoints::countWithin(double low, double high) const
{
    const auto [begin, end] = within(low, high);
    return end - begin;
}

std::optional<std::pair<double, double>> LinePoints::rangeWithin(double low, double high) const
{
    const auto [begin, end] = within(low, high);
    if (begin >= end)
        return std::nullopt;
    const auto [lowest, highest] = extremes(begin, end);
    return std::pair { m_y[lowest], m_y[highest] };
}

namespace {

// The 0-based index of the nearest-rank percentile `fraction` among `n` sorted values.
std::size_t rankOf(double fraction, std::size_t n)
{
    return std::clamp<std::size_t>(std::size_t(std::ceil(fraction * double(n))), 1, n) - 1;
}

// The spread of values[0, n), reordering them: one partial sort at the middle, then each side's percentiles within
// the side only, so the five cost about three passes over the column rather than five.
void spreadOf(double* values, std::size_t n, bool medianOnly, ColumnSpread& column)
{
    const std::size_t middle = n / 2;
    std::nth_element(values, values + middle, values + n);
    column.median = n % 2 == 1 ? values[middle] : (*std::max_element(values, values + middle) + values[middle]) / 2.0;
    if (medianOnly) {
        column.p5 = column.p25 = column.p75 = column.p95 = column.median;
        return;
    }
    // Ranks at or below the middle lie in [0, middle]; those at or above it in [middle, n).
    const std::size_t r25 = rankOf(0.25, n), r5 = rankOf(0.05, n), r75 = rankOf(0.75, n), r95 = rankOf(0.95, n);
    if (r25 < middle)
        std::nth_element(values, values + r25, values + middle);
    if (r5 < r25)
        std::nth_element(values, values + r5, values + r25);
    if (r75 > middle)
        std::nth_element(values + middle + 1, values + r75, values + n);
    if (r95 > r75)
        std::nth_element(values + r75 + 1, values + r95, values + n);
    column.p5 = values[r5];
    column.p25 = values[r25];
    column.p75 = values[r75];
    column.p95 = values[r95];
}

}  // namespace

std::vector<ColumnSpread> LinePoints::spread(double low, double high, int columns, bool medianOnly) const
{
    columns = std::max(columns, 1);
    const auto [begin, end] = within(low, high);
    std::vector<ColumnSpread> spreads;
    if (begin == end)
        return spreads;
    spreads.reserve(std::size_t(columns));
    std::vector<double> values;  // one column's values, partially sorted in place
    const double width = (high - low) / columns;
    std::size_t from = begin;
    for (int c = 0; c < columns && from < end; ++c) {
        // Column c holds the points with low + c·w <= x < low + (c + 1)·w; the last one also those at `high`.
        const std::size_t to = c + 1 < columns ? firstAtOrAbove(from, end, low + (c + 1) * width) : end;
        if (to > from) {
            ColumnSpread column;
            column.firstX = x(from);
            column.lastX = x(to - 1);
            column.count = to - from;
            values.assign(m_y.begin() + std::ptrdiff_t(from), m_y.begin() + std::ptrdiff_t(to));
            spreadOf(values.data(), values.size(), medianOnly, column);
            spreads.push_back(column);
        }
        from = to;
    }
    return spreads;
}

}  // namespace asyncscope
