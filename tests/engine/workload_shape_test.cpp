// The workload's shape without a GPU: chunk ranges, validation of chunks and streams, the overlap model, the overlap
// and submission comparisons and the speed-up they report.
#include "engine/model/overlap_model.hpp"
#include "engine/run/plan_runner.hpp"
#include "engine/run/plan_summary.hpp"

#include "fake_backend.hpp"

#include <gtest/gtest.h>

#include <numeric>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

struct ChunkCase {
    std::size_t n;
    int k;
};

class ChunkRanges : public ::testing::TestWithParam<ChunkCase> { };

}  // namespace

TEST_P(ChunkRanges, CoverEveryElementOnceWithKNonEmptyChunks)
{
    const auto [n, k] = GetParam();
    const auto ranges = chunkRanges(n, k);
    ASSERT_EQ(ranges.size(), static_cast<std::size_t>(k));
    std::size_t next = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        EXPECT_EQ(ranges[i].first, next) << "chunk " << i;
        EXPECT_GT(ranges[i].count, 0u) << "chunk " << i;
        if (i + 1 < ranges.size()) {  // only the last may be smaller
            EXPECT_GE(ranges[i].count, ranges.back().count) << "chunk " << i;
        }
        next += ranges[i].count;
    }
    EXPECT_EQ(next, n);
}

INSTANTIATE_TEST_SUITE_P(Sizes, ChunkRanges,
    ::testing::Values(ChunkCase { 1, 1 }, ChunkCase { 513, 1 }, ChunkCase { 513, 3 }, ChunkCase { 513, 16 },
        ChunkCase { 513, 64 }, ChunkCase { 64, 64 }, ChunkCase { 65, 64 }, ChunkCase { 16u << 20, 16 },
        ChunkCase { (std::size_t(1) << 29) + 3, 3 }, ChunkCase { (std::size_t(1) << 29) + 3, 64 },
        ChunkCase { 1000, 999 }, ChunkCase { 100000, 4096 }));

TEST(ChunkRanges, WholeChunksStartOn256ByteBoundariesWhereTheyCan)
{
    for (const ChunkRange& r : chunkRanges(16u << 20, 16)) {
        EXPECT_EQ(r.first * sizeof(int) % 256, 0u);
        EXPECT_EQ(r.count, 1u << 20);
    }
    const auto ranges = chunkRanges((std::size_t(1) << 29) + 3, 16);
    for (const ChunkRange& r : ranges)
        EXPECT_EQ(r.first * sizeof(int) % 256, 0u);
    EXPECT_LT(ranges.back().count, ranges.front().count);
}

TEST(ChunkRanges, MoreChunksThanElementsIsAUsageErrorThatSaysSo)
{
    PipelineConfig c;
    c.elements = 3;
    c.chunks = 16;
    c.streams = 4;
    const Status status = validate(c);
    ASSERT_TRUE(status.has_value());
    EXPECT_EQ(status->kind, ErrorKind::Usage);
    EXPECT_NE(status->message().find("16 chunks need at least 16 elements"), std::string::npos) << status->message();
    c.elements = 16;
    EXPECT_FALSE(validate(c).has_value());
}

// Four chunks on four streams, timed by events from the run's start: every copy's span began at 0, though the copy
// engine took them one at a time. Queued by direction, each copy begins where the one before it that way ended.
TEST(EventSpans, CopiesOneWayQueueOnTheirEngine)
{
    std::vector<Span> spans;
    for (int c = 0; c < 4; ++c) {
        const double h2dEnd = 1.0 + c;
        spans.push_back({ SpanKind::H2D, 0, c, c, 100, 0.0, h2dEnd });
        spans.push_back({ SpanKind::Kernel, 0, c, c, 200, h2dEnd, h2dEnd + 0.1 });
        spans.push_back({ SpanKind::D2H, 0, c, c, 100, h2dEnd + 0.1, h2dEnd + 1.5 });  // each overlaps the next
    }
    spans.push_back({ SpanKind::H2D, 1, 0, 0, 100, 0.0, 2.5 });  // another device's copy queues on its own engine
    queueCopiesByDirection(spans);
    for (int c = 0; c < 4; ++c) {
        const Span& h2d = spans[static_cast<std::size_t>(3 * c)];
        EXPECT_DOUBLE_EQ(h2d.beginMs, c == 0 ? 0.0 : c) << "chunk " << c;  // from the end of the H2D before it
        EXPECT_DOUBLE_EQ(h2d.endMs, 1.0 + c);
        const Span& kernel = spans[static_cast<std::size_t>(3 * c + 1)];
        EXPECT_DOUBLE_EQ(kernel.beginMs, 1.0 + c);  // kernels are left as they were
        const Span& d2h = spans[static_cast<std::size_t>(3 * c + 2)];
        EXPECT_DOUBLE_EQ(d2h.beginMs, c == 0 ? 1.1 : 1.5 + c) << "chunk " << c;
    }
    EXPECT_DOUBLE_EQ(spans.back().beginMs, 0.0);
    // A copy that ended before the one ahead of it by end time: its begin never passes its own end.
    std::vector<Span> odd { { SpanKind::H2D, 0, 0, 0, 1, 0.0, 3.0 }, { SpanKind::H2D, 0, 1, 1, 1, 2.9, 3.0 } };
    queueCopiesByDirection(odd);
    for (const Span& s : odd)
        EXPECT_LE(s.beginMs, s.endMs);
}

