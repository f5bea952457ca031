#include "gui/series/histogram.hpp"

#include "gui/series/nice_ticks.hpp"

#include "engine/model/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace asyncscope {

double HistogramBins::edge(int i) const
{
    const double at = low + width * i;
    const double scale = std::pow(10.0, niceDecimals(width));
    return std::round(at * scale) / scale;
}

int HistogramBins::binOf(double value) const
{
    if (value < low)
        return -1;
    if (value > high())
        return count;
    int bin = std::clamp(int(std::floor((value - low) / width)), 0, count - 1);
    while (bin > 0 && value < edge(bin))  // the edges as counted, not as the division rounds
        --bin;
    while (bin + 1 < count && value >= edge(bin + 1))
        ++bin;
    return bin;
}

std::size_t Histogram::total() const
{
    std::size_t n = below + above;
    for (const std::size_t c : counts)
        n += c;
    return n;
}

HistogramBins fitBins(const std::vector<const std::vector<double>*>& sortedSamples, int maxBins)
{
    maxBins = std::max(1, maxBins);
    constexpr double inf = std::numeric_limits<double>::infinity();
    double fenceLow = inf, fenceHigh = -inf;  // every value but far outliers
    double width = inf;                       // the narrowest Freedman–Diaconis width
    for (const std::vector<double>* sample : sortedSamples) {
        if (!sample || sample->empty())
            continue;
        const std::vector<double>& s = *sample;
        const double q1 = sortedPercentile(s, 0.25), q3 = sortedPercentile(s, 0.75), iqr = q3 - q1;
        if (iqr > 0.0) {
            fenceLow = std::min(fenceLow, std::max(s.front(), q1 - 3.0 * iqr));
            fenceHigh = std::max(fenceHigh, std::min(s.back(), q3 + 3.0 * iqr));
            width = std::min(width, 2.0 * iqr / std::cbrt(double(s.size())));
        } else {
            // Half the values or more are equal: no spread to measure the bins by; keep every value.
            fenceLow = std::min(fenceLow, s.front());
            fenceHigh = std::max(fenceHigh, s.back());
        }
    }
    if (!std::isfinite(fenceLow) || !std::isfinite(fenceHigh))
        return {};  // nothing to bin
    // Far outliers (a run that waited for something) would squeeze every other run into a few bins at one end.
    const double low = fenceLow, high = fenceHigh;
    if (!std::isfinite(width)) {
        // No sample has a spread: the bins follow the range, or the size of the one value.
        width = high > low ? (high - low) / std::min(maxBins, 10) : std::max(std::fabs(low), 1e-300) / 10.0;
        if (low == 0.0 && high == 0.0)
            width = 1.0;
    }
    HistogramBins bins;
    bins.width = niceStep(std::max(width, (high - low) / maxBins), 1.0);
    for (;;) {
        bins.low = niceFloor(low, bins.width);
        bins.count = std::max(1, int(std::ceil((high - bins.low) / bins.width - 1e-9)));
        if (bins.count <= maxBins)
            break;
        bins.width = niceStep(bins.width * 1.5, 1.0);  // the next step up: 1 → 2 → 5 → 10
    }
    return bins;
}

Histogram countSorted(const std::vector<double>& sorted, const HistogramBins& bins)
{
    Histogram h;
    h.bins = bins;
    h.counts.assign(std::size_t(std::max(bins.count, 0)), 0);
    if (sorted.empty() || bins.count <= 0)
        return h;
    // Where each edge falls among the values: bin i holds the values from boundary i up to boundary i + 1.
    auto boundary = [&](int i) {
        if (i == bins.count)  // the last bin holds its right edge too
            return std::size_t(std::upper_bound(sorted.begin(), sorted.end(), bins.high()) - sorted.begin());
        return std::size_t(std::lower_bound(sorted.begin(), sorted.end(), bins.edge(i)) - sorted.begin());
    };
    std::size_t from = boundary(0);
    h.below = from;
    for (int i = 0; i < bins.count; ++i) {
        const std::size_t to = boundary(i + 1);
        h.counts[std::size_t(i)] = to - from;
        from = to;
    }
    h.above = sorted.size() - from;
    return h;
}

}  // namespace asyncscope
