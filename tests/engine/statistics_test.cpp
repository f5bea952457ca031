#include "engine/run/stop_condition.hpp"
#include "engine/model/big_vector.hpp"
#include "engine/model/series_summary.hpp"
#include "engine/model/statistics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>

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

// The selection summarize() uses against sorting: the same min, max, median and p95 to the bit, for odd and even
// counts, ties and heavy tails; the mean and stddev to rounding.
TEST(Statistics, SelectionAgreesWithSorting)
{
    std::mt19937_64 random(11);
    std::lognormal_distribution<double> heavy(0.9, 0.8);
    std::uniform_int_distribution<int> few(0, 4);
    for (std::size_t n : { 1u, 2u, 3u, 4u, 5u, 19u, 20u, 21u, 100u, 1001u, 4096u }) {
        for (const bool ties : { false, true }) {
            std::vector<double> values(n);
            for (double& v : values)
                v = ties ? double(few(random)) : heavy(random);
            std::vector<double> sorted = values;
            std::sort(sorted.begin(), sorted.end());
            const Summary s = summarize(values);
            SCOPED_TRACE(::testing::Message() << "n " << n << (ties ? " with ties" : ""));
            EXPECT_EQ(s.count, n);
            EXPECT_EQ(s.min, sorted.front());
            EXPECT_EQ(s.max, sorted.back());
            EXPECT_EQ(s.median, sortedMedian(sorted));
            EXPECT_EQ(s.p95, sortedPercentile(sorted, 0.95));
            const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(n);
            EXPECT_NEAR(s.mean, mean, 1e-12 * std::max(1.0, std::fabs(mean)));
        }
    }
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
    Report report;
    report.config.elements = 250000;  // 1 MB per copy
    for (int i = 0; i < 4; ++i) {
        RunResult run;
        run.index = i;
        run.warmup = i == 0;
        run.gpuMs = i == 0 ? 100.0 : 2.0;
        SerialDurations d;
        d.bytes = report.config.bytes();
        d.submitMs = 0.02;
        d.h2dMs = 1.0;
        d.kernelMs = 0.1;
        d.d2hMs = 0.9;
        run.spans = serialSpans(0, d);
        run.verified = i != 3;
        report.runs.push_back(run);
    }
    const SeriesSummary s = summarizeSeries(report);
    EXPECT_EQ(s.measuredRuns, 3u);
    EXPECT_EQ(s.warmupRuns, 1u);
    EXPECT_EQ(s.verifiedRuns, 3u);
    ASSERT_NE(s.distribution(keys::kGpuTime), nullptr);
    EXPECT_DOUBLE_EQ(s.distribution(keys::kGpuTime)->stats.max, 2.0);
    ASSERT_NE(s.distribution("h2d_ms"), nullptr);
    EXPECT_DOUBLE_EQ(s.value(keys::kH2dRate), 1.0);
    EXPECT_NEAR(s.value("kernel_effective_gbps"), 20.0, 1e-9);
    EXPECT_EQ(s.distribution("check_ms"), nullptr);  // no run has a check span
    EXPECT_EQ(s.figure("serial_bound_ms"), nullptr);  // no calibration
}