TEST(WorkloadShape, StreamsMustBeBetweenOneAndTheChunks)
{
    PipelineConfig c;
    c.chunks = 4;
    for (int streams : { 0, 5 }) {
        c.streams = streams;
        const Status status = validate(c);
        ASSERT_TRUE(status.has_value()) << streams;
        EXPECT_NE(status->message().find("streams must be between 1 and the chunk count (4)"), std::string::npos);
    }
    c.chunks = 0;
    c.streams = 1;
    ASSERT_TRUE(validate(c).has_value());
    c.chunks = kMaxChunks + 1;
    ASSERT_TRUE(validate(c).has_value());
}

TEST(WorkloadShape, ShapeTextIsEmptyForTheClassicPipeline)
{
    PipelineConfig c;
    EXPECT_EQ(shapeText(c), "");
    c.chunks = 16;
    c.streams = 4;
    c.submission = Submission::Graph;
    EXPECT_EQ(shapeText(c), "K = 16, S = 4, by chunk, graph");
    c.chunks = 1;
    c.streams = 1;
    EXPECT_EQ(shapeText(c), "K = 1, S = 1, graph");
}

TEST(OverlapModel, OneChunkOrOneStreamIsTheSerialBoundPlusTheKernel)
{
    const CopyPeak peak { 50.0, 25.0, 0, false, 60.0 };
    const std::size_t bytes = 100'000'000;  // 2 ms H2D, 4 ms D2H
    EXPECT_DOUBLE_EQ(overlapBoundMs(bytes, 1, 1, peak, 0.5), 6.5);
    EXPECT_DOUBLE_EQ(overlapBoundMs(bytes, 16, 1, peak, 0.5), 6.5);
    EXPECT_DOUBLE_EQ(overlapBoundMs(bytes, 1, 1, peak, 0.0), serialBoundMs(bytes, peak));
}

TEST(OverlapModel, ManyChunksApproachTheSharedBidirectionalPeak)
{
    const CopyPeak peak { 55.0, 55.0, 0, false, 100.0 };
    const std::size_t bytes = 64u << 20;
    const double serial = overlapBoundMs(bytes, 1, 1, peak, 0.0);
    double previous = serial;
    for (int k = 2; k <= 1024; k *= 2) {
        const double t = overlapBoundMs(bytes, k, 4, peak, 0.0);
        EXPECT_LT(t, previous) << k;
        previous = t;
    }
    const double both = 2.0 * double(bytes) / 100.0e6;  // both copies through 100 GB/s, in ms
    EXPECT_GT(previous, both);
    EXPECT_NEAR(previous, both, 0.01 * both);
    // Fill plus steady state: at K = 16 the first H2D and the last D2H run alone.
    const double chunk = double(bytes) / 16;
    EXPECT_DOUBLE_EQ(overlapBoundMs(bytes, 16, 4, peak, 0.0), 2 * chunk / 55.0e6 + 15 * 2 * chunk / 100.0e6);
}

TEST(OverlapModel, TheSlowestStageSetsTheStepAndUnknownPeaksGiveNoBound)
{
    const CopyPeak peak { 55.0, 55.0, 0, false, 100.0 };
    const std::size_t bytes = 64u << 20;
    // A kernel far slower than the copies: the pipeline moves at the kernel's pace.
    EXPECT_NEAR(overlapBoundMs(bytes, 16, 4, peak, 160.0), 160.0 + 2 * (bytes / 16.0) / 55.0e6, 1e-9);
    EXPECT_DOUBLE_EQ(overlapBoundMs(bytes, 16, 4, CopyPeak { 55.0, 55.0, 0, false, 0.0 }, 0.0), 0.0);
    EXPECT_DOUBLE_EQ(overlapBoundMs(bytes, 1, 1, CopyPeak {}, 0.0), 0.0);
}

