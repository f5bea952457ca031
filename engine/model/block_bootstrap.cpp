#include "engine/model/block_bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace asyncscope {

double BlockedSample::median(std::size_t b) const
{
    return medianOfSorted(values.data() + first(b), size(b));
}

BlockedSample blockedSample(const std::vector<double>& values, const std::vector<int>& blocks)
{
    BlockedSample out;
    out.values.reserve(values.size());
    std::size_t begin = 0;
    while (begin < values.size()) {
        std::size_t end = begin + 1;
        while (end < values.size() && blocks[end] == blocks[begin])
            ++end;
        out.values.insert(
            out.values.end(), values.begin() + std::ptrdiff_t(begin), values.begin() + std::ptrdiff_t(end));
        std::sort(out.values.end() - std::ptrdiff_t(end - begin), out.values.end());
        out.ends.push_back(out.values.size());
        begin = end;
    }
    return out;
}

namespace {

// One side: its blocks' weighted mean median, and draws of it resampled.
class Side {
public:
    explicit Side(const BlockedSample& sample)
        : m_sample(sample)
        , m_pick(0, sample.blocks() - 1)
    {
        double sum = 0.0;
        for (std::size_t b = 0; b < sample.blocks(); ++b)
            sum += double(sample.size(b)) * sample.median(b);
        m_value = sum / double(sample.values.size());
        const double blocks = double(sample.blocks());
        m_widen = sample.blocks() > 1 ? std::sqrt(blocks / (blocks - 1.0)) : 1.0;
    }

    double value() const { return m_value; }

    double draw(std::mt19937_64& rng)
    {
        if (m_sample.blocks() == 1)
            return resampledMedian(rng, m_sample.values.data(), m_sample.values.size());
        double sum = 0.0, runs = 0.0;
        for (std::size_t j = 0; j < m_sample.blocks(); ++j) {
            const std::size_t b = m_pick(rng);
            const double n = double(m_sample.size(b));
            sum += n * resampledMedian(rng, m_sample.values.data() + m_sample.first(b), m_sample.size(b));
            runs += n;
        }
        return m_value + m_widen * (sum / runs - m_value);
    }

private:
    const BlockedSample& m_sample;
    std::uniform_int_distribution<std::size_t> m_pick;
    double m_value = 0.0;
    double m_widen = 1.0;
};

}  // namespace

BlockShift hierarchicalMedianShift(const BlockedSample& baseline, const BlockedSample& current, double difference,
    double confidence, int resamples, std::uint64_t seed)
{
    Side a(baseline);
    Side b(current);
    const double moved = difference - (b.value() - a.value());
    std::mt19937_64 rng(seed);
    std::vector<double> differences(static_cast<std::size_t>(std::max(resamples, 2)));
    std::size_t atOrBelow = 0, atOrAbove = 0;
    for (double& d : differences) {
        const double base = a.draw(rng);
        d = b.draw(rng) - base + moved;
        atOrBelow += d <= 0.0 ? 1 : 0;
        atOrAbove += d >= 0.0 ? 1 : 0;
    }
    std::sort(differences.begin(), differences.end());
    const double tail = (1.0 - confidence) / 2.0;
    BlockShift out;
    out.shift.difference = difference;
    out.shift.low = interpolatedQuantile(differences, tail);
    out.shift.high = interpolatedQuantile(differences, 1.0 - tail);
    const double n = double(differences.size());
    out.p = std::min(1.0, 2.0 * (double(std::min(atOrBelow, atOrAbove)) + 1.0) / (n + 1.0));
    return out;
}

}  // namespace asyncscope
