#include "engine/model/detection_need.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace asyncscope {

namespace {

constexpr int kDrawsPerBlock = 256;

// The noise of one side: a run's share of its block median's variance (times the block's runs), and the variance of
// the blocks' medians beyond it (empty with one block).
struct SideNoise {
    double run = 0.0;
    std::optional<double> block;
};

SideNoise noiseOf(const BlockedSample& sample, std::mt19937_64& rng)
{
    SideNoise out;
    double medianVariance = 0.0;  // summed over blocks
    std::vector<double> medians;
    for (std::size_t b = 0; b < sample.blocks(); ++b) {
        const double* values = sample.values.data() + sample.first(b);
        double mean = 0.0, squares = 0.0;
        for (int k = 1; k <= kDrawsPerBlock; ++k) {
            const double m = resampledMedian(rng, values, sample.size(b));
            const double delta = m - mean;
            mean += delta / k;
            squares += delta * (m - mean);
        }
        const double variance = squares / (kDrawsPerBlock - 1);
        medianVariance += variance;
        out.run += variance * double(sample.size(b));
        medians.push_back(sample.median(b));
    }
    const double blocks = double(sample.blocks());
    out.run /= blocks;
    if (sample.blocks() > 1) {
        double mean = 0.0;
        for (const double m : medians)
            mean += m / blocks;
        double spread = 0.0;
        for (const double m : medians)
            spread += (m - mean) * (m - mean);
        out.block = std::max(0.0, spread / (blocks - 1.0) - medianVariance / blocks);
    }
    return out;
}

}  // namespace

double normalQuantile(double q)
{
    // Bisection on the normal distribution function, 0.5 erfc(-z / sqrt 2): exact to double precision in 80 steps.
    double low = -40.0, high = 40.0;
    for (int step = 0; step < 80; ++step) {
        const double mid = 0.5 * (low + high);
        (0.5 * std::erfc(-mid / std::sqrt(2.0)) < q ? low : high) = mid;
    }
    return 0.5 * (low + high);
}

std::optional<DetectionNeed> detectionNeed(const BlockedSample& baseline, const BlockedSample& current,
    double baselineMedian, double percent, double confidence, std::uint64_t seed)
{
    if (baseline.values.empty() || current.values.empty() || baselineMedian == 0.0 ||
        !std::isfinite(baselineMedian) || !(percent > 0.0))
        return std::nullopt;
    std::mt19937_64 rng(seed);
    const SideNoise a = noiseOf(baseline, rng);
    const SideNoise b = noiseOf(current, rng);
    const double run = 0.5 * (a.run + b.run);
    std::optional<double> block;
    if (a.block && b.block)
        block = 0.5 * (*a.block + *b.block);
    else if (a.block || b.block)
        block = a.block ? *a.block : *b.block;

    const double scale = std::abs(baselineMedian) / 100.0;  // ms (or the unit) per %
    const double delta = percent * scale;
    const double z = normalQuantile(1.0 - (1.0 - confidence) / 2.0) + normalQuantile(kDetectionPower);
    // The difference of two sides of B blocks of n runs each varies as 2 (block + run / n) / B.
    const double need = 2.0 * z * z / (delta * delta);
    DetectionNeed out;
    out.percent = percent;
    out.runNoisePercent = std::sqrt(run) / scale;
    if (block)
        out.blockNoisePercent = std::sqrt(*block) / scale;
    const auto perBlock = [](const BlockedSample& s) { return double(s.values.size()) / double(s.blocks()); };
    const double n = std::max(1.0, std::round(std::max(perBlock(baseline), perBlock(current))));
    constexpr double kMostBlocks = 1e9;  // a need beyond this is no plan: shown as it is
    if (block) {
        out.runsPerBlock = std::size_t(n);
        out.blocks = std::size_t(std::min(kMostBlocks, std::max(2.0, std::ceil(need * (*block + run / n)))));
    } else {
        out.blocks = 1;
        out.runsPerBlock = std::size_t(std::min(kMostBlocks, std::max(5.0, std::ceil(need * run))));
    }
    return out;
}

}  // namespace asyncscope
