// Statistics over a list of values: what every distribution of a summary holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace asyncscope {

struct Summary {
    std::size_t count = 0;
    double min = 0.0;
    double max = 0.0;
    double mean = 0.0;
    double median = 0.0;
    double stddev = 0.0;        // sample standard deviation (n - 1)
    double noisePercent = 0.0;  // stddev / mean, in percent: nvbench's "Noise"
    double p95 = 0.0;           // nearest-rank 95th percentile
};

Summary summarize(std::vector<double> values);
// The same, reordering `values` in place instead of taking a copy (for a caller that reuses one buffer).
Summary summarizeInPlace(std::vector<double>& values);

// The median and the nearest-rank percentile (`fraction` 0.95 for p95) of values sorted in ascending order, as
// summarize() reports them: for views that keep their values sorted as they arrive. 0 when there are none.
double sortedMedian(const std::vector<double>& sorted);
double sortedPercentile(const std::vector<double>& sorted, double fraction);

// Sorts values[from, end) in ascending order, in linear time for long ranges (a radix sort on the values' bits, as
// many passes as the values' bits differ): a million times sort in a few milliseconds. NaNs go after +infinity (or
// before -infinity, by their sign bit), -0 before +0.
void sortValues(std::vector<double>& values, std::size_t from = 0);

// Decimal gigabytes per second (1 GB = 1e9 bytes) for `bytes` moved in `ms`; 0 when ms is not positive.
double gigabytesPerSecond(double bytes, double ms);

}  // namespace asyncscope
