// The overlap model with the calibration's operation costs: what a chunk's operations pay beyond their bytes, what a
// stream's order allows, what the CPU's submission allows, and the shape the model has fastest.
#include "engine/model/overlap_model.hpp"

#include <gtest/gtest.h>

using namespace asyncscope;

namespace {

// 1 GB at 50 GB/s each way (20 ms), both ways at once at 100 GB/s (20 ms for the two), no kernel.
CopyPeak roundPeak(OperationCosts costs = {})
{
    CopyPeak p { 50.0, 50.0, 0, false, 100.0 };
    p.costs = costs;
    return p;
}
constexpr std::size_t kBytes = 1'000'000'000;

}  // namespace

TEST(OverlapModel, EachChunksOperationPaysItsFixedCostOnce)
{
    OperationCosts costs;
    costs.copyUs = 100.0;  // 0.1 ms a copy
    // Ten chunks over four streams: a chunk's copy in and out take 0.1 + 2 ms each, as do its two copies through the
    // shared link; the fill is one chunk's 4.2 ms, then nine steps of 2.1 ms.
    EXPECT_NEAR(modelledMs(kBytes, 10, 4, Submission::Graph, roundPeak(costs), 0.0), 4.2 + 9 * 2.1, 1e-9);
    // The bound charges no fixed cost: 4 + 9 × 2 ms.
    EXPECT_NEAR(overlapBoundMs(kBytes, 10, 4, roundPeak(costs), 0.0), 22.0, 1e-9);
    // One stream: every operation after the one before, each paying its cost.
    EXPECT_NEAR(modelledMs(kBytes, 10, 1, Submission::Graph, roundPeak(costs), 0.0), 40.0 + 20 * 0.1, 1e-9);
}

TEST(OverlapModel, TwoStreamsHoldOnlyTwoChunksInFlight)
{
    // A kernel as long as each copy: with three stages, two streams keep two of them busy, three keep all three.
    const CopyPeak peak = roundPeak();
    const double two = overlapBoundMs(kBytes, 16, 2, peak, 20.0);
    const double three = overlapBoundMs(kBytes, 16, 3, peak, 20.0);
    const double four = overlapBoundMs(kBytes, 16, 4, peak, 20.0);
    EXPECT_NEAR(two, 3.75 + 15 * 3.75 / 2, 1e-9);  // a chunk's three 1.25 ms operations over two streams
    EXPECT_NEAR(three, 3.75 + 15 * 1.25, 1e-9);
    EXPECT_DOUBLE_EQ(three, four);
    EXPECT_GT(two, 1.4 * three);
}

TEST(OverlapModel, StreamSubmissionIsNoFasterThanTheCpuSubmits)
{
    OperationCosts costs;
    costs.callUs = 50.0;  // a slow CPU: 64 chunks × 3 calls take 9.6 ms
    const CopyPeak peak = roundPeak(costs);
    const double graph = modelledMs(kBytes, 64, 4, Submission::Graph, peak, 0.0);
    const double stream = modelledMs(kBytes, 64, 4, Submission::Stream, peak, 0.0);
    EXPECT_NEAR(graph, overlapBoundMs(kBytes, 64, 4, peak, 0.0), 1e-9);  // no fixed GPU cost given
    EXPECT_DOUBLE_EQ(stream, graph);  // the GPU's 20.6 ms outlast the CPU's 9.6 ms
    costs.callUs = 200.0;  // 38.4 ms of calls, then the last chunk's copy out
    EXPECT_NEAR(modelledMs(kBytes, 64, 4, Submission::Stream, roundPeak(costs), 0.0), 38.4 + 20.0 / 64, 1e-9);
    EXPECT_NEAR(modelledMs(kBytes, 64, 4, Submission::Graph, roundPeak(costs), 0.0), graph, 1e-9);
}

