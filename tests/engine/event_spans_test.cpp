// A run's CUDA event times turned into spans, without a GPU: the classic one-stream pipeline, chunked shapes on
// several streams in both issue orders, runs without events between stages, runs without copies (kernels only),
// times no run can give, and batch submission's one span per batch.
#include "engine/model/event_spans.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <limits>

using namespace asyncscope;

namespace {

EventTimes classic(std::vector<double> ends)
{
    EventTimes t;
    t.device = 2;
    t.streams = 1;
    t.chunks = chunkRanges(1024, 1);
    t.operationEndMs = std::move(ends);
    t.submitEndMs = 0.25;
    t.waitEndMs = 9.0;
    return t;
}

std::vector<Span> spansOf(const EventTimes& t)
{
    auto spans = eventSpans(t);
    EXPECT_TRUE(spans.ok()) << (spans.ok() ? "" : spans.error().message());
    return spans.ok() ? *spans : std::vector<Span> {};
}

const Span* find(const std::vector<Span>& spans, SpanKind kind, int chunk)
{
    for (const Span& s : spans) {
        if (s.kind == kind && s.chunk == chunk)
            return &s;
    }
    return nullptr;
}

EventTimes batched(std::size_t n, int chunks, int streams, IssueOrder order, std::vector<double> ends)
{
    EventTimes t = classic(std::move(ends));
    t.submission = Submission::Batch;
    t.chunks = chunkRanges(n, chunks);
    t.streams = streams;
    t.order = order;
    return t;
}

}  // namespace

TEST(EventSpans, ClassicRunIsThreeStagesEndToEndThenSubmitAndWait)
{
    const auto spans = spansOf(classic({ 2.0, 3.5, 6.0 }));
    ASSERT_EQ(spans.size(), 5u);
    const SpanKind kinds[] = { SpanKind::H2D, SpanKind::Kernel, SpanKind::D2H, SpanKind::Submit, SpanKind::Wait };
    for (std::size_t i = 0; i < spans.size(); ++i) {
        EXPECT_EQ(spans[i].kind, kinds[i]) << i;
        EXPECT_EQ(spans[i].device, 2) << i;
        EXPECT_EQ(spans[i].stream, 0) << i;
        EXPECT_EQ(spans[i].call, ApiCall::None) << i;
    }
    EXPECT_DOUBLE_EQ(spans[0].beginMs, 0.0);
    EXPECT_DOUBLE_EQ(spans[0].endMs, 2.0);
    EXPECT_DOUBLE_EQ(spans[1].beginMs, 2.0);
    EXPECT_DOUBLE_EQ(spans[1].endMs, 3.5);
    EXPECT_DOUBLE_EQ(spans[2].beginMs, 3.5);
    EXPECT_DOUBLE_EQ(spans[2].endMs, 6.0);
    EXPECT_EQ(spans[0].bytes, 1024u * sizeof(int));
    EXPECT_EQ(spans[1].bytes, 2 * 1024u * sizeof(int));  // a kernel reads and writes its chunk
    EXPECT_EQ(spans[2].bytes, 1024u * sizeof(int));
    EXPECT_DOUBLE_EQ(spans[3].beginMs, 0.0);
    EXPECT_DOUBLE_EQ(spans[3].endMs, 0.25);
    EXPECT_DOUBLE_EQ(spans[4].beginMs, 0.25);
    EXPECT_DOUBLE_EQ(spans[4].endMs, 9.0);
    EXPECT_EQ(spans[3].bytes, 0u);
}

TEST(EventSpans, WithoutStageEventsOnlyTheHostSpans)
{
    EventTimes t = classic({});
    t.chunks = chunkRanges(4096, 4);
    t.streams = 2;
    const auto spans = spansOf(t);
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(spans[0].kind, SpanKind::Submit);
    EXPECT_EQ(spans[1].kind, SpanKind::Wait);
    EXPECT_DOUBLE_EQ(spans[1].endMs, 9.0);
}

TEST(EventSpans, ChunksOnOneStreamFollowEachOtherWithCopiesQueuedByDirection)
{
    // K = 2, S = 1, by chunk: h2d0 k0 d2h0 h2d1 k1 d2h1, all on stream 0.
    EventTimes t = classic({ 1.0, 2.0, 3.0, 4.0, 5.0, 6.0 });
    t.chunks = chunkRanges(2048, 2);
    const auto spans = spansOf(t);
    ASSERT_EQ(spans.size(), 8u);
    const Span* h2d1 = find(spans, SpanKind::H2D, 1);
    ASSERT_NE(h2d1, nullptr);
    EXPECT_DOUBLE_EQ(h2d1->beginMs, 3.0);  // where d2h of chunk 0 ended on the same stream
    EXPECT_DOUBLE_EQ(h2d1->endMs, 4.0);
    EXPECT_EQ(h2d1->stream, 0);
    EXPECT_EQ(h2d1->bytes, t.chunks[1].count * sizeof(int));
}

