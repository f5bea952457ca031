// Monte Carlo checks of what a baseline comparison's interval promises, on invented series of known truth: pairs of
// series of one configuration (A/A) whose blocks, like processes, each land a little apart, and pairs with a true 2 %
// slowdown. Fixed seeds: the counts are the same on every run.
#include "engine/model/baseline.hpp"
#include "engine/model/block_bootstrap.hpp"
#include "engine/model/detection_need.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

namespace asyncscope {
namespace {

constexpr int kPairs = 20;
constexpr double kMedianMs = 2.5;
constexpr double kRunNoise = 0.004;    // each run's spread, relative
constexpr double kBlockNoise = 0.002;  // each block's (process's) offset, relative: 0.1 to 0.3 % apart

// A series of `blocks` blocks of `runs` runs each around `median` ms: each block's runs shifted by one offset drawn
// for the block, plus each run's own noise and a few slow runs. Every block starts with a warm-up run.
Report blockedSeries(std::mt19937_64& rng, int blocks, int runs, double median)
{
    std::normal_distribution<double> offset(0.0, kBlockNoise);
    std::normal_distribution<double> noise(0.0, kRunNoise);
    std::exponential_distribution<double> tail(1.0 / (kRunNoise * 3.0));
    std::uniform_real_distribution<double> pick(0.0, 1.0);
    Report r;
    r.host = "gpu-node";
    r.device.name = "NVIDIA H200";
    r.config.runs = blocks * runs;
    r.config.blocks = blocks;
    int index = 0;
    for (int b = 0; b < blocks; ++b) {
        const double blockMedian = median * (1.0 + offset(rng));
        RunResult warm;
        warm.index = index++;
        warm.block = b;
        warm.warmup = true;
        warm.verified = true;
        warm.gpuMs = median * 3.0;
        r.runs.push_back(warm);
        for (int i = 0; i < runs; ++i) {
            RunResult run;
            run.index = index++;
            run.block = b;
            run.verified = true;
            run.gpuMs = blockMedian * (1.0 + noise(rng) + (pick(rng) < 0.03 ? tail(rng) : 0.0));
            r.runs.push_back(run);
        }
    }
    return r;
}

BaselineSettings settings(double minDifference, std::optional<double> maxSlowdown = std::nullopt)
{
    BaselineSettings s;
    s.resamples = 2000;  // the interval's ends to a few hundredths of a percent: enough to count coverage
    s.minDifferencePercent = minDifference;
    s.maxSlowdownPercent = maxSlowdown;
    return s;
}

const QuantityComparison& gpuTime(const BaselineComparison& c)
{
    const QuantityComparison* q = c.quantity("gpu_time_ms");
    if (!q)
        throw std::runtime_error("no GPU time compared");
    return *q;
}

struct Counts {
    int covered = 0;  // intervals that hold the true difference
    int slower = 0;
    int faster = 0;
    int gateFailed = 0;
};

// kPairs pairs of series of `blocks` blocks of `runs` runs, the current one `shift` slower (0: A/A).
Counts countPairs(std::uint64_t seed, int blocks, int runs, double shift, const BaselineSettings& s)
{
    std::mt19937_64 rng(seed);
    Counts counts;
    for (int pair = 0; pair < kPairs; ++pair) {
        const Report a = blockedSeries(rng, blocks, runs, kMedianMs);
        const Report b = blockedSeries(rng, blocks, runs, kMedianMs * (1.0 + shift));
        BaselineSettings seeded = s;
        seeded.seed = std::uint64_t(pair) + 1;
        const BaselineComparison c = compareWithBaseline(a, b, seeded);
        const QuantityComparison& q = gpuTime(c);
        const double truth = kMedianMs * shift;
        counts.covered += q.low <= truth && truth <= q.high ? 1 : 0;
        counts.slower += q.verdict == Verdict::Slower ? 1 : 0;
        counts.faster += q.verdict == Verdict::Faster ? 1 : 0;
        counts.gateFailed += c.gateFailed() ? 1 : 0;
    }
    std::printf("%d blocks of %d runs, %+.1f %%: interval holds the truth %d/%d, slower %d, faster %d, gate "
                "failed %d\n",
        blocks, runs, shift * 100.0, counts.covered, kPairs, counts.slower, counts.faster, counts.gateFailed);
    return counts;
}

TEST(BlockCoverage, AaIntervalsOfBlocksCoverZero)
{
    for (const double minDifference : { 0.5, 0.1 }) {
        const Counts counts = countPairs(11, 10, 40, 0.0, settings(minDifference));
        EXPECT_GE(counts.covered, 18) << "of " << kPairs << " A/A pairs at --min-difference " << minDifference;
        EXPECT_LE(counts.slower + counts.faster, 1) << "of " << kPairs << " A/A pairs at --min-difference "
                                                    << minDifference;
    }
}

TEST(BlockCoverage, TrueTwoPercentSlowdownFailsTheGate)
{
    const Counts counts = countPairs(12, 10, 40, 0.02, settings(0.5, 1.0));
    EXPECT_GE(counts.gateFailed, 19) << "of " << kPairs << " pairs 2 % slower, gate at 1 %";
    EXPECT_GE(counts.covered, 18) << "intervals holding the true 2 %";
}

TEST(BlockCoverage, SingleBlockIntervalLeavesProcessesOut)
{
    // Each side one block (one process): the runs' bootstrap sees none of the offset between them.
    const Counts single = countPairs(13, 1, 400, 0.0, settings(0.1));
    EXPECT_LT(single.covered, 10) << "of " << kPairs << ": the runs alone cannot hold the variation between processes";
    EXPECT_GT(single.slower + single.faster, 5) << "false verdicts at --min-difference 0.1";
    // The same runs in blocks: covered.
    const Counts blocked = countPairs(13, 10, 40, 0.0, settings(0.1));
    EXPECT_GE(blocked.covered, 18);
}

TEST(BlockCoverage, ComparisonSaysWhenAnIntervalLeavesProcessesOut)
{
    std::mt19937_64 rng(14);
    const Report one = blockedSeries(rng, 1, 100, kMedianMs);
    const Report several = blockedSeries(rng, 5, 20, kMedianMs);
    const BaselineComparison singles = compareWithBaseline(one, one, settings(0.5));
    EXPECT_TRUE(singles.singleBlock());
    EXPECT_EQ(gpuTime(singles).baselineBlocks, 1u);
    const BaselineComparison mixed = compareWithBaseline(several, one, settings(0.5));
    EXPECT_TRUE(mixed.singleBlock()) << "one side of one block";
    const BaselineComparison blocks = compareWithBaseline(several, several, settings(0.5));
    EXPECT_FALSE(blocks.singleBlock());
    EXPECT_EQ(gpuTime(blocks).baselineBlocks, 5u);
    EXPECT_EQ(gpuTime(blocks).currentBlocks, 5u);
}

TEST(BlockCoverage, HierarchicalIntervalIsPlacedOnTheDifferenceOfMedians)
{
    std::mt19937_64 rng(15);
    const Report a = blockedSeries(rng, 8, 30, kMedianMs);
    const Report b = blockedSeries(rng, 8, 30, kMedianMs * 1.05);
    const BaselineComparison c = compareWithBaseline(a, b, settings(0.5));
    const QuantityComparison& q = gpuTime(c);
    EXPECT_DOUBLE_EQ(q.difference, q.current - q.baseline);
    EXPECT_LT(q.low, q.difference);
    EXPECT_GT(q.high, q.difference);
    EXPECT_LT(q.p, 0.05);
    EXPECT_EQ(q.verdict, Verdict::Slower);
}

TEST(BlockBootstrap, GroupsValuesByBlockSortedInEach)
{
    const BlockedSample s = blockedSample({ 3.0, 1.0, 2.0, 9.0, 7.0 }, { 0, 0, 0, 2, 2 });
    ASSERT_EQ(s.blocks(), 2u);
    EXPECT_EQ(s.values, (std::vector<double> { 1.0, 2.0, 3.0, 7.0, 9.0 }));
    EXPECT_DOUBLE_EQ(s.median(0), 2.0);
    EXPECT_DOUBLE_EQ(s.median(1), 8.0);
}

TEST(BlockBootstrap, CostDoesNotGrowWithRuns)
{
    // A million runs in 10 blocks: each resample draws 10 block medians a side, whatever the runs.
    std::vector<double> values(1000000);
    std::vector<int> blocks(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = 2.5 + double(i % 1000) * 1e-5 + double(i / 100000) * 1e-3;
        blocks[i] = int(i / 100000);
    }
    const BlockedSample s = blockedSample(values, blocks);
    const BlockShift shift = hierarchicalMedianShift(s, s, 0.0, 0.95, 10000, 1);
    EXPECT_LT(shift.shift.low, 0.0);
    EXPECT_GT(shift.shift.high, 0.0);
    EXPECT_GT(shift.p, 0.5);
}

TEST(DetectionNeed, MoreBlocksForSmallerDifferencesAndRunsAloneWithoutBlocks)
{
    std::mt19937_64 rng(16);
    const Report a = blockedSeries(rng, 10, 40, kMedianMs);
    const Report b = blockedSeries(rng, 10, 40, kMedianMs);
    const BaselineComparison atOne = compareWithBaseline(a, b, settings(1.0));
    const BaselineComparison atTenth = compareWithBaseline(a, b, settings(0.1));
    const QuantityComparison& coarse = gpuTime(atOne);
    const QuantityComparison& fine = gpuTime(atTenth);
    ASSERT_TRUE(coarse.need && fine.need);
    ASSERT_TRUE(coarse.need->blockNoisePercent);
    EXPECT_NEAR(*coarse.need->blockNoisePercent, kBlockNoise * 100.0, 0.15);
    EXPECT_GT(coarse.need->runNoisePercent, 0.0);
    EXPECT_EQ(coarse.need->runsPerBlock, 40u);
    EXPECT_LT(coarse.need->blocks, fine.need->blocks);
    EXPECT_GE(fine.need->blocks, 20u) << "0.1 % against 0.2 % between blocks takes many blocks";

    const Report one = blockedSeries(rng, 1, 400, kMedianMs);
    const BaselineComparison alone = compareWithBaseline(one, one, settings(0.5));
    const QuantityComparison& runsOnly = gpuTime(alone);
    ASSERT_TRUE(runsOnly.need);
    EXPECT_FALSE(runsOnly.need->blockNoisePercent);
    EXPECT_EQ(runsOnly.need->blocks, 1u);
    EXPECT_GE(runsOnly.need->runsPerBlock, 5u);
}

TEST(DetectionNeed, NormalQuantile)
{
    EXPECT_NEAR(normalQuantile(0.975), 1.959964, 1e-5);
    EXPECT_NEAR(normalQuantile(0.8), 0.841621, 1e-5);
    EXPECT_NEAR(normalQuantile(0.5), 0.0, 1e-9);
}

TEST(VerdictDecided, IntervalBeyondOrWithinTheDifferenceThatCounts)
{
    BaselineSettings s = settings(0.5);
    QuantityComparison q;
    q.key = "gpu_time_ms";
    q.sameUnderPercent = 0.5;
    const auto decided = [&](double low, double high) {
        q.lowPercent = low;
        q.highPercent = high;
        return verdictDecided(q, s);
    };
    EXPECT_TRUE(decided(0.6, 1.2));
    EXPECT_TRUE(decided(-0.2, 0.3));
    EXPECT_TRUE(decided(-1.5, -0.7));
    EXPECT_FALSE(decided(0.2, 0.8));
    EXPECT_FALSE(decided(-0.7, 0.1));
    s.maxSlowdownPercent = 1.0;
    q.gated = true;
    EXPECT_TRUE(decided(1.2, 2.5));
    EXPECT_TRUE(decided(0.2, 0.9));
    EXPECT_FALSE(decided(0.8, 1.4));
}

}  // namespace
}  // namespace asyncscope
