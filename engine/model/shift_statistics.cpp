#include "engine/model/shift_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace asyncscope {

namespace {

// A Beta(a, b) draw from two Gamma draws.
double betaDraw(std::mt19937_64& rng, double a, double b)
{
    const double x = std::gamma_distribution<double>(a, 1.0)(rng);
    const double y = std::gamma_distribution<double>(b, 1.0)(rng);
    return x / (x + y);
}

// The sample's quantile function: the value a uniform draw u in (0, 1) picks from n sorted values.
double quantileAt(const double* sorted, std::size_t size, double u)
{
    const double n = static_cast<double>(size);
    const double rank = std::ceil(u * n);  // 1-based
    const std::size_t i = rank < 1.0 ? 0 : std::min(size - 1, static_cast<std::size_t>(rank) - 1);
    return sorted[i];
}

}  // namespace

// With n odd the median of a resample is the quantile function at the middle order statistic of n uniform draws,
// Beta(m, m) with m = (n + 1) / 2. With n even it is the mean of the function at order statistics k = n / 2 and
// k + 1: the k-th is Beta(k, n - k + 1), and the next, given it, lies the smallest of n - k uniform draws into the
// rest of the interval.
double resampledMedian(std::mt19937_64& rng, const double* sorted, std::size_t n)
{
    if (n == 1)
        return sorted[0];
    if (n % 2 == 1) {
        const double m = static_cast<double>((n + 1) / 2);
        return quantileAt(sorted, n, betaDraw(rng, m, m));
    }
    const double k = static_cast<double>(n / 2);
    const double uk = betaDraw(rng, k, static_cast<double>(n) - k + 1.0);
    const double v = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
    const double smallest = 1.0 - std::pow(1.0 - v, 1.0 / (static_cast<double>(n) - k));
    const double next = uk + (1.0 - uk) * smallest;
    return 0.5 * (quantileAt(sorted, n, uk) + quantileAt(sorted, n, next));
}

double medianOfSorted(const double* sorted, std::size_t n)
{
    return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

double interpolatedQuantile(const std::vector<double>& sorted, double q)
{
    const double at = q * static_cast<double>(sorted.size() - 1);
    const std::size_t below = static_cast<std::size_t>(std::floor(at));
    const std::size_t above = std::min(sorted.size() - 1, below + 1);
    const double w = at - static_cast<double>(below);
    return sorted[below] * (1.0 - w) + sorted[above] * w;
}

MedianShift bootstrapMedianShift(const std::vector<double>& sortedBaseline, const std::vector<double>& sortedCurrent,
    double confidence, int resamples, std::uint64_t seed)
{
    MedianShift shift;
    shift.difference = medianOfSorted(sortedCurrent.data(), sortedCurrent.size()) -
        medianOfSorted(sortedBaseline.data(), sortedBaseline.size());
    std::mt19937_64 rng(seed);
    std::vector<double> differences(static_cast<std::size_t>(std::max(resamples, 2)));
    for (double& d : differences) {
        const double baseline = resampledMedian(rng, sortedBaseline.data(), sortedBaseline.size());
        d = resampledMedian(rng, sortedCurrent.data(), sortedCurrent.size()) - baseline;
    }
    std::sort(differences.begin(), differences.end());
    const double tail = (1.0 - confidence) / 2.0;
    shift.low = interpolatedQuantile(differences, tail);
    shift.high = interpolatedQuantile(differences, 1.0 - tail);
    return shift;
}

double mannWhitneyP(const std::vector<double>& sortedBaseline, const std::vector<double>& sortedCurrent)
{
    const double na = static_cast<double>(sortedBaseline.size());
    const double nb = static_cast<double>(sortedCurrent.size());
    const double total = na + nb;
    // Ranks by merging the two sorted samples: a run of equal values shares the mean of its ranks.
    double rankSumCurrent = 0.0;
    double tieTerm = 0.0;  // sum of t^3 - t over runs of t equal values
    std::size_t i = 0;
    std::size_t j = 0;
    double rank = 0.0;  // ranks given so far
    while (i < sortedBaseline.size() || j < sortedCurrent.size()) {
        const bool fromBaseline = j == sortedCurrent.size() ||
            (i < sortedBaseline.size() && sortedBaseline[i] <= sortedCurrent[j]);
        const double value = fromBaseline ? sortedBaseline[i] : sortedCurrent[j];
        double inBaseline = 0.0;
        double inCurrent = 0.0;
        while (i < sortedBaseline.size() && sortedBaseline[i] == value) {
            ++i;
            ++inBaseline;
        }
        while (j < sortedCurrent.size() && sortedCurrent[j] == value) {
            ++j;
            ++inCurrent;
        }
        if (inBaseline + inCurrent == 0.0) {  // a NaN equals nothing, not even itself: a run of one
            if (fromBaseline) {
                ++i;
                ++inBaseline;
            } else {
                ++j;
                ++inCurrent;
            }
        }
        const double t = inBaseline + inCurrent;
        const double meanRank = rank + (t + 1.0) / 2.0;
        rankSumCurrent += inCurrent * meanRank;
        tieTerm += t * t * t - t;
        rank += t;
    }
    const double u = rankSumCurrent - nb * (nb + 1.0) / 2.0;
    const double mean = na * nb / 2.0;
    const double variance = na * nb / 12.0 * ((total + 1.0) - tieTerm / (total * (total - 1.0)));
    if (!(variance > 0.0))
        return 1.0;
    const double z = (std::abs(u - mean) - 0.5) / std::sqrt(variance);
    return std::clamp(std::erfc(z / std::sqrt(2.0)), 0.0, 1.0);
}

}  // namespace asyncscope