TEST(EventSpans, ChunksSpreadRoundRobinOverStreams)
{
    // K = 4, S = 2, by chunk: chunks 0 and 2 on stream 0, 1 and 3 on stream 1. Times of operation 3c + stage.
    EventTimes t = classic({
        1.0, 2.0, 3.0,  // chunk 0
        2.0, 3.0, 4.0,  // chunk 1: its H2D queued behind chunk 0's
        4.0, 5.0, 6.0,  // chunk 2
        5.0, 6.0, 7.0,  // chunk 3
    });
    t.streams = 2;
    t.chunks = chunkRanges(4096, 4);
    const auto spans = spansOf(t);
    ASSERT_EQ(spans.size(), 14u);
    for (int chunk = 0; chunk < 4; ++chunk) {
        for (SpanKind kind : { SpanKind::H2D, SpanKind::Kernel, SpanKind::D2H }) {
            const Span* s = find(spans, kind, chunk);
            ASSERT_NE(s, nullptr) << chunk;
            EXPECT_EQ(s->stream, chunk % 2) << chunk;
            EXPECT_LE(s->beginMs, s->endMs) << chunk;
        }
    }
    // Chunk 1's H2D is its stream's first operation, but the H2D engine was busy with chunk 0's until 1.0.
    EXPECT_DOUBLE_EQ(find(spans, SpanKind::H2D, 1)->beginMs, 1.0);
    // Chunk 2's kernel begins where its H2D ended on stream 0; chunk 3's H2D where chunk 1's D2H ended on stream 1.
    EXPECT_DOUBLE_EQ(find(spans, SpanKind::Kernel, 2)->beginMs, 4.0);
    EXPECT_DOUBLE_EQ(find(spans, SpanKind::H2D, 3)->beginMs, 4.0);
    EXPECT_DOUBLE_EQ(find(spans, SpanKind::H2D, 2)->beginMs, 3.0);  // stream 0's D2H of chunk 0 ended at 3.0
}

TEST(EventSpans, IssueOrderByStageWalksStagesAcrossChunks)
{
    // K = 2, S = 1, by stage: h2d0 h2d1 k0 k1 d2h0 d2h1 on one stream; times still indexed 3c + stage.
    EventTimes t = classic({ 1.0, 3.0, 5.0, 2.0, 4.0, 6.0 });
    t.order = IssueOrder::ByStage;
    t.chunks = chunkRanges(2048, 2);
    const auto spans = spansOf(t);
    ASSERT_EQ(spans.size(), 8u);
    const SpanKind order[] = { SpanKind::H2D, SpanKind::H2D, SpanKind::Kernel, SpanKind::Kernel, SpanKind::D2H,
        SpanKind::D2H };
    for (std::size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(spans[i].kind, order[i]) << i;
        EXPECT_EQ(spans[i].chunk, static_cast<int>(i % 2)) << i;
    }
    EXPECT_DOUBLE_EQ(find(spans, SpanKind::Kernel, 0)->beginMs, 2.0);  // after chunk 1's H2D, on the same stream
    EXPECT_DOUBLE_EQ(find(spans, SpanKind::D2H, 0)->beginMs, 4.0);
}

TEST(EventSpans, NoChunksGiveTheHostSpansOnly)
{
    EventTimes t = classic({});
    t.chunks.clear();
    const auto spans = spansOf(t);
    EXPECT_EQ(spans.size(), 2u);
}

