// Which CUPTI records are one run's and the spans they make, without CUPTI: runtime calls of the run's thread in the
// run's window, GPU operations matched to them by correlation id (a graph launch's operations all share its id),
// records out of order, records no call of the run started, records of another thread, device or run.
#include "engine/model/trace_records.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>

using namespace asyncscope;

namespace {

constexpr std::uint32_t kDevice = 1;
constexpr std::uint32_t kThread = 4242;
constexpr std::uint64_t kFrom = 1'000'000;  // ns
constexpr std::uint64_t kTo = 9'000'000;

TraceRecord call(ApiCall which, std::uint32_t correlation, std::uint64_t start, std::uint64_t end,
    std::uint32_t thread = kThread)
{
    TraceRecord r;
    r.kind = SpanKind::Api;
    r.call = which;
    r.thread = thread;
    r.correlation = correlation;
    r.start = start;
    r.end = end;
    return r;
}

TraceRecord gpu(SpanKind kind, std::uint32_t correlation, std::uint64_t start, std::uint64_t end,
    std::uint64_t graphNode = 0, std::uint32_t device = kDevice)
{
    TraceRecord r;
    r.kind = kind;
    r.device = device;
    r.correlation = correlation;
    r.graphNode = graphNode;
    r.bytes = kind == SpanKind::Kernel ? 0 : 4096;
    r.start = start;
    r.end = end;
    return r;
}

const TraceWindow kWindow { kDevice, kThread, kFrom, kTo };

// A classic stream run: memcpy, launch, memcpy, event record, in calls 10..13; the GPU work of 10..12.
std::vector<TraceRecord> classicRun()
{
    return { call(ApiCall::MemcpyAsync, 10, 1'100'000, 1'110'000),
        call(ApiCall::LaunchKernel, 11, 1'120'000, 1'125'000),
        call(ApiCall::MemcpyAsync, 12, 1'130'000, 1'140'000), call(ApiCall::EventRecord, 13, 1'150'000, 1'151'000),
        gpu(SpanKind::H2D, 10, 1'200'000, 2'200'000), gpu(SpanKind::Kernel, 11, 2'200'000, 2'700'000),
        gpu(SpanKind::D2H, 12, 2'700'000, 3'700'000) };
}

std::size_t countKind(const std::vector<Span>& spans, SpanKind kind)
{
    return static_cast<std::size_t>(
        std::count_if(spans.begin(), spans.end(), [kind](const Span& s) { return s.kind == kind; }));
}

}  // namespace

TEST(TraceRecords, ClassicRunMatchesEachOperationToTheCallThatStartedIt)
{
    const RunRecords run = runRecords(classicRun(), kWindow);
    ASSERT_EQ(run.calls.size(), 4u);
    ASSERT_EQ(run.operations.size(), 3u);
    EXPECT_EQ(run.unmatched, 0u);
    const auto spans = tracedSpans(run, 1, kFrom, chunkRanges(1024, 1), 1);
    ASSERT_EQ(spans.size(), 7u);
    EXPECT_TRUE(std::is_sorted(spans.begin(), spans.end(),
        [](const Span& a, const Span& b) { return a.beginMs < b.beginMs; }));
    EXPECT_EQ(spans.front().kind, SpanKind::Api);
    EXPECT_EQ(spans.front().call, ApiCall::MemcpyAsync);
    EXPECT_DOUBLE_EQ(spans.front().beginMs, 0.1);
    const Span& kernel =
        *std::find_if(spans.begin(), spans.end(), [](const Span& s) { return s.kind == SpanKind::Kernel; });
    EXPECT_DOUBLE_EQ(kernel.beginMs, 1.2);
    EXPECT_DOUBLE_EQ(kernel.endMs, 1.7);
    EXPECT_EQ(kernel.bytes, 2 * 1024 * sizeof(int));  // read plus written
    EXPECT_EQ(kernel.device, 1);
    const Span& h2d = *std::find_if(spans.begin(), spans.end(), [](const Span& s) { return s.kind == SpanKind::H2D; });
    EXPECT_EQ(h2d.bytes, 4096u);  // what CUPTI says the copy moved
}