TEST(OverlapModel, TheKernelComesFromTheSeriesElseFromTheCalibration)
{
    OperationCosts costs;
    costs.launchUs = 10.0;
    costs.kernelGBps = 1000.0;  // 1 GB in 1 ms
    const CopyPeak peak = roundPeak(costs);
    EXPECT_NEAR(pipelineStages(kBytes, peak, 0.0).kernelMs, 1.01, 1e-12);
    EXPECT_NEAR(pipelineStages(kBytes, peak, 3.0).kernelMs, 3.0, 1e-12);
    EXPECT_DOUBLE_EQ(pipelineStages(kBytes, roundPeak(), 0.0).kernelMs, 0.0);
    // Sixteen chunks' kernels took 3.15 ms in all: the whole buffer's is that less fifteen launches.
    EXPECT_NEAR(wholeKernelMs(3.15, 16, costs), 3.0, 1e-12);
    EXPECT_DOUBLE_EQ(wholeKernelMs(3.15, 1, costs), 3.15);
    EXPECT_DOUBLE_EQ(wholeKernelMs(0.0, 16, costs), 0.0);
}

TEST(OverlapModel, AChunksOperationsOneAfterAnotherCostWhatTheirChainWasMeasuredToCost)
{
    // Stages of 10 ms each way and a 1 ms kernel, in 4 chunks: 2.5 + 0.25 + 2.5 ms of work a chunk.
    StageTimes whole;
    whole.h2dMs = 10.0;
    whole.kernelMs = 1.0;
    whole.d2hMs = 10.0;
    OperationCosts costs;
    costs.copyUs = 100.0;
    costs.launchUs = 50.0;  // back to back: 250 µs a chunk of fixed cost
    const double backToBack = chunkedMs(whole, 4, 1, costs);
    EXPECT_NEAR(backToBack, 4.0 * (0.1 + 9.9 / 4 + 0.05 + 0.95 / 4 + 0.1 + 9.9 / 4), 1e-9);
    costs.chainUs = 1000.0;  // one after the other on a stream: 1 ms a chunk
    EXPECT_NEAR(chunkedMs(whole, 4, 1, costs), 4.0 * (9.9 / 4 + 0.95 / 4 + 9.9 / 4 + 1.0), 1e-9);
    // Over four streams the chain is each stream's, once its chunk fills the pipeline.
    EXPECT_GT(chunkedMs(whole, 4, 4, costs), chunkedMs(whole, 4, 4, OperationCosts { 100.0, 50.0, 0.0, 0.0, 0.0 }));
    // A chain cheaper than the three back to back changes nothing; a stage missing, and it is not the chain timed.
    costs.chainUs = 10.0;
    EXPECT_DOUBLE_EQ(chunkedMs(whole, 4, 1, costs), backToBack);
    whole.kernelMs = 0.0;
    costs.chainUs = 0.0;
    const double noKernel = chunkedMs(whole, 4, 1, costs);
    costs.chainUs = 1000.0;
    EXPECT_DOUBLE_EQ(chunkedMs(whole, 4, 1, costs), noKernel);
}

TEST(OverlapModel, TheFastestShapeBalancesTheLinkAgainstTheOperationsCosts)
{
    // Without fixed costs more chunks always help a little; with them the model stops where a chunk's cost outweighs
    // the shorter fill.
    OperationCosts costs;
    costs.copyUs = 20.0;
    costs.launchUs = 5.0;
    const CopyPeak peak = roundPeak(costs);
    const auto best = bestModelledShape(std::size_t(64) << 20, std::size_t(16) << 20, Submission::Graph, peak, 0.0,
        kModelMaxChunks, kModelMaxStreams);
    ASSERT_TRUE(best);
    EXPECT_GT(best->chunks, 1);
    EXPECT_LT(best->chunks, kModelMaxChunks);
    EXPECT_GE(best->streams, 2);
    const double atBest = modelledMs(std::size_t(64) << 20, best->chunks, best->streams, Submission::Graph, peak, 0.0);
    EXPECT_DOUBLE_EQ(best->ms, atBest);
    for (int k = 1; k <= kModelMaxChunks; k *= 2) {
        for (int s = 1; s <= std::min(k, kModelMaxStreams); ++s)
            EXPECT_GE(modelledMs(std::size_t(64) << 20, k, s, Submission::Graph, peak, 0.0), 0.99 * atBest) << k << s;
    }
    // Streams the model times alike: the most of them (here every count from 2 on keeps the engines busy).
    EXPECT_EQ(best->streams, std::min(best->chunks, kModelMaxStreams));
}
