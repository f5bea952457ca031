// Which copies go in which cudaMemcpyBatchAsync call and where the kernels go, without a GPU: the one-chunk run, a
// shape whose streams hold different numbers of chunks in both issue orders, and what every shape keeps.
#include "engine/model/batch_order.hpp"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

using namespace asyncscope;

namespace {

using Step = std::tuple<int, int, std::vector<int>>;  // stage, stream, chunks

std::vector<Step> stepsOf(int chunks, int streams, IssueOrder order)
{
    std::vector<Step> steps;
    for (const BatchStep& s : batchOrder(chunks, streams, order))
        steps.emplace_back(s.stage, s.stream, s.chunks);
    return steps;
}

}  // namespace

TEST(BatchOrder, OneChunkIsACopyBatchAKernelAndABatchBack)
{
    for (IssueOrder order : { IssueOrder::ByChunk, IssueOrder::ByStage }) {
        const std::vector<Step> expected { { 0, 0, { 0 } }, { 1, 0, { 0 } }, { 2, 0, { 0 } } };
        EXPECT_EQ(stepsOf(1, 1, order), expected) << nameOf(order);
    }
    const auto steps = batchOrder(1, 1, IssueOrder::ByChunk);
    EXPECT_TRUE(steps[0].isCopy());
    EXPECT_FALSE(steps[1].isCopy());
    EXPECT_TRUE(steps[2].isCopy());
}

TEST(BatchOrder, ByChunkGoesStreamAfterStreamEachWithItsBatchesAroundItsKernels)
{
    // K = 7, S = 3: stream 0 holds chunks 0, 3, 6; stream 1 holds 1, 4; stream 2 holds 2, 5.
    const std::vector<Step> expected {
        { 0, 0, { 0, 3, 6 } }, { 1, 0, { 0 } }, { 1, 0, { 3 } }, { 1, 0, { 6 } }, { 2, 0, { 0, 3, 6 } },
        { 0, 1, { 1, 4 } }, { 1, 1, { 1 } }, { 1, 1, { 4 } }, { 2, 1, { 1, 4 } },
        { 0, 2, { 2, 5 } }, { 1, 2, { 2 } }, { 1, 2, { 5 } }, { 2, 2, { 2, 5 } },
    };
    EXPECT_EQ(stepsOf(7, 3, IssueOrder::ByChunk), expected);
}

TEST(BatchOrder, ByStageIssuesEveryH2DBatchThenEveryKernelInChunkOrderThenEveryD2HBatch)
{
    const std::vector<Step> expected {
        { 0, 0, { 0, 3, 6 } }, { 0, 1, { 1, 4 } }, { 0, 2, { 2, 5 } },
        { 1, 0, { 0 } }, { 1, 1, { 1 } }, { 1, 2, { 2 } }, { 1, 0, { 3 } }, { 1, 1, { 4 } }, { 1, 2, { 5 } },
        { 1, 0, { 6 } },
        { 2, 0, { 0, 3, 6 } }, { 2, 1, { 1, 4 } }, { 2, 2, { 2, 5 } },
    };
    EXPECT_EQ(stepsOf(7, 3, IssueOrder::ByStage), expected);
}

TEST(BatchOrder, EveryChunkIsCopiedOnceEachWayAndIncrementedOnceOnItsStreamBetweenItsBatches)
{
    for (IssueOrder order : { IssueOrder::ByChunk, IssueOrder::ByStage }) {
        for (auto [k, s] : { std::pair { 1, 1 }, std::pair { 2, 2 }, std::pair { 16, 4 }, std::pair { 64, 4 },
                 std::pair { 5, 4 }, std::pair { 4096, 1 } }) {
            const auto steps = batchOrder(k, s, order);
            ASSERT_EQ(steps.size(), static_cast<std::size_t>(2 * s + k)) << k << " " << s;
            std::map<std::pair<int, int>, int> seen;  // (stage, chunk) -> times
            std::map<int, int> stageOf;              // stream -> the stage of its last step
            for (const BatchStep& step : steps) {
                ASSERT_FALSE(step.chunks.empty());
                EXPECT_EQ(step.isCopy() ? step.chunks.size() : 1u, step.chunks.size());
                EXPECT_GE(step.stage, stageOf.count(step.stream) ? stageOf[step.stream] : 0)
                    << "a stream's kernels come after its H2D batch and before its D2H batch";
                stageOf[step.stream] = step.stage;
                for (int chunk : step.chunks) {
                    EXPECT_EQ(chunk % s, step.stream);
                    ++seen[{ step.stage, chunk }];
                }
            }
            EXPECT_EQ(seen.size(), static_cast<std::size_t>(3 * k));
            for (const auto& [what, times] : seen)
                EXPECT_EQ(times, 1) << "stage " << what.first << " chunk " << what.second;
        }
    }
}

TEST(BatchOrder, NoChunksOrNoStreamsGiveNoSteps)
{
    EXPECT_TRUE(batchOrder(0, 1, IssueOrder::ByChunk).empty());
    EXPECT_TRUE(batchOrder(4, 0, IssueOrder::ByStage).empty());
    EXPECT_EQ(batchOrder(2, 4, IssueOrder::ByStage).size(), 6u);  // two streams used, two without chunks
}
