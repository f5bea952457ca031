#include "engine/model/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace asyncscope {

Summary summarize(std::vector<double> values)
{
    Summary s;
    s.count = values.size();
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    s.min = values.front();
    s.max = values.back();
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(n);
    s.median = sortedMedian(values);
    if (n > 1) {
        double squares = 0.0;
        for (const double v : values)
            squares += (v - s.mean) * (v - s.mean);
        s.stddev = std::sqrt(squares / static_cast<double>(n - 1));
    }
    s.noisePercent = s.mean != 0.0 ? 100.0 * s.stddev / std::fabs(s.mean) : 0.0;
    s.p95 = sortedPercentile(values, 0.95);
    return s;
}

double sortedMedian(const std::vector<double>& sorted)
{
    const std::size_t n = sorted.size();
    if (n == 0)
        return 0.0;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

double sortedPercentile(const std::vector<double>& sorted, double fraction)
{
    if (sorted.empty())
        return 0.0;
    const auto rank = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(sorted.size())));
    return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

double gigabytesPerSecond(double bytes, double ms)
{
    return ms > 0.0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}

}  // namespace asyncscope
