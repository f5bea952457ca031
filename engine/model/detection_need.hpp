// How much a series must measure to tell a given difference from its noise: the blocks, and the runs in each, that
// a side needs, from the noise the two series show between runs and between blocks. Printed with a comparison, and
// what `--runs auto` measures towards.
#pragma once

#include "engine/model/block_bootstrap.hpp"

#include <cstddef>
#include <optional>

namespace asyncscope {

// The power a need is worked out for: a true difference of the given size is told from noise this often.
inline constexpr double kDetectionPower = 0.8;

struct DetectionNeed {
    double percent = 0.0;           // the difference to tell, in % of the baseline's median
    std::size_t blocks = 1;         // blocks a side needs ...
    std::size_t runsPerBlock = 0;   // ... of this many measured runs each
    double runNoisePercent = 0.0;   // one run's spread around its block's median, as its median's spread takes it
    // Blocks' medians' spread beyond what their runs explain; empty where neither side has two blocks (unknown: the
    // need then counts runs alone, and says so).
    std::optional<double> blockNoisePercent;
    std::size_t runs() const { return blocks * runsPerBlock; }
};

// The need to tell `percent` % (above 0) from noise at `confidence`, kDetectionPower of the time, with blocks of as
// many runs as the larger side's blocks hold on average. Empty where the baseline's median is 0 or the samples are
// empty. The runs' spread is drawn from each block's resampled medians (`seed`, a few hundred draws a block).
std::optional<DetectionNeed> detectionNeed(const BlockedSample& baseline, const BlockedSample& current,
    double baselineMedian, double percent, double confidence, std::uint64_t seed);

// A standard normal quantile: the z with P(Z <= z) = q, q in (0, 1).
double normalQuantile(double q);

}  // namespace asyncscope
