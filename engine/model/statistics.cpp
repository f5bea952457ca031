#include "engine/model/statistics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <utility>

namespace asyncscope {

// Selection, not sorting: the median and p95 come from nth_element on the parts the median leaves, the rest from
// one pass each, so a million values take linear time (a summary has several such quantities per series).
Summary summarize(std::vector<double> values)
{
    return summarizeInPlace(values);
}

Summary summarizeInPlace(std::vector<double>& values)
{
    Summary s;
    s.count = values.size();
    if (values.empty())
        return s;
    const std::size_t n = values.size();
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    s.min = *low;
    s.max = *high;
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(n);
    if (n > 1) {
        double squares = 0.0;
        for (const double v : values)
            squares += (v - s.mean) * (v - s.mean);
        s.stddev = std::sqrt(squares / static_cast<double>(n - 1));
    }
    s.noisePercent = s.mean != 0.0 ? 100.0 * s.stddev / std::fabs(s.mean) : 0.0;

    // The value of rank n / 2 (0-based) in its place, the smaller ones before it, the larger after.
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(values.begin(), middle, values.end());
    s.median = n % 2 == 1 ? *middle : (*std::max_element(values.begin(), middle) + *middle) / 2.0;
    // Nearest rank, as sortedPercentile: the value of 0-based rank ceil(0.95 n) - 1, at or after the middle.
    const auto rank = std::clamp<std::size_t>(
        static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(n))), 1, n) - 1;
    const auto at = values.begin() + static_cast<std::ptrdiff_t>(rank);
    if (at > middle)
        std::nth_element(middle + 1, at, values.end());
    else if (at < middle)
        std::nth_element(values.begin(), at, middle);
    s.p95 = *at;
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

namespace {

// A double's bits as an unsigned key that orders as the value does: negatives flipped whole, positives' sign bit set.
std::uint64_t orderedKey(double value)
{
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return (bits >> 63) != 0 ? ~bits : bits | (std::uint64_t(1) << 63);
}

double valueOf(std::uint64_t key)
{
    const std::uint64_t bits = (key >> 63) != 0 ? key & ~(std::uint64_t(1) << 63) : ~key;
    double value = 0.0;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

}  // namespace

void sortValues(std::vector<double>& values, std::size_t from)
{
    const auto first = values.begin() + static_cast<std::ptrdiff_t>(std::min(from, values.size()));
    const std::size_t n = static_cast<std::size_t>(values.end() - first);
    constexpr std::size_t kRadixFrom = 4096;  // below this std::sort is as fast
    if (n < kRadixFrom) {
        std::sort(first, values.end(), [](double a, double b) { return orderedKey(a) < orderedKey(b); });
        return;
    }
    // Least significant digit first, 11 bits a pass; a pass is skipped where every key has the same digit (the high
    // bits of times in one range), so a series of similar times takes three or four passes over its keys. The keys
    // take the values' own room (their bits, through memcpy) and one spare buffer, left uninitialised: a million
    // values fault in 8 MB, not 24.
    constexpr int kBits = 11;
    constexpr std::size_t kBuckets = std::size_t(1) << kBits;
    constexpr int kPasses = (64 + kBits - 1) / kBits;
    double* const own = &*first;
    const std::unique_ptr<double[]> spare(new double[n]);
    const auto keyAt = [](const double* at, std::size_t i) {
        std::uint64_t key = 0;
        std::memcpy(&key, at + i, sizeof key);
        return key;
    };
    const auto putKey = [](double* at, std::size_t i, std::uint64_t key) { std::memcpy(at + i, &key, sizeof key); };
    std::vector<std::array<std::size_t, kBuckets>> counts(kPasses);
    for (auto& c : counts)
        c.fill(0);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t key = orderedKey(own[i]);
        putKey(own, i, key);
        for (int p = 0; p < kPasses; ++p)
            ++counts[static_cast<std::size_t>(p)][(key >> (p * kBits)) & (kBuckets - 1)];
    }
    double* read = own;
    double* write = spare.get();
    for (int p = 0; p < kPasses; ++p) {
        auto& count = counts[static_cast<std::size_t>(p)];
        if (std::find(count.begin(), count.end(), n) != count.end())
            continue;  // one digit for all: this pass would not move anything
        std::size_t at = 0;
        for (std::size_t& c : count)
            at += std::exchange(c, at);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t key = keyAt(read, i);
            putKey(write, count[(key >> (p * kBits)) & (kBuckets - 1)]++, key);
        }
        std::swap(read, write);
    }
    for (std::size_t i = 0; i < n; ++i)
        own[i] = valueOf(keyAt(read, i));
}

}  // namespace asyncscope