TEST(TraceRecords, RecordsOutOfOrderAreMatchedToChunksInIssueOrder)
{
    // K = 4, S = 2: four H2D copies issued by calls 20, 23, 26, 29; CUPTI hands them back shuffled, and chunk 1's
    // copy (call 23) even began before chunk 0's (call 20) on the GPU.
    std::vector<TraceRecord> records { gpu(SpanKind::H2D, 29, 1'700'000, 1'800'000),
        gpu(SpanKind::H2D, 23, 1'100'000, 1'200'000), call(ApiCall::MemcpyAsync, 26, 1'030'000, 1'040'000),
        gpu(SpanKind::H2D, 26, 1'500'000, 1'600'000), call(ApiCall::MemcpyAsync, 20, 1'010'000, 1'020'000),
        gpu(SpanKind::H2D, 20, 1'300'000, 1'400'000), call(ApiCall::MemcpyAsync, 29, 1'040'000, 1'050'000),
        call(ApiCall::MemcpyAsync, 23, 1'020'000, 1'030'000) };
    const RunRecords run = runRecords(records, kWindow);
    ASSERT_EQ(run.operations.size(), 4u);
    for (std::size_t i = 1; i < run.operations.size(); ++i)
        EXPECT_LT(run.operations[i - 1].correlation, run.operations[i].correlation);
    const auto spans = tracedSpans(run, 1, kFrom, chunkRanges(4096, 4), 2);
    for (const Span& s : spans) {
        if (s.kind != SpanKind::H2D)
            continue;
        const int expectedChunk = s.beginMs < 0.2 ? 1 : s.beginMs < 0.4 ? 0 : s.beginMs < 0.6 ? 2 : 3;
        EXPECT_EQ(s.chunk, expectedChunk) << s.beginMs;
        EXPECT_EQ(s.stream, expectedChunk % 2) << s.beginMs;
    }
    EXPECT_EQ(countKind(spans, SpanKind::H2D), 4u);
}

TEST(TraceRecords, AGraphLaunchsOperationsShareItsIdAndFollowTheirGraphNodes)
{
    // One cudaGraphLaunch (id 50) started every operation of a K = 2 run; graph nodes number them as captured.
    std::vector<TraceRecord> records { call(ApiCall::GraphLaunch, 50, 1'010'000, 1'020'000),
        gpu(SpanKind::D2H, 50, 1'500'000, 1'600'000, 106), gpu(SpanKind::H2D, 50, 1'100'000, 1'200'000, 101),
        gpu(SpanKind::Kernel, 50, 1'200'000, 1'300'000, 102), gpu(SpanKind::H2D, 50, 1'200'000, 1'300'000, 104),
        gpu(SpanKind::Kernel, 50, 1'300'000, 1'400'000, 105), gpu(SpanKind::D2H, 50, 1'300'000, 1'400'000, 103) };
    const RunRecords run = runRecords(records, kWindow);
    ASSERT_EQ(run.calls.size(), 1u);
    ASSERT_EQ(run.operations.size(), 6u);
    EXPECT_EQ(run.unmatched, 0u);
    const auto spans = tracedSpans(run, 1, kFrom, chunkRanges(2048, 2), 1);
    ASSERT_EQ(spans.size(), 7u);
    for (const Span& s : spans) {
        if (s.kind == SpanKind::Api)
            continue;
        // Node 101..103 are chunk 0's H2D, kernel, D2H; 104..106 chunk 1's.
        const bool first = (s.kind == SpanKind::H2D && s.beginMs < 0.15) ||
            (s.kind == SpanKind::Kernel && s.beginMs < 0.25) || (s.kind == SpanKind::D2H && s.beginMs < 0.35);
        EXPECT_EQ(s.chunk, first ? 0 : 1) << nameOf(s.kind) << " at " << s.beginMs;
    }
}

TEST(TraceRecords, OperationsNoCallOfTheRunStartedAreLeftOutAndCounted)
{
    std::vector<TraceRecord> records = classicRun();
    records.push_back(gpu(SpanKind::Kernel, 99, 1'300'000, 1'400'000));  // another thread's launch, same device
    records.push_back(gpu(SpanKind::H2D, 7, 1'050'000, 1'090'000));      // a call before the window
    const RunRecords run = runRecords(records, kWindow);
    EXPECT_EQ(run.operations.size(), 3u);
    EXPECT_EQ(run.unmatched, 2u);
    const auto spans = tracedSpans(run, 1, kFrom, chunkRanges(1024, 1), 1);
    EXPECT_EQ(countKind(spans, SpanKind::Kernel), 1u);
    EXPECT_EQ(countKind(spans, SpanKind::H2D), 1u);
}

