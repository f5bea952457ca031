// A run's CUDA event times turned into spans, without a GPU: the classic one-stream pipeline, chunked shapes on
// several streams in both issue orders, runs without events between stages, runs without copies (kernels only), and
// times no run can give.
#include "engine/model/event_spans.hpp"

#include <gtest/gtest.h>

#include <cmath>
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
