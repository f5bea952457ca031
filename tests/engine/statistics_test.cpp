#include "engine/series_runner.hpp"
#include "engine/statistics.hpp"

#include <gtest/gtest.h>

using namespace asyncscope;

TEST(Statistics, SummarizesKnownValues)
{
    const Summary s = summarize({ 4.0, 1.0, 3.0, 2.0, 5.0 });
    EXPECT_EQ(s.count, 5u);
    EXPECT_DOUBLE_EQ(s.min, 1.0);
    EXPECT_DOUBLE_EQ(s.max, 5.0);
    EXPECT_DOUBLE_EQ(s.mean, 3.0);
    EXPECT_DOUBLE_EQ(s.median, 3.0);
    EXPECT_NEAR(s.stddev, 1.5811388, 1e-6);  // sample stddev of 1..5
    EXPECT_NEAR(s.noisePercent, 52.704627, 1e-5);
    EXPECT_DOUBLE_EQ(s.p95, 5.0);
}

TEST(Statistics, EvenCountMedianAndP95)
{
    std::vector<double> values;
    for (int i = 1; i <= 100; ++i)
        values.push_back(i);
    const Summary s = summarize(values);
    EXPECT_DOUBLE_EQ(s.median, 50.5);
    EXPECT_DOUBLE_EQ(s.p95, 95.0);
}

TEST(Statistics, EmptyAndSingle)
{
    EXPECT_EQ(summarize({}).count, 0u);
    const Summary one = summarize({ 2.5 });
    EXPECT_DOUBLE_EQ(one.median, 2.5);
    EXPECT_DOUBLE_EQ(one.stddev, 0.0);
    EXPECT_DOUBLE_EQ(one.noisePercent, 0.0);
}

TEST(Statistics, DecimalGigabytesPerSecond)
{
    EXPECT_DOUBLE_EQ(gigabytesPerSecond(1e9, 1000.0), 1.0);
    EXPECT_NEAR(gigabytesPerSecond(64.0 * 1024 * 1024, 1.2223), 54.9, 0.01);
    EXPECT_DOUBLE_EQ(gigabytesPerSecond(1e9, 0.0), 0.0);
}

TEST(Statistics, SeriesLeavesWarmupOut)
{
    std::vector<RunResult> runs(4);
    for (int i = 0; i < 4; ++i) {
        runs[i].index = i;
        runs[i].warmup = i == 0;
        runs[i].gpuMs = i == 0 ? 100.0 : 2.0;
        runs[i].stagesTimed = true;
        runs[i].h2dMs = 1.0;
        runs[i].kernelMs = 0.1;
        runs[i].d2hMs = 0.9;
        runs[i].verified = i != 3;
    }
    const SeriesSummary s = summarizeRuns(runs, 1000000);
    EXPECT_EQ(s.measuredRuns, 3u);
    EXPECT_EQ(s.warmupRuns, 1u);
    EXPECT_EQ(s.verifiedRuns, 3u);
    EXPECT_DOUBLE_EQ(s.gpuMs.max, 2.0);
    ASSERT_TRUE(s.stagesTimed);
    EXPECT_DOUBLE_EQ(s.h2dGBps, 1.0);
    EXPECT_DOUBLE_EQ(s.kernelGBps, 20.0);
}

TEST(StopCondition, FixedStopsAtRunCount)
{
    PipelineConfig config;
    config.runs = 3;
    StopCondition stop(config);
    stop.add(1.0);
    stop.add(1.0);
    EXPECT_FALSE(stop.reached(0.0).has_value());
    stop.add(1.0);
    EXPECT_EQ(stop.reached(0.0), StopReason::RunCount);
}

TEST(StopCondition, NoiseNeedsRunsTimeAndLowNoise)
{
    PipelineConfig config;
    config.stopRule = StopRule::Noise;
    config.minRuns = 4;
    config.minGpuMs = 10.0;
    config.targetNoisePercent = 0.5;
    StopCondition stop(config);
    for (int i = 0; i < 4; ++i)
        stop.add(2.0);
    EXPECT_FALSE(stop.reached(0.0).has_value()) << "only 8 ms of GPU time";
    stop.add(2.0);
    EXPECT_EQ(stop.reached(0.0), StopReason::NoiseReached);
    EXPECT_DOUBLE_EQ(stop.noisePercent(), 0.0);
}

TEST(StopCondition, NoisySeriesRunsUntilTimeout)
{
    PipelineConfig config;
    config.stopRule = StopRule::Noise;
    config.minRuns = 2;
    config.minGpuMs = 0.0;
    config.timeoutS = 5.0;
    StopCondition stop(config);
    for (int i = 0; i < 50; ++i)  // fewer than the settle window: the noise cannot be called settled yet
        stop.add(i % 2 ? 1.0 : 3.0);
    EXPECT_GT(stop.noisePercent(), 40.0);
    EXPECT_FALSE(stop.reached(4.9).has_value());
    EXPECT_EQ(stop.reached(5.0), StopReason::Timeout);
}

TEST(StopCondition, SettledNoiseStopsAboveTheTarget)
{
    PipelineConfig config;
    config.stopRule = StopRule::Noise;
    config.minRuns = 10;
    config.minGpuMs = 0.0;
    config.targetNoisePercent = 0.5;
    StopCondition stop(config);
    int runs = 0;
    while (!stop.reached(0.0) && runs < 10000) {  // alternating 2.4 / 2.6 ms: noise settles near 4 %
        stop.add(runs % 2 ? 2.4 : 2.6);
        ++runs;
    }
    EXPECT_EQ(stop.reached(0.0), StopReason::NoiseSettled);
    EXPECT_NEAR(stop.noisePercent(), 4.0, 0.2);
    EXPECT_GE(runs, StopCondition::kSettleWindow);
    EXPECT_LT(runs, 10000);
}

TEST(StopCondition, OutlierDelaysButDoesNotPreventSettling)
{
    PipelineConfig config;
    config.stopRule = StopRule::Noise;
    config.minRuns = 10;
    config.minGpuMs = 0.0;
    StopCondition stop(config);
    stop.add(8.0);  // one slow run, then steady ones with 0.8 % jitter
    int runs = 1;
    while (!stop.reached(0.0) && runs < 100000) {
        stop.add(runs % 2 ? 2.48 : 2.52);
        ++runs;
    }
    ASSERT_TRUE(stop.reached(0.0).has_value());
    EXPECT_NE(stop.reached(0.0), StopReason::Timeout);
}