TEST(TraceRecords, CallsOfAnotherThreadOrOutsideTheWindowAreNotTheRuns)
{
    std::vector<TraceRecord> records = classicRun();
    records.push_back(call(ApiCall::MemcpyAsync, 5, 900'000, 950'000));          // the run before: before fromNs
    records.push_back(call(ApiCall::LaunchKernel, 60, 9'500'000, 9'600'000));    // after toNs
    records.push_back(call(ApiCall::LaunchKernel, 61, 1'500'000, 1'600'000, 7)); // another thread
    records.push_back(gpu(SpanKind::Kernel, 5, 1'000'000, 1'050'000));           // started by the run before
    records.push_back(gpu(SpanKind::Kernel, 61, 2'000'000, 2'100'000));          // started by the other thread
    const RunRecords run = runRecords(records, kWindow);
    EXPECT_EQ(run.calls.size(), 4u);
    EXPECT_EQ(run.operations.size(), 3u);
    EXPECT_EQ(run.unmatched, 2u);
    for (const TraceRecord& r : run.calls)
        EXPECT_GE(r.correlation, 10u);
}

TEST(TraceRecords, ACallStartedInTheWindowKeepsItsOperationsThatEndAfterIt)
{
    // The window closes when the wait ends; the GPU operations the run's calls started are the run's wherever they
    // lie, and a call that began at the window's last nanosecond is still in it.
    std::vector<TraceRecord> records { call(ApiCall::MemcpyAsync, 30, kTo, kTo + 10),
        gpu(SpanKind::D2H, 30, kTo + 50, kTo + 1'000'000) };
    const RunRecords run = runRecords(records, kWindow);
    EXPECT_EQ(run.calls.size(), 1u);
    EXPECT_EQ(run.operations.size(), 1u);
}

TEST(TraceRecords, OtherDevicesOperationsAreNeitherTheRunsNorUnmatched)
{
    std::vector<TraceRecord> records = classicRun();
    records.push_back(gpu(SpanKind::H2D, 10, 1'200'000, 2'200'000, 0, 3));
    const RunRecords run = runRecords(records, kWindow);
    EXPECT_EQ(run.operations.size(), 3u);
    EXPECT_EQ(run.unmatched, 0u);
}