TEST(EventSpans, TimesThatNoRunGivesAreErrorsNamingTheOperation)
{
    auto failure = [](const EventTimes& t) {
        auto spans = eventSpans(t);
        EXPECT_FALSE(spans.ok());
        return spans.ok() ? std::string() : spans.error().message();
    };
    EXPECT_NE(failure(classic({ 1.0, 2.0 })).find("2 event times for a run of 3 operations"), std::string::npos);
    EXPECT_NE(failure(classic({ 1.0, 0.5, 2.0 })).find("kernel of chunk 0"), std::string::npos);
    EXPECT_NE(failure(classic({ -1.0, 0.5, 2.0 })).find("h2d of chunk 0"), std::string::npos);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_NE(failure(classic({ 1.0, 2.0, nan })).find("d2h of chunk 0"), std::string::npos);
    EXPECT_NE(failure(classic({ 1.0, 2.0, std::numeric_limits<double>::infinity() })).find("d2h"),
        std::string::npos);
    EventTimes noStreams = classic({ 1.0, 2.0, 3.0 });
    noStreams.streams = 0;
    EXPECT_NE(failure(noStreams).find("0 streams"), std::string::npos);
    EventTimes backwards = classic({ 1.0, 2.0, 3.0 });
    backwards.waitEndMs = 0.1;  // before submission ended
    EXPECT_NE(failure(backwards).find("host times"), std::string::npos);
    EXPECT_EQ(eventSpans(backwards).error().kind, ErrorKind::Cuda);
}

TEST(EventSpans, EqualTimesOnAStreamAreZeroLengthSpans)
{
    // Event times have a resolution of about half a microsecond: two operations may end at the same reading.
    const auto spans = spansOf(classic({ 1.0, 1.0, 2.0 }));
    ASSERT_EQ(spans.size(), 5u);
    EXPECT_DOUBLE_EQ(spans[1].ms(), 0.0);
}

TEST(EventSpans, RunsWithoutCopiesHaveKernelSpansOnly)
{
    // Mapped memory, or managed memory migrating on demand: K = 3, S = 2, one event time per chunk (its kernel).
    EventTimes t = classic({ 1.0, 1.5, 2.5 });
    t.copies = false;
    t.streams = 2;
    t.chunks = chunkRanges(3072, 3);
    const auto spans = spansOf(t);
    ASSERT_EQ(spans.size(), 5u);  // three kernels, submit, wait
    for (int chunk = 0; chunk < 3; ++chunk) {
        const Span& s = spans[static_cast<std::size_t>(chunk)];
        EXPECT_EQ(s.kind, SpanKind::Kernel) << chunk;
        EXPECT_EQ(s.chunk, chunk);
        EXPECT_EQ(s.stream, chunk % 2);
        EXPECT_EQ(s.bytes, 2 * t.chunks[static_cast<std::size_t>(chunk)].count * sizeof(int));
    }
    EXPECT_EQ(find(spans, SpanKind::H2D, 0), nullptr);
    EXPECT_EQ(find(spans, SpanKind::D2H, 0), nullptr);
    EXPECT_DOUBLE_EQ(spans[0].beginMs, 0.0);
    EXPECT_DOUBLE_EQ(spans[0].endMs, 1.0);
    EXPECT_DOUBLE_EQ(spans[1].beginMs, 0.0);  // stream 1's first operation
    EXPECT_DOUBLE_EQ(spans[1].endMs, 1.5);
    EXPECT_DOUBLE_EQ(spans[2].beginMs, 1.0);  // after chunk 0's kernel on stream 0
    EXPECT_DOUBLE_EQ(spans[2].endMs, 2.5);
    EXPECT_EQ(spans[3].kind, SpanKind::Submit);
    EXPECT_EQ(spans[4].kind, SpanKind::Wait);
}

TEST(EventSpans, RunsWithoutCopiesInEitherOrderAreTheKernelsInChunkOrder)
{
    for (IssueOrder order : { IssueOrder::ByChunk, IssueOrder::ByStage }) {
        EventTimes t = classic({ 2.0, 4.0 });
        t.copies = false;
        t.order = order;
        t.chunks = chunkRanges(2048, 2);
        const auto spans = spansOf(t);
        ASSERT_EQ(spans.size(), 4u) << nameOf(order);
        EXPECT_EQ(spans[0].chunk, 0);
        EXPECT_EQ(spans[1].chunk, 1);
        EXPECT_DOUBLE_EQ(spans[1].beginMs, 2.0) << nameOf(order);
        EXPECT_DOUBLE_EQ(spans[1].endMs, 4.0) << nameOf(order);
    }
}

