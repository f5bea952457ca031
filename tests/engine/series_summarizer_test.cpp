#include "classic_runs.hpp"

#include "engine/model/series_summarizer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace asyncscope;

namespace {

// Equal where the arithmetic is the same (counts, min, max, median, p95, figures made from medians); within rounding
// where the summarizer keeps running sums and summarizeSeries() sums the sorted values (mean, stddev, noise).
void expectSameSummary(const SeriesSummary& grown, const SeriesSummary& whole)
{
    EXPECT_EQ(grown.measuredRuns, whole.measuredRuns);
    EXPECT_EQ(grown.warmupRuns, whole.warmupRuns);
    EXPECT_EQ(grown.verifiedRuns, whole.verifiedRuns);
    ASSERT_EQ(grown.distributions.size(), whole.distributions.size());
    for (std::size_t i = 0; i < whole.distributions.size(); ++i) {
        const Distribution& g = grown.distributions[i];
        const Distribution& w = whole.distributions[i];
        SCOPED_TRACE(w.key);
        EXPECT_EQ(g.key, w.key);
        EXPECT_EQ(g.stats.count, w.stats.count);
        EXPECT_EQ(g.stats.min, w.stats.min);
        EXPECT_EQ(g.stats.max, w.stats.max);
        EXPECT_EQ(g.stats.median, w.stats.median);
        EXPECT_EQ(g.stats.p95, w.stats.p95);
        const double scale = std::max(1.0, std::fabs(w.stats.mean));
        EXPECT_NEAR(g.stats.mean, w.stats.mean, 1e-12 * scale);
        EXPECT_NEAR(g.stats.stddev, w.stats.stddev, 1e-9 * std::max(1e-9, w.stats.stddev));
        EXPECT_NEAR(g.stats.noisePercent, w.stats.noisePercent, 1e-9 * std::max(1e-9, w.stats.noisePercent));
    }
    ASSERT_EQ(grown.figures.size(), whole.figures.size());
    for (std::size_t i = 0; i < whole.figures.size(); ++i) {
        SCOPED_TRACE(whole.figures[i].key);
        EXPECT_EQ(grown.figures[i].key, whole.figures[i].key);
        EXPECT_NEAR(grown.figures[i].value, whole.figures[i].value, 1e-9 * std::max(1.0, whole.figures[i].value));
    }
}

// A classic series with random times (heavy-tailed, as measured times are), random warm-ups among the first runs,
// and some unverified runs.
Report randomSeries(std::size_t runs, unsigned seed)
{
    Report report = asyncscope::testing::classicReport(runs);
    std::mt19937_64 random(seed);
    std::lognormal_distribution<double> time(0.9, 0.3);
    std::uniform_int_distribution<int> coin(0, 9);
    for (std::size_t i = 0; i < runs; ++i) {
        RunResult run = report.runs[i];
        run.gpuMs = time(random);
        run.pollIterations = std::uint64_t(1000 * time(random));
        run.warmup = i < 20 && coin(random) < 5;
        run.verified = coin(random) != 0;
        report.runs.set(i, run);
    }
    CopyPeak peak;
    peak.h2dGBps = 55.3;
    peak.d2hGBps = 55.1;
    peak.bidirectionalGBps = 97.0;
    report.peak = peak;
    return report;
}

// The summary of `report`, growing in batches of random sizes, compared after each batch.
void growInBatches(const Report& report, unsigned seed)
{
    SeriesSummarizer summarizer;
    summarizer.reset(report.config, report.peak);
    Report sofar = report;
    sofar.runs.clear();
    std::mt19937 random(seed);
    std::uniform_int_distribution<std::size_t> batch(1, 700);
    std::size_t i = 0;
    while (i < report.runs.size()) {
        const std::size_t end = std::min(report.runs.size(), i + batch(random));
        for (; i < end; ++i) {
            sofar.runs.push_back(report.runs[i]);
            summarizer.add(sofar.runs, sofar.runs.size() - 1);
        }
        expectSameSummary(summarizer.summary(), summarizeSeries(sofar));
        if (::testing::Test::HasFailure())
            return;
    }
    EXPECT_EQ(summarizer.runs(), report.runs.size());
}

}  // namespace

TEST(SeriesSummarizer, GrowsAsSummarizeSeriesOfTheSameRuns)
{
    for (unsigned seed = 1; seed <= 5; ++seed) {
        SCOPED_TRACE(seed);
        growInBatches(randomSeries(5000, seed), seed);
    }
}

TEST(SeriesSummarizer, WithoutCalibrationAndOnSeveralStreams)
{
    Report report = randomSeries(3000, 11);
    report.peak.reset();
    report.config.chunks = 4;
    report.config.streams = 2;  // no stage bandwidths
    growInBatches(report, 11);
}

TEST(SeriesSummarizer, AQuantitySomeRunLacksIsLeftOut)
{
    Report report = randomSeries(1000, 3);
    RunResult run = report.runs[500];
    run.warmup = false;
    run.spans.erase(std::remove_if(run.spans.begin(), run.spans.end(),
                        [](const Span& s) { return s.kind == SpanKind::Kernel; }),
        run.spans.end());
    report.runs.set(500, run);
    growInBatches(report, 3);

    SeriesSummarizer summarizer;
    summarizer.reset(report.config, report.peak);
    for (std::size_t i = 0; i < report.runs.size(); ++i)
        summarizer.add(report.runs, i);
    EXPECT_EQ(summarizer.summary().distribution("kernel_ms"), nullptr);
    EXPECT_EQ(summarizer.sorted("kernel_ms"), nullptr);
    ASSERT_NE(summarizer.sorted(keys::kGpuTime), nullptr);
    EXPECT_TRUE(std::is_sorted(summarizer.sorted(keys::kGpuTime)->begin(), summarizer.sorted(keys::kGpuTime)->end()));
}

TEST(SeriesSummarizer, WarmupsOnlyAndEmpty)
{
    SeriesSummarizer summarizer;
    EXPECT_EQ(summarizer.summary().measuredRuns, 0u);
    EXPECT_TRUE(summarizer.summary().distributions.empty());
    const Report report = asyncscope::testing::classicReport(1);  // its one run is a warm-up
    summarizer.reset(report.config);
    summarizer.add(report.runs, 0);
    expectSameSummary(summarizer.summary(), summarizeSeries(report));
    EXPECT_EQ(summarizer.summary().warmupRuns, 1u);
}

TEST(SeriesSummarizer, ACalibrationThatComesLaterAddsItsFigures)
{
    Report report = randomSeries(200, 7);
    SeriesSummarizer summarizer;
    summarizer.reset(report.config);
    for (std::size_t i = 0; i < report.runs.size(); ++i)
        summarizer.add(report.runs, i);
    EXPECT_EQ(summarizer.summary().figure("serial_bound_ms"), nullptr);
    summarizer.setPeak(report.peak);
    expectSameSummary(summarizer.summary(), summarizeSeries(report));
    EXPECT_NE(summarizer.summary().figure("serial_bound_ms"), nullptr);
}