TEST(OverlapComparison, ChunksAgainstStreamsAsFarAsTheSizeAllows)
{
    PipelineConfig c;
    const auto plan = comparisonPlan(Comparison::Overlap, c);
    ASSERT_TRUE(plan.ok()) << plan.error().message();
    std::vector<std::string> labels;
    for (const Variant& v : plan->variants) {
        labels.push_back(v.label);
        EXPECT_LE(v.config.streams, v.config.chunks);
    }
    const std::vector<std::string> expected { "K=1", "K=2 S=1", "K=2 S=2", "K=4 S=1", "K=4 S=2", "K=4 S=4",
        "K=8 S=1", "K=8 S=2", "K=8 S=4", "K=16 S=1", "K=16 S=2", "K=16 S=4", "K=32 S=1", "K=32 S=2", "K=32 S=4",
        "K=64 S=1", "K=64 S=2", "K=64 S=4" };
    EXPECT_EQ(labels, expected);

    c.elements = 5;  // no chunk count above the elements
    const auto tiny = comparisonPlan(Comparison::Overlap, c);
    ASSERT_TRUE(tiny.ok());
    EXPECT_EQ(tiny->variants.back().label, "K=4 S=4");
}

TEST(SubmissionComparison, StreamAgainstGraphAndBatchAtOneChunkAndAtTheChosenShape)
{
    PipelineConfig c;
    auto plan = comparisonPlan(Comparison::Submission, c);
    ASSERT_TRUE(plan.ok());
    ASSERT_EQ(plan->variants.size(), 3u);
    EXPECT_EQ(plan->variants[0].label, "stream K=1");
    EXPECT_EQ(plan->variants[1].label, "graph K=1");
    EXPECT_EQ(plan->variants[1].config.submission, Submission::Graph);
    EXPECT_EQ(plan->variants[2].label, "batch K=1");
    EXPECT_EQ(plan->variants[2].config.submission, Submission::Batch);

    c.chunks = 16;
    c.streams = 4;
    c.order = IssueOrder::ByStage;
    c.preferOverlap = true;
    plan = comparisonPlan(Comparison::Submission, c);
    ASSERT_TRUE(plan.ok());
    ASSERT_EQ(plan->variants.size(), 6u);
    EXPECT_EQ(plan->variants[4].label, "graph K=16 S=4");
    EXPECT_EQ(plan->variants[4].config.chunks, 16);
    EXPECT_EQ(plan->variants[4].config.order, IssueOrder::ByStage);
    EXPECT_EQ(plan->variants[0].config.chunks, 1);
    EXPECT_EQ(plan->variants[5].label, "batch K=16 S=4");
    EXPECT_EQ(plan->variants[5].config.submission, Submission::Batch);
    EXPECT_EQ(plan->variants[5].config.streams, 4);
    EXPECT_EQ(plan->variants[5].config.order, IssueOrder::ByStage);
    EXPECT_TRUE(plan->variants[5].config.preferOverlap);  // the base's batch option carries over
    for (const Variant& v : plan->variants)
        EXPECT_FALSE(checkCombination(v.config).has_value()) << v.label << ": pinned memory batches";
}

TEST(SubmissionComparison, BatchIsNotRunWhereTheMemoryHasNoCopiesAndTheOthersStillRun)
{
    FakeBackend backend;
    auto platform = backend.discover();
    ASSERT_TRUE(platform.ok());
    PipelineConfig c;
    c.device = 1;
    c.runs = 2;
    c.hostMemory = HostMemory::Mapped;
    const auto plan = comparisonPlan(Comparison::Submission, c);
    ASSERT_TRUE(plan.ok());
    std::atomic<bool> cancel { false };
    struct : PlanSink {
        void variantStarting(std::size_t, const VariantResult&) override { }
        void runAvailable(std::size_t, const RunResult&) override { }
        void variantEnded(std::size_t, const VariantResult&) override { }
        void calibrationFailed(const Error&) override { }
    } sink;
    const PlanReport report = runPlan(backend, *platform, *plan, cancel, sink);
    ASSERT_EQ(report.variants.size(), 3u);
    EXPECT_TRUE(report.variants[0].ran());
    EXPECT_TRUE(report.variants[1].ran());
    EXPECT_FALSE(report.variants[2].ran());
    ASSERT_TRUE(report.variants[2].notRun.has_value());
    EXPECT_EQ(report.variants[2].notRun->kind, ErrorKind::Unsupported);
    EXPECT_NE(report.notRunText().find("batch K=1"), std::string::npos);
}