TEST(Statistics, SummaryIsNamedValuesWithKinds)
{
    Report report;
    report.peak = CopyPeak { 50.0, 50.0, 1, false };
    RunResult run;
    run.gpuMs = 3.0;
    run.spans = { { SpanKind::Submit, 0, 0, 0, 0, 0.0, 0.5 } };
    report.runs = { run, run };
    const SeriesSummary s = summarizeSeries(report);
    ASSERT_NE(s.distribution(keys::kCpuSubmit), nullptr);
    EXPECT_EQ(s.distribution(keys::kCpuSubmit)->kind, ValueKind::Duration);
    EXPECT_EQ(s.distribution(keys::kPolls)->kind, ValueKind::Count);
    EXPECT_EQ(s.figure("noise_percent")->kind, ValueKind::Percentage);
    EXPECT_EQ(s.distribution("h2d_ms"), nullptr);  // no stage spans: no stage rows, no rates
    EXPECT_EQ(s.figure(keys::kH2dRate), nullptr);
    EXPECT_EQ(s.figure("gpu_time_over_serial_bound")->kind, ValueKind::Ratio);
    EXPECT_DOUBLE_EQ(s.value("serial_bound_ms"), serialBoundMs(report.config.bytes(), *report.peak));
    EXPECT_EQ(headerOf("GPU time", ValueKind::Duration), "GPU time (ms)");
    EXPECT_EQ(headerOf("Poll iterations", ValueKind::Count), "Poll iterations");
    // A comparison's columns are every value any variant has, in order, without repeats.
    const std::vector<Column> columns = comparisonColumns({ s, s });
    EXPECT_EQ(columns.front().key, keys::kGpuTime);
    EXPECT_EQ(columns.size(), s.distributions.size() + s.figures.size());
    EXPECT_EQ(headlineValue(s, keys::kGpuTime), 3.0);
    EXPECT_FALSE(headlineValue(s, "no_such_value").has_value());
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

// sortValues agrees with std::sort on long ranges (the radix sort) and short ones, keeps what comes before `from`,
// and orders the awkward values: negatives, zeros of both signs, infinities, subnormals, repeats.
TEST(Statistics, SortValuesAgreesWithStdSort)
{
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> times(0.0, 5.0);
    for (std::size_t n : { std::size_t(0), std::size_t(1), std::size_t(100), std::size_t(4095), std::size_t(4096),
             std::size_t(100000) }) {
        std::vector<double> values(n);
        for (double& v : values)
            v = times(random);
        for (std::size_t i = 0; i + 7 < n; i += 97) {  // awkward values spread through
            values[i] = -times(random);
            values[i + 1] = 0.0;
            values[i + 2] = -0.0;
            values[i + 3] = std::numeric_limits<double>::infinity();
            values[i + 4] = -std::numeric_limits<double>::infinity();
            values[i + 5] = std::numeric_limits<double>::denorm_min();
            values[i + 6] = values[i / 2];
        }
        std::vector<double> expected = values;
        std::sort(expected.begin(), expected.end());
        sortValues(values);
        ASSERT_EQ(values.size(), expected.size());
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(values[i], expected[i]) << "n = " << n << ", at " << i;  // -0 == 0: either order is sorted
        EXPECT_TRUE(std::is_sorted(values.begin(), values.end()));
    }
    // Only the tail from `from` on is sorted; the head is left as it is.
    std::vector<double> partly { 9.0, 1.0, 5.0, 3.0, 2.0 };
    sortValues(partly, 2);
    EXPECT_EQ(partly, (std::vector<double> { 9.0, 1.0, 2.0, 3.0, 5.0 }));
    sortValues(partly, 99);  // past the end: nothing to do
    EXPECT_EQ(partly, (std::vector<double> { 9.0, 1.0, 2.0, 3.0, 5.0 }));
}

// Big columns are 2 MiB-aligned, whether or not this thread asks for huge pages; a scope asks for them while it lives,
// and scopes nest.
TEST(BigVector, BigColumnsAlignedAndHugePagesOnlyInAScope)
{
    EXPECT_FALSE(detail::tHugePages);
    {
        const HugePageScope outer;
        EXPECT_TRUE(detail::tHugePages);
        {
            const HugePageScope inner;
            EXPECT_TRUE(detail::tHugePages);
        }
        EXPECT_TRUE(detail::tHugePages);
        BigVector<double> column(kHugePageBytes / sizeof(double) + 1, 1.5);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(column.data()) % kHugePageBytes, 0u);
        EXPECT_EQ(column.back(), 1.5);
    }
    EXPECT_FALSE(detail::tHugePages);
    BigVector<int> small(100, 7);
    BigVector<int> big(kHugePageBytes, 3);  // outside a scope: aligned the same, small pages
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big.data()) % kHugePageBytes, 0u);
    big.swap(small);  // the allocator frees each the way it was made
    EXPECT_EQ(big.size(), 100u);
    EXPECT_EQ(small.size(), kHugePageBytes);
}
