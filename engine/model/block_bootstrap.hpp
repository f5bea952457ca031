// The difference of two series' medians when each was measured as blocks (--blocks): runs of one block share what
// differs from one block (or process) to the next, so they are not independent draws, and an interval that resamples
// runs alone is too narrow. The hierarchical bootstrap resamples blocks, then runs within each block drawn.
#pragma once

#include "engine/model/shift_statistics.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace asyncscope {

// A sample in blocks: block b's values sorted ascending at values[first(b), ends[b]).
struct BlockedSample {
    std::vector<double> values;
    std::vector<std::size_t> ends;

    std::size_t blocks() const { return ends.size(); }
    std::size_t first(std::size_t b) const { return b == 0 ? 0 : ends[b - 1]; }
    std::size_t size(std::size_t b) const { return ends[b] - first(b); }
    double median(std::size_t b) const;
};

// `values` with the block each came from (`blocks`, in the runs' order: not decreasing) grouped by block, each group
// sorted. A block that holds no value is left out.
BlockedSample blockedSample(const std::vector<double>& values, const std::vector<int>& blocks);

// The hierarchical bootstrap's interval of the difference current - baseline. Each resample draws as many blocks as a
// side has, with replacement, and for each block drawn the median of a resample of its runs (in constant time, as
// bootstrapMedianShift draws it); a side's resampled value is those medians averaged, weighted by the blocks' runs.
// A resample therefore costs the two sides' block counts, whatever their runs. A side of several blocks has its
// resampled values' spread widened by sqrt(B / (B - 1)) (the bootstrap's spread of a mean of B values is that much
// narrower than its sampling spread). A side of one block varies by its runs alone.
//
// The interval is placed on `difference` (the difference of the pooled medians, which the comparison shows): the
// resampled differences are moved by `difference` minus the difference of the weighted block medians. `p` is the
// bootstrap's two-sided p-value, the share of resampled differences on the far side of 0, doubled: the interval then
// leaves out 0 exactly when p is below 1 - confidence, and the verdict rests on blocks, not on runs.
struct BlockShift {
    MedianShift shift;
    double p = 1.0;
};
BlockShift hierarchicalMedianShift(const BlockedSample& baseline, const BlockedSample& current, double difference,
    double confidence, int resamples, std::uint64_t seed);

}  // namespace asyncscope