TEST(EventSpans, RunsWithoutCopiesWantOneTimePerChunk)
{
    EventTimes threePerChunk = classic({ 1.0, 2.0, 3.0 });
    threePerChunk.copies = false;
    auto spans = eventSpans(threePerChunk);
    ASSERT_FALSE(spans.ok());
    EXPECT_EQ(spans.error().kind, ErrorKind::Cuda);
    EXPECT_NE(spans.error().message().find("3 event times for a run of 1 operations"), std::string::npos)
        << spans.error().message();
    EventTimes backwards = classic({ 2.0, 1.0 });
    backwards.copies = false;
    backwards.chunks = chunkRanges(2048, 2);
    spans = eventSpans(backwards);
    ASSERT_FALSE(spans.ok());
    EXPECT_NE(spans.error().message().find("kernel of chunk 1"), std::string::npos) << spans.error().message();
    EventTimes none = classic({});
    none.copies = false;
    EXPECT_EQ(spansOf(none).size(), 2u);  // no stage events: the host spans alone
}

TEST(EventSpans, ABatchedRunOfOneChunkIsTheClassicRun)
{
    const auto stream = spansOf(classic({ 2.0, 3.5, 6.0 }));
    const auto batch = spansOf(batched(1024, 1, 1, IssueOrder::ByChunk, { 2.0, 3.5, 6.0 }));
    ASSERT_EQ(batch.size(), stream.size());
    for (std::size_t i = 0; i < batch.size(); ++i) {
        EXPECT_EQ(batch[i].kind, stream[i].kind) << i;
        EXPECT_EQ(batch[i].bytes, stream[i].bytes) << i;
        EXPECT_DOUBLE_EQ(batch[i].beginMs, stream[i].beginMs) << i;
        EXPECT_DOUBLE_EQ(batch[i].endMs, stream[i].endMs) << i;
    }
}

TEST(EventSpans, EachBatchIsOneSpanWithItsCopiesBytesAndKernelsStayOnePerChunk)
{
    // K = 4, S = 2, by stage: H2D batches of streams 0 ({0, 2}) and 1 ({1, 3}), kernels 0 1 2 3, D2H batches of
    // streams 0 and 1. Times of the steps in that order.
    const EventTimes t = batched(4096, 4, 2, IssueOrder::ByStage, { 2.0, 4.0, 2.5, 4.5, 3.0, 5.0, 5.0, 7.0 });
    const auto spans = spansOf(t);
    ASSERT_EQ(spans.size(), 8u + 2u);
    const std::uint64_t chunkBytes = 1024 * sizeof(int);
    struct Expected {
        SpanKind kind;
        int stream, chunk;
        std::uint64_t bytes;
        double begin, end;
    };
    const Expected expected[] = {
        { SpanKind::H2D, 0, 0, 2 * chunkBytes, 0.0, 2.0 },
        { SpanKind::H2D, 1, 1, 2 * chunkBytes, 2.0, 4.0 },  // its stream's first, queued behind stream 0's batch
        { SpanKind::Kernel, 0, 0, 2 * chunkBytes, 2.0, 2.5 },
        { SpanKind::Kernel, 1, 1, 2 * chunkBytes, 4.0, 4.5 },
        { SpanKind::Kernel, 0, 2, 2 * chunkBytes, 2.5, 3.0 },
        { SpanKind::Kernel, 1, 3, 2 * chunkBytes, 4.5, 5.0 },
        { SpanKind::D2H, 0, 0, 2 * chunkBytes, 3.0, 5.0 },
        { SpanKind::D2H, 1, 1, 2 * chunkBytes, 5.0, 7.0 },
    };
    for (std::size_t i = 0; i < std::size(expected); ++i) {
        EXPECT_EQ(spans[i].kind, expected[i].kind) << i;
        EXPECT_EQ(spans[i].device, 2) << i;
        EXPECT_EQ(spans[i].stream, expected[i].stream) << i;
        EXPECT_EQ(spans[i].chunk, expected[i].chunk) << i;
        EXPECT_EQ(spans[i].bytes, expected[i].bytes) << i;
        EXPECT_DOUBLE_EQ(spans[i].beginMs, expected[i].begin) << i;
        EXPECT_DOUBLE_EQ(spans[i].endMs, expected[i].end) << i;
    }
    EXPECT_EQ(spans[8].kind, SpanKind::Submit);
    EXPECT_EQ(spans[9].kind, SpanKind::Wait);

    // What the summary sums stays that of the copies: every byte once each way, each moment of a batch once.
    RunResult run;
    run.spans = spans;
    EXPECT_EQ(run.totalBytes(SpanKind::H2D), 4 * chunkBytes);
    EXPECT_EQ(run.totalBytes(SpanKind::D2H), 4 * chunkBytes);
    EXPECT_EQ(run.totalBytes(SpanKind::Kernel), 2 * 4 * chunkBytes);
    EXPECT_DOUBLE_EQ(run.totalMs(SpanKind::H2D), 4.0);
    EXPECT_DOUBLE_EQ(run.totalMs(SpanKind::D2H), 4.0);
    EXPECT_DOUBLE_EQ(run.totalMs(SpanKind::Kernel), 2.0);
}