TEST(TraceRecords, OddRecordsMakeNoSpans)
{
    std::vector<TraceRecord> records = classicRun();
    records.push_back(call(ApiCall::Other, 14, 1'160'000, 1'000));   // ends before it begins: untimed
    records.push_back(gpu(SpanKind::H2D, 12, 1'300'000, 1'350'000)); // a second H2D where the run has one chunk
    const RunRecords run = runRecords(records, kWindow);
    ASSERT_EQ(run.operations.size(), 4u);
    const auto spans = tracedSpans(run, 1, kFrom, chunkRanges(1024, 1), 1);
    EXPECT_EQ(countKind(spans, SpanKind::Api), 4u);
    EXPECT_EQ(countKind(spans, SpanKind::H2D), 1u);
    for (const Span& s : spans)
        EXPECT_GE(s.endMs, s.beginMs) << nameOf(s.kind);
    EXPECT_TRUE(tracedSpans(runRecords({}, kWindow), 1, kFrom, chunkRanges(1024, 1), 1).empty());
    // Zero streams is read as one.
    const auto oneStream = tracedSpans(runRecords(classicRun(), kWindow), 1, kFrom, chunkRanges(1024, 1), 0);
    for (const Span& s : oneStream)
        EXPECT_EQ(s.stream, 0);
}

TEST(TraceRecords, CallbackNamesAreTheCallsThePipelineMakes)
{
    EXPECT_EQ(apiCallNamed("cudaMemcpyAsync_v3020"), ApiCall::MemcpyAsync);
    EXPECT_EQ(apiCallNamed("cudaMemcpyAsync_ptsz_v7000"), ApiCall::MemcpyAsync);
    EXPECT_EQ(apiCallNamed("__cudaLaunchKernel_v13000"), ApiCall::LaunchKernel);
    EXPECT_EQ(apiCallNamed("cudaLaunchKernel_v7000"), ApiCall::LaunchKernel);
    EXPECT_EQ(apiCallNamed("cudaLaunchKernelExC_v11060"), ApiCall::LaunchKernel);
    EXPECT_EQ(apiCallNamed("cudaEventRecordWithFlags_v11010"), ApiCall::EventRecord);
    EXPECT_EQ(apiCallNamed("cudaEventRecord_ptsz_v7000"), ApiCall::EventRecord);
    EXPECT_EQ(apiCallNamed("cudaStreamWaitEvent_v3020"), ApiCall::StreamWaitEvent);
    EXPECT_EQ(apiCallNamed("cudaGraphLaunch_v10000"), ApiCall::GraphLaunch);
    EXPECT_EQ(apiCallNamed("cudaEventQuery_v3020"), ApiCall::EventQuery);
    EXPECT_EQ(apiCallNamed("cudaEventSynchronize_v3020"), ApiCall::EventSynchronize);
    EXPECT_EQ(apiCallNamed("cudaMalloc_v3020"), ApiCall::Other);
    EXPECT_EQ(apiCallNamed("none"), ApiCall::Other);  // the enum's own "no call" is no callback's name
    EXPECT_EQ(apiCallNamed(""), ApiCall::Other);
    EXPECT_EQ(apiCallNamed("____"), ApiCall::Other);
}

namespace {

TraceRecord smCopy(std::uint32_t correlation, std::uint64_t start, std::uint64_t end, std::uint64_t graphNode = 0)
{
    TraceRecord r = gpu(SpanKind::Kernel, correlation, start, end, graphNode);
    r.smCopy = true;
    return r;
}

TraceRecord copyOf(SpanKind kind, std::uint32_t correlation, std::uint64_t start, std::uint64_t bytes,
    std::uint64_t copies = 1)
{
    TraceRecord r = gpu(kind, correlation, start, start + 100'000);
    r.bytes = bytes;
    r.copies = copies;
    return r;
}

TraceRecord migration(SpanKind kind, std::uint64_t start, std::uint64_t end, std::uint64_t bytes,
    std::uint32_t device = kDevice)
{
    TraceRecord r;
    r.kind = kind;
    r.device = device;
    r.bytes = bytes;
    r.start = start;
    r.end = end;
    return r;
}

std::vector<Span> gpuSpansOf(const std::vector<Span>& spans)
{
    std::vector<Span> gpu;
    std::copy_if(spans.begin(), spans.end(), std::back_inserter(gpu), [](const Span& s) { return onGpu(s.kind); });
    return gpu;
}

// The one span of `kind` and `chunk`; fails the test where there is not exactly one.
Span only(const std::vector<Span>& spans, SpanKind kind, int chunk)
{
    std::vector<Span> found;
    std::copy_if(spans.begin(), spans.end(), std::back_inserter(found),
        [&](const Span& s) { return s.kind == kind && s.chunk == chunk; });
    EXPECT_EQ(found.size(), 1u) << nameOf(kind) << " #" << chunk;
    return found.empty() ? Span {} : found.front();
}

}  // namespace

TEST(TraceRecords, SmCopyKernelsAreTheirChunksCopiesIssuedByChunk)
{
    // K = 2, S = 2 by chunk: each chunk's SM copy in, increment kernel, SM copy out, launched by calls 10..15.
    std::vector<TraceRecord> records;
    for (std::uint32_t id = 10; id < 16; ++id)
        records.push_back(call(ApiCall::LaunchKernel, id, 1'000'000 + id * 1'000, 1'000'500 + id * 1'000));
    records.push_back(smCopy(10, 1'100'000, 1'200'000));
    records.push_back(gpu(SpanKind::Kernel, 11, 1'200'000, 1'300'000));
    records.push_back(smCopy(12, 1'300'000, 1'400'000));
    records.push_back(smCopy(13, 1'150'000, 1'250'000));  // chunk 1's, on the other stream, at once
    records.push_back(gpu(SpanKind::Kernel, 14, 1'250'000, 1'350'000));
    records.push_back(smCopy(15, 1'350'000, 1'450'000));
    const RunRecords run = runRecords(records, kWindow);
    ASSERT_EQ(run.operations.size(), 6u);
    const auto chunks = chunkRanges(2048, 2);
    const auto spans = gpuSpansOf(tracedSpans(run, 1, kFrom, chunks, 2));
    ASSERT_EQ(spans.size(), 6u);
    EXPECT_DOUBLE_EQ(only(spans, SpanKind::H2D, 0).beginMs, 0.1);
    EXPECT_DOUBLE_EQ(only(spans, SpanKind::D2H, 0).beginMs, 0.3);
    EXPECT_DOUBLE_EQ(only(spans, SpanKind::H2D, 1).beginMs, 0.15);
    EXPECT_DOUBLE_EQ(only(spans, SpanKind::D2H, 1).beginMs, 0.35);
    EXPECT_EQ(only(spans, SpanKind::H2D, 1).stream, 1);
    EXPECT_EQ(only(spans, SpanKind::H2D, 0).bytes, chunks[0].count * sizeof(int));  // the chunk's, one way
    EXPECT_EQ(only(spans, SpanKind::Kernel, 1).bytes, 2 * chunks[1].count * sizeof(int));
}

TEST(TraceRecords, SmCopyKernelsAreTheirChunksCopiesIssuedByStage)
{
    // K = 3 by stage, captured into a graph: SM copies in (nodes 1..3), kernels (4..6), SM copies out (7..9).
    std::vector<TraceRecord> records { call(ApiCall::GraphLaunch, 40, 1'010'000, 1'020'000) };
    for (std::uint64_t node = 1; node <= 9; ++node) {
        const std::uint64_t at = 1'000'000 + node * 100'000;
        records.push_back(node >= 4 && node <= 6 ? gpu(SpanKind::Kernel, 40, at, at + 90'000, node)
                                                 : smCopy(40, at, at + 90'000, node));
    }
    std::reverse(records.begin(), records.end());  // CUPTI's order is no guide
    const auto spans = gpuSpansOf(tracedSpans(runRecords(records, kWindow), 1, kFrom, chunkRanges(3000, 3), 1));
    ASSERT_EQ(spans.size(), 9u);
    for (int c = 0; c < 3; ++c) {
        EXPECT_DOUBLE_EQ(only(spans, SpanKind::H2D, c).beginMs, 0.1 * (c + 1));
        EXPECT_DOUBLE_EQ(only(spans, SpanKind::Kernel, c).beginMs, 0.1 * (c + 4));
        EXPECT_DOUBLE_EQ(only(spans, SpanKind::D2H, c).beginMs, 0.1 * (c + 7));
    }
}

TEST(TraceRecords, ABatchCallsCopiesAreItsStreamsChunks)
{
    // K = 4, S = 2: the H2D copies of stream 0 (chunks 0, 2) in batch call 20, of stream 1 (1, 3) in 21; kernels 22..25
    // by chunk; the D2H copies in batch calls 26 (stream 0) and 27 (stream 1). Each batch's copies by their start.
    std::vector<TraceRecord> records { call(ApiCall::MemcpyBatchAsync, 20, 1'010'000, 1'011'000),
        call(ApiCall::MemcpyBatchAsync, 21, 1'012'000, 1'013'000),
        call(ApiCall::MemcpyBatchAsync, 26, 1'030'000, 1'031'000),
        call(ApiCall::MemcpyBatchAsync, 27, 1'032'000, 1'033'000) };
    for (std::uint32_t id = 22; id < 26; ++id)
        records.push_back(call(ApiCall::LaunchKernel, id, 1'000'000 + id * 1'000, 1'000'500 + id * 1'000));
    records.push_back(copyOf(SpanKind::H2D, 20, 1'300'000, 1000));  // chunk 2
    records.push_back(copyOf(SpanKind::H2D, 20, 1'100'000, 1000));  // chunk 0
    records.push_back(copyOf(SpanKind::H2D, 21, 1'150'000, 1000));  // chunk 1
    records.push_back(copyOf(SpanKind::H2D, 21, 1'350'000, 1000));  // chunk 3
    for (std::uint32_t id = 22; id < 26; ++id)
        records.push_back(gpu(SpanKind::Kernel, id, 2'000'000 + id * 1'000, 2'000'500 + id * 1'000));
    records.push_back(copyOf(SpanKind::D2H, 27, 3'150'000, 1000));  // chunk 1
    records.push_back(copyOf(SpanKind::D2H, 26, 3'100'000, 1000));  // chunk 0
    records.push_back(copyOf(SpanKind::D2H, 26, 3'300'000, 1000));  // chunk 2
    records.push_back(copyOf(SpanKind::D2H, 27, 3'350'000, 1000));  // chunk 3
    const RunRecords run = runRecords(records, kWindow);
    EXPECT_EQ(run.unmatched, 0u);
    const auto spans = gpuSpansOf(tracedSpans(run, 1, kFrom, chunkRanges(4096, 4), 2));
    ASSERT_EQ(spans.size(), 12u);
    const double h2dAt[] = { 0.1, 0.15, 0.3, 0.35 };
    for (int c = 0; c < 4; ++c) {
        EXPECT_DOUBLE_EQ(only(spans, SpanKind::H2D, c).beginMs, h2dAt[c]) << c;
        EXPECT_EQ(only(spans, SpanKind::H2D, c).stream, c % 2);
        EXPECT_DOUBLE_EQ(only(spans, SpanKind::D2H, c).beginMs, h2dAt[c] + 2.0) << c;
        EXPECT_EQ(only(spans, SpanKind::D2H, c).stream, c % 2);
        EXPECT_EQ(only(spans, SpanKind::Kernel, c).stream, c % 2);
    }
}

TEST(TraceRecords, MergedBatchCopiesAreOneSpanAndTheNextCopyTheChunkAfterThem)
{
    // K = 3, S = 1, one batch call each way: the driver merged chunks 0 and 1's H2D copies into one record.
    std::vector<TraceRecord> records { call(ApiCall::MemcpyBatchAsync, 20, 1'010'000, 1'011'000),
        copyOf(SpanKind::H2D, 20, 1'100'000, 2000, 2), copyOf(SpanKind::H2D, 20, 1'300'000, 1000),
        copyOf(SpanKind::H2D, 20, 1'500'000, 1000) };  // one copy more than the run has chunks
    const auto spans = gpuSpansOf(tracedSpans(runRecords(records, kWindow), 1, kFrom, chunkRanges(3000, 3), 1));
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(only(spans, SpanKind::H2D, 0).bytes, 2000u);
    EXPECT_DOUBLE_EQ(only(spans, SpanKind::H2D, 2).beginMs, 0.3);
}

TEST(TraceRecords, MoreBatchCallsThanStreamsMakeNoSpans)
{
    std::vector<TraceRecord> records { call(ApiCall::MemcpyBatchAsync, 20, 1'010'000, 1'011'000),
        call(ApiCall::MemcpyBatchAsync, 21, 1'012'000, 1'013'000), copyOf(SpanKind::H2D, 20, 1'100'000, 1000),
        copyOf(SpanKind::H2D, 21, 1'300'000, 1000) };
    const auto spans = gpuSpansOf(tracedSpans(runRecords(records, kWindow), 1, kFrom, chunkRanges(2048, 2), 1));
    ASSERT_EQ(spans.size(), 1u);
    EXPECT_EQ(spans.front().chunk, 0);
}

TEST(TraceRecords, PrefetchesAreCopiesWhereCuptiSawThemSoAndMigrationsEitherWay)
{
    // K = 2 managed memory with prefetches: calls 10, 12 prefetch to the device, 11 and 13 launch, 14 and 15 prefetch
    // back. CUPTI saw the first prefetch as two copy records, and every prefetch as page migrations.
    std::vector<TraceRecord> records { call(ApiCall::MemPrefetchAsync, 10, 1'010'000, 1'011'000),
        call(ApiCall::LaunchKernel, 11, 1'012'000, 1'013'000),
        call(ApiCall::MemPrefetchAsync, 12, 1'014'000, 1'015'000), call(ApiCall::LaunchKernel, 13, 1'016'000, 1'017'000),
        call(ApiCall::MemPrefetchAsync, 14, 1'018'000, 1'019'000),
        call(ApiCall::MemPrefetchAsync, 15, 1'020'000, 1'021'000), copyOf(SpanKind::H2D, 10, 1'100'000, 600),
        copyOf(SpanKind::H2D, 10, 1'150'000, 400), gpu(SpanKind::Kernel, 11, 1'300'000, 1'400'000),
        gpu(SpanKind::Kernel, 13, 1'500'000, 1'600'000), migration(SpanKind::MigrateD2H, 1'700'000, 1'800'000, 2048),
        migration(SpanKind::MigrateH2D, 1'100'000, 1'200'000, 1024),
        migration(SpanKind::MigrateH2D, 1'200'000, 1'250'000, 1024) };
    const RunRecords run = runRecords(records, kWindow);
    EXPECT_EQ(run.operations.size(), 4u);
    ASSERT_EQ(run.migrations.size(), 3u);
    EXPECT_EQ(run.unmatched, 0u);
    const auto spans = gpuSpansOf(tracedSpans(run, 1, kFrom, chunkRanges(2048, 2), 1));
    EXPECT_EQ(countKind(spans, SpanKind::H2D), 2u);  // both of chunk 0: one call's records
    for (const Span& s : spans) {
        if (s.kind == SpanKind::H2D) {
            EXPECT_EQ(s.chunk, 0);
        }
    }
    EXPECT_EQ(only(spans, SpanKind::Kernel, 1).beginMs, 0.5);
    EXPECT_EQ(countKind(spans, SpanKind::MigrateH2D), 2u);
    EXPECT_EQ(countKind(spans, SpanKind::MigrateD2H), 1u);
    for (const Span& s : spans) {
        if (!isMigration(s.kind))
            continue;
        EXPECT_EQ(s.stream, 0);
        EXPECT_EQ(s.chunk, 0);
        EXPECT_EQ(s.bytes, s.kind == SpanKind::MigrateH2D ? 1024u : 2048u);
    }
    const auto d2h =
        *std::find_if(spans.begin(), spans.end(), [](const Span& s) { return s.kind == SpanKind::MigrateD2H; });
    EXPECT_DOUBLE_EQ(d2h.beginMs, 0.7);
    EXPECT_DOUBLE_EQ(d2h.endMs, 0.8);
}

TEST(TraceRecords, MigrationsOfAnotherDeviceOrMomentOrUntimedMakeNoSpans)
{
    std::vector<TraceRecord> records { call(ApiCall::LaunchKernel, 11, 1'012'000, 1'013'000),
        gpu(SpanKind::Kernel, 11, 1'300'000, 1'400'000), migration(SpanKind::MigrateH2D, 1'300'000, 1'310'000, 4096),
        migration(SpanKind::MigrateH2D, 1'300'000, 1'310'000, 4096, 2),   // another device's
        migration(SpanKind::MigrateD2H, kFrom - 10, kFrom + 10, 4096),     // began before the run
        migration(SpanKind::MigrateD2H, kTo + 10, kTo + 20, 4096),         // after its wait ended
        migration(SpanKind::MigrateD2H, 1'500'000, 1'400'000, 4096) };      // untimed
    const RunRecords run = runRecords(records, kWindow);
    EXPECT_EQ(run.migrations.size(), 2u);
    EXPECT_EQ(run.unmatched, 0u);  // no operations of another call: migrations have no call
    const auto spans = gpuSpansOf(tracedSpans(run, 1, kFrom, chunkRanges(1024, 1), 1));
    EXPECT_EQ(countKind(spans, SpanKind::MigrateH2D), 1u);
    EXPECT_EQ(countKind(spans, SpanKind::MigrateD2H), 0u);
    EXPECT_EQ(countKind(spans, SpanKind::Kernel), 1u);
}

TEST(TraceRecords, ARunWithoutCopiesHasItsKernelsOnly)
{
    // Mapped memory or managed memory on demand, K = 3, S = 3: the kernels alone.
    std::vector<TraceRecord> records;
    for (std::uint32_t id = 10; id < 13; ++id) {
        records.push_back(call(ApiCall::LaunchKernel, id, 1'000'000 + id * 1'000, 1'000'500 + id * 1'000));
        records.push_back(gpu(SpanKind::Kernel, id, 1'100'000 + id * 1'000, 1'200'000 + id * 1'000));
    }
    const auto spans = gpuSpansOf(tracedSpans(runRecords(records, kWindow), 1, kFrom, chunkRanges(3000, 3), 3));
    ASSERT_EQ(spans.size(), 3u);
    for (int c = 0; c < 3; ++c)
        EXPECT_EQ(only(spans, SpanKind::Kernel, c).stream, c);
}

TEST(TraceRecords, RecordsTheirCallCannotHaveStartedAreLeftOutAndCounted)
{
    std::vector<TraceRecord> records = classicRun();
    records.push_back(gpu(SpanKind::Kernel, 10, 1'300'000, 1'400'000));  // a kernel of a cudaMemcpyAsync call
    records.push_back(gpu(SpanKind::H2D, 11, 1'300'000, 1'400'000));     // a copy of a cudaLaunchKernel call
    records.push_back(gpu(SpanKind::D2H, 13, 1'300'000, 1'400'000));     // a copy of a cudaEventRecord call
    const RunRecords run = runRecords(records, kWindow);
    EXPECT_EQ(run.operations.size(), 3u);
    EXPECT_EQ(run.unmatched, 3u);
    const auto spans = gpuSpansOf(tracedSpans(run, 1, kFrom, chunkRanges(1024, 1), 1));
    EXPECT_EQ(spans.size(), 3u);
}

TEST(TraceRecords, AnSmCopyWithoutAChunkMakesNoSpan)
{
    // One chunk, but three SM copies: the third has no chunk left to be (neither an H2D nor a D2H copy).
    std::vector<TraceRecord> records;
    for (std::uint32_t id = 10; id < 14; ++id)
        records.push_back(call(ApiCall::LaunchKernel, id, 1'000'000 + id * 1'000, 1'000'500 + id * 1'000));
    records.push_back(smCopy(10, 1'100'000, 1'200'000));
    records.push_back(gpu(SpanKind::Kernel, 11, 1'200'000, 1'300'000));
    records.push_back(smCopy(12, 1'300'000, 1'400'000));
    records.push_back(smCopy(13, 1'400'000, 1'500'000));
    const auto spans = gpuSpansOf(tracedSpans(runRecords(records, kWindow), 1, kFrom, chunkRanges(1024, 1), 1));
    EXPECT_EQ(spans.size(), 3u);
    EXPECT_EQ(countKind(spans, SpanKind::H2D), 1u);
    EXPECT_EQ(countKind(spans, SpanKind::D2H), 1u);
}

TEST(TraceRecords, TheNewCallsAreNamed)
{
    EXPECT_EQ(apiCallNamed("cudaMemcpyBatchAsync_v12080"), ApiCall::MemcpyBatchAsync);
    EXPECT_EQ(apiCallNamed("cudaMemcpyBatchAsync_ptsz_v13000"), ApiCall::MemcpyBatchAsync);
    EXPECT_EQ(apiCallNamed("cudaMemPrefetchAsync_v12020"), ApiCall::MemPrefetchAsync);
    EXPECT_EQ(apiCallNamed("cudaMemPrefetchAsync_ptsz_v8000"), ApiCall::MemPrefetchAsync);
    EXPECT_EQ(apiCallNamed("cudaMemPrefetchBatchAsync_v13000"), ApiCall::Other);
    EXPECT_EQ(parseName<SpanKind>("migrate-h2d"), SpanKind::MigrateH2D);
    EXPECT_EQ(parseName<SpanKind>("migrate-d2h"), SpanKind::MigrateD2H);
    EXPECT_TRUE(onGpu(SpanKind::MigrateH2D));
    EXPECT_FALSE(isMigration(SpanKind::H2D));
}

TEST(TraceRecords, ExpectedOperationsFollowTheCopies)
{
    PipelineConfig c;
    EXPECT_EQ(expectedOperations(c, 4), 12u);
    c.copy = CopyMechanism::Sm;
    EXPECT_EQ(expectedOperations(c, 4), 12u);  // SM copies are kernels: records all the same
    c.copy = CopyMechanism::CopyEngine;
    c.submission = Submission::Batch;
    EXPECT_EQ(expectedOperations(c, 4), 12u);
    c.submission = Submission::Stream;
    c.hostMemory = HostMemory::Mapped;
    EXPECT_EQ(expectedOperations(c, 4), 4u);
    c.hostMemory = HostMemory::Managed;
    c.managedMigration = ManagedMigration::OnDemand;
    EXPECT_EQ(expectedOperations(c, 4), 4u);
    c.managedMigration = ManagedMigration::Prefetch;
    EXPECT_EQ(expectedOperations(c, 4), 4u);  // prefetches may leave page migrations only
}

TEST(TraceRecords, RecordsOfOneGraphNodeAreOneChunks)
{
    // K = 2 prefetches captured into a graph: node 1 (chunk 0's prefetch in) left two copy records, node 4 (chunk
    // 1's) one. Records of a graph launch without node ids are each a chunk of their own.
    std::vector<TraceRecord> records { call(ApiCall::GraphLaunch, 50, 1'010'000, 1'020'000),
        gpu(SpanKind::H2D, 50, 1'100'000, 1'150'000, 1), gpu(SpanKind::H2D, 50, 1'150'000, 1'200'000, 1),
        gpu(SpanKind::H2D, 50, 1'400'000, 1'500'000, 4) };
    auto spans = gpuSpansOf(tracedSpans(runRecords(records, kWindow), 1, kFrom, chunkRanges(2048, 2), 1));
    ASSERT_EQ(spans.size(), 3u);
    EXPECT_EQ(spans[0].chunk, 0);
    EXPECT_EQ(spans[1].chunk, 0);
    EXPECT_EQ(spans[2].chunk, 1);
    for (TraceRecord& r : records)
        r.graphNode = 0;
    spans = gpuSpansOf(tracedSpans(runRecords(records, kWindow), 1, kFrom, chunkRanges(2048, 2), 1));
    ASSERT_EQ(spans.size(), 2u);  // the third record has no chunk left
    EXPECT_EQ(spans[0].chunk, 0);
    EXPECT_EQ(spans[1].chunk, 1);
}
