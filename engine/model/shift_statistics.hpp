// Is one sample shifted against another? The difference of their medians with a bootstrap interval, and the
// Mann–Whitney U test's p-value: what a baseline comparison rests on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace asyncscope {

// The current sample's median minus the baseline's, and the interval that holds the difference with the chosen
// confidence.
struct MedianShift {
    double difference = 0.0;
    double low = 0.0;
    double high = 0.0;
};

// The percentile bootstrap of the difference of medians, `resamples` times, seeded: the same samples and seed give
// the same interval. Both samples sorted ascending and not empty; `confidence` in (0, 1).
//
// A resample of n values drawn with replacement from a sorted sample is the sample's quantile function at n uniform
// draws, and its median is that function at the median of the draws, whose distribution is known (a Beta
// distribution, and the next order statistic given it): so each resample's median is drawn directly in constant time
// and the interval of a million-run series costs what it costs for ten runs. The result is the bootstrap itself, not
// an approximation of it.
MedianShift bootstrapMedianShift(const std::vector<double>& sortedBaseline, const std::vector<double>& sortedCurrent,
    double confidence, int resamples, std::uint64_t seed);

// The median of one resample, with replacement, of the n sorted values at `sorted` (n at least 1), drawn in constant
// time as bootstrapMedianShift draws it.
double resampledMedian(std::mt19937_64& rng, const double* sorted, std::size_t n);
// The median of n sorted values (n at least 1).
double medianOfSorted(const double* sorted, std::size_t n);
// The value at fraction q of sorted values (not empty), interpolated between neighbours: a bootstrap's percentile.
double interpolatedQuantile(const std::vector<double>& sorted, double q);

// Two-sided p-value of the Mann–Whitney U test that the current sample comes from the baseline's distribution, by the
// normal approximation with the correction for ties and for continuity (as Google Benchmark's compare.py and SciPy's
// "asymptotic" method compute it). Both samples sorted ascending and not empty. 1 when every value is the same.
double mannWhitneyP(const std::vector<double>& sortedBaseline, const std::vector<double>& sortedCurrent);

}  // namespace asyncscope