TEST(EventSpans, BatchedStreamsInChunkOrderFollowTheirOwnSteps)
{
    // K = 7, S = 3, by chunk, n = 1000003: stream 0's H2D batch, kernels 0 3 6, D2H batch; then stream 1's; then 2's.
    std::vector<double> ends;
    for (int i = 1; i <= 13; ++i)
        ends.push_back(0.5 * i);
    const EventTimes t = batched(1000003, 7, 3, IssueOrder::ByChunk, ends);
    const auto spans = spansOf(t);
    ASSERT_EQ(spans.size(), 13u + 2u);
    std::uint64_t h2d = 0, d2h = 0;
    int kernels = 0;
    for (std::size_t i = 0; i < 13; ++i) {
        EXPECT_LE(spans[i].beginMs, spans[i].endMs) << i;
        h2d += spans[i].kind == SpanKind::H2D ? spans[i].bytes : 0;
        d2h += spans[i].kind == SpanKind::D2H ? spans[i].bytes : 0;
        kernels += spans[i].kind == SpanKind::Kernel ? 1 : 0;
    }
    EXPECT_EQ(h2d, 1000003u * sizeof(int));
    EXPECT_EQ(d2h, 1000003u * sizeof(int));
    EXPECT_EQ(kernels, 7);
    std::uint64_t stream1 = 0;  // chunks 1 and 4
    for (int chunk : { 1, 4 })
        stream1 += t.chunks[std::size_t(chunk)].count * sizeof(int);
    EXPECT_EQ(spans[5].kind, SpanKind::H2D);
    EXPECT_EQ(spans[5].stream, 1);
    EXPECT_EQ(spans[5].bytes, stream1);
    EXPECT_DOUBLE_EQ(spans[5].beginMs, 0.5);  // stream 1 starts at 0, but the H2D engine was busy until 0.5
    EXPECT_EQ(spans[6].kind, SpanKind::Kernel);
    EXPECT_EQ(spans[6].chunk, 1);
    EXPECT_DOUBLE_EQ(spans[6].beginMs, 3.0);  // where its stream's H2D batch ended
}

TEST(EventSpans, BatchedRunsWithoutStageEventsHaveTheHostSpansOnly)
{
    const auto spans = spansOf(batched(4096, 16, 4, IssueOrder::ByChunk, {}));
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(spans[0].kind, SpanKind::Submit);
    EXPECT_DOUBLE_EQ(spans[1].endMs, 9.0);
}

TEST(EventSpans, BatchedTimesThatNoRunGivesAreErrorsNamingTheBatch)
{
    auto failure = [](const EventTimes& t) {
        auto spans = eventSpans(t);
        EXPECT_FALSE(spans.ok());
        if (!spans.ok()) {
            EXPECT_EQ(spans.error().kind, ErrorKind::Cuda);
        }
        return spans.ok() ? std::string() : spans.error().message();
    };
    // Three per chunk is a stream run's count, not a batched one's (2 × 2 batches + 4 kernels).
    const std::vector<double> twelve(12, 1.0);
    EXPECT_NE(failure(batched(4096, 4, 2, IssueOrder::ByChunk, twelve)).find("12 event times for a batched run of 8"),
        std::string::npos);
    // Stream 1's kernel ends before its H2D batch.
    EXPECT_NE(failure(batched(4096, 4, 2, IssueOrder::ByStage, { 2.0, 4.0, 2.5, 3.0, 3.0, 5.0, 5.0, 7.0 }))
                  .find("kernel of chunk 1"),
        std::string::npos);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_NE(failure(batched(4096, 4, 2, IssueOrder::ByStage, { 2.0, nan, 2.5, 4.5, 3.0, 5.0, 5.0, 7.0 }))
                  .find("h2d batch of stream 1"),
        std::string::npos);
    EventTimes backwards = batched(1024, 1, 1, IssueOrder::ByChunk, { 1.0, 2.0, 3.0 });
    backwards.waitEndMs = 0.1;
    EXPECT_NE(failure(backwards).find("host times"), std::string::npos);
    EventTimes noStreams = batched(1024, 1, 1, IssueOrder::ByChunk, { 1.0, 2.0, 3.0 });
    noStreams.streams = 0;
    EXPECT_NE(failure(noStreams).find("0 streams"), std::string::npos);
}