TEST(OverlapComparison, WithBatchSubmissionEveryShapeRunsInBatches)
{
    FakeBackend backend;
    auto platform = backend.discover();
    ASSERT_TRUE(platform.ok());
    PipelineConfig c;
    c.device = 1;
    c.runs = 2;
    c.elements = 64;  // K up to 64: every shape, quickly
    c.submission = Submission::Batch;
    c.preferOverlap = true;
    const auto plan = comparisonPlan(Comparison::Overlap, c);
    ASSERT_TRUE(plan.ok());
    ASSERT_EQ(plan->variants.size(), 18u);
    for (const Variant& v : plan->variants) {
        EXPECT_EQ(v.config.submission, Submission::Batch) << v.label;
        EXPECT_TRUE(v.config.preferOverlap) << v.label;
    }
    std::atomic<bool> cancel { false };
    struct : PlanSink {
        void variantStarting(std::size_t, const VariantResult&) override { }
        void runAvailable(std::size_t, const RunResult&) override { }
        void variantEnded(std::size_t, const VariantResult&) override { }
        void calibrationFailed(const Error&) override { }
    } sink;
    const PlanReport report = runPlan(backend, *platform, *plan, cancel, sink);
    ASSERT_EQ(report.variants.size(), plan->variants.size());
    for (const VariantResult& v : report.variants) {
        EXPECT_TRUE(v.ran()) << v.label;
        EXPECT_EQ(v.report.config.submission, Submission::Batch) << v.label;
    }
    // Each shape's speed-up is over K = 1 submitted in batches too.
    const auto summaries = summarizePlan(report);
    for (std::size_t i = 0; i < summaries.size(); ++i) {
        ASSERT_NE(summaries[i].figure(keys::kSpeedup), nullptr) << i;
        EXPECT_DOUBLE_EQ(summaries[i].value(keys::kSpeedup),
            summaries[0].median(keys::kGpuTime) / summaries[i].median(keys::kGpuTime))
            << i;
    }
}

TEST(PlanSummary, ChunkedVariantsGetTheirSpeedUpOverOneChunkOfTheSameSubmission)
{
    FakeBackend backend;
    auto platform = backend.discover();
    ASSERT_TRUE(platform.ok());
    PipelineConfig c;
    c.device = 1;
    c.runs = 5;
    c.chunks = 16;
    c.streams = 4;
    const auto plan = comparisonPlan(Comparison::Submission, c);
    ASSERT_TRUE(plan.ok());
    std::atomic<bool> cancel { false };
    struct : PlanSink {
        void variantStarting(std::size_t, const VariantResult&) override { }
        void runAvailable(std::size_t, const RunResult&) override { }
        void variantEnded(std::size_t, const VariantResult&) override { }
        void calibrationFailed(const Error&) override { }
    } sink;
    const PlanReport report = runPlan(backend, *platform, *plan, cancel, sink);
    const auto summaries = summarizePlan(report);
    ASSERT_EQ(summaries.size(), 6u);  // stream, graph, batch at K = 1, then at K = 16 S = 4
    for (std::size_t i : { 0u, 1u, 2u }) {  // the baselines themselves: 1
        ASSERT_NE(summaries[i].figure(keys::kSpeedup), nullptr) << i;
        EXPECT_DOUBLE_EQ(summaries[i].value(keys::kSpeedup), 1.0);
    }
    for (std::size_t i : { 3u, 4u, 5u }) {
        const Figure* speedup = summaries[i].figure(keys::kSpeedup);
        ASSERT_NE(speedup, nullptr) << i;
        EXPECT_DOUBLE_EQ(speedup->value,
            summaries[i - 3].median(keys::kGpuTime) / summaries[i].median(keys::kGpuTime));
        EXPECT_GT(speedup->value, 1.0);
        ASSERT_NE(summaries[i].figure(keys::kModelled), nullptr);
    }
    // The graph's submit costs less than the stream calls', and the chunked stream calls cost more than one. A batch
    // per stream and direction costs less than a call per copy.
    EXPECT_LT(summaries[4].median(keys::kCpuSubmit), summaries[3].median(keys::kCpuSubmit));
    EXPECT_GT(summaries[3].median(keys::kCpuSubmit), summaries[0].median(keys::kCpuSubmit));
    EXPECT_LT(summaries[5].median(keys::kCpuSubmit), summaries[3].median(keys::kCpuSubmit));
    // With several streams the stage sums hold waits, so no stage bandwidth is claimed; the copy throughput is.
    EXPECT_EQ(summaries[3].figure(keys::kH2dRate), nullptr);
    EXPECT_EQ(summaries[5].figure(keys::kH2dRate), nullptr);
    EXPECT_NE(summaries[0].figure(keys::kH2dRate), nullptr);
    EXPECT_NE(summaries[2].figure(keys::kH2dRate), nullptr);
    EXPECT_NE(summaries[3].figure(keys::kCopyRate), nullptr);
    EXPECT_NE(summaries[5].figure(keys::kCopyRate), nullptr);
}
