#include "engine/model/trace_records.hpp"

#include "engine/model/correlation_matcher.hpp"
#include "engine/model/names.hpp"
#include "engine/model/operation_order.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <tuple>
#include <utility>

namespace asyncscope {

namespace {

constexpr SpanKind kStageKinds[kStages] = { SpanKind::H2D, SpanKind::Kernel, SpanKind::D2H };

bool issuedBefore(const TraceRecord& a, const TraceRecord& b)
{
    return std::tie(a.correlation, a.graphNode, a.start) < std::tie(b.correlation, b.graphNode, b.start);
}

// Whether `call` can have started a record of `kind`: anything else is no operation of the run's.
bool canStart(ApiCall call, SpanKind kind)
{
    switch (call) {
    case ApiCall::GraphLaunch: return true;
    case ApiCall::LaunchKernel: return kind == SpanKind::Kernel;
    case ApiCall::MemcpyAsync:
    case ApiCall::MemcpyBatchAsync:
    case ApiCall::MemPrefetchAsync: return kind == SpanKind::H2D || kind == SpanKind::D2H;
    default: return false;
    }
}

// Gives each operation, in issue order, its stage and chunk (see tracedSpans).
class ChunkMatcher {
public:
    explicit ChunkMatcher(std::size_t streams)
        : m_streams(streams)
    {
    }

    // The record's stage (0 H2D, 1 kernel, 2 D2H) and chunk.
    std::pair<std::size_t, std::size_t> match(const TraceRecord& r, ApiCall call)
    {
        std::size_t stage = r.kind == SpanKind::H2D ? 0 : r.kind == SpanKind::Kernel ? 1 : 2;
        if (r.kind == SpanKind::Kernel && r.smCopy)
            stage = m_issued[2] < m_issued[1] ? 2 : 0;  // a chunk's kernel waits for its D2H copy: this is it
        const std::uint64_t copies = std::max<std::uint64_t>(1, r.copies);
        if (call == ApiCall::MemcpyBatchAsync && stage != 1)
            return { stage, batchChunk(stage / 2, r.correlation, copies) };
        // Another record of the same call (of the same graph node, in a graph) is the same chunk's.
        Last& last = m_last[stage];
        const bool sameCall = last.known && last.correlation == r.correlation && last.graphNode == r.graphNode;
        if (sameCall && (call != ApiCall::GraphLaunch || r.graphNode != 0))
            return { stage, last.chunk };
        const std::size_t chunk = m_issued[stage];
        m_issued[stage] += copies;
        last = { true, r.correlation, r.graphNode, chunk };
        return { stage, chunk };
    }

private:
    // The next copy of the batch call `correlation` in `direction` (0 H2D, 1 D2H).
    std::size_t batchChunk(std::size_t direction, std::uint32_t correlation, std::uint64_t copies)
    {
        Batch& batch = m_batch[direction];
        if (!batch.known || batch.correlation != correlation)
            batch = { true, correlation, m_batches[direction]++, 0 };
        if (batch.stream >= m_streams)
            return std::numeric_limits<std::size_t>::max();  // more batches than streams: no chunk of the run's
        const std::size_t chunk = batch.stream + batch.copies * m_streams;
        batch.copies += copies;
        return chunk;
    }

    struct Last {
        bool known = false;
        std::uint32_t correlation = 0;
        std::uint64_t graphNode = 0;
        std::size_t chunk = 0;
    };
    struct Batch {
        bool known = false;
        std::uint32_t correlation = 0;
        std::size_t stream = 0;
        std::uint64_t copies = 0;
    };
    std::size_t m_streams;
    std::array<std::size_t, kStages> m_issued {};  // per stage: how many chunks were given so far
    std::array<Last, kStages> m_last {};
    std::array<Batch, 2> m_batch {};
    std::array<std::size_t, 2> m_batches {};  // per direction: how many batch calls so far
};

}  // namespace

ApiCall apiCallNamed(std::string name)
{
    name.erase(0, name.find_first_not_of('_'));
    name = name.substr(0, name.find("_v"));
    if (const auto perThread = name.find("_pt"); perThread != std::string::npos)
        name.erase(perThread);
    if (name == "cudaEventRecordWithFlags")
        return ApiCall::EventRecord;
    if (name == "cudaLaunchKernel" || name == "cudaLaunchKernelExC")
        return ApiCall::LaunchKernel;
    if (const auto call = parseName<ApiCall>(name); call && *call != ApiCall::None)
        return *call;
    return ApiCall::Other;
}

RunRecords runRecords(const std::vector<TraceRecord>& records, const TraceWindow& window)
{
    RunRecords run;
    CorrelationMatcher<ApiCall> calls;  // the records are the pipeline's own process's: all of pid 0
    for (const TraceRecord& r : records) {
        if (r.kind == SpanKind::Api && r.thread == window.thread && r.start >= window.fromNs &&
            r.start <= window.toNs) {
            run.calls.push_back(r);
            calls.issued(0, r.correlation, r.call);
        }
    }
    for (const TraceRecord& r : records) {
        if (!onGpu(r.kind) || r.device != window.device)
            continue;
        if (isMigration(r.kind)) {
            if (r.start >= window.fromNs && r.start <= window.toNs)
                run.migrations.push_back(r);
            continue;
        }
        const ApiCall* call = calls.issuerOf(0, r.correlation);
        if (call && canStart(*call, r.kind))
            run.operations.push_back(r);
        else
            ++run.unmatched;
    }
    std::sort(run.calls.begin(), run.calls.end(), issuedBefore);
    std::sort(run.operations.begin(), run.operations.end(), issuedBefore);
    std::sort(run.migrations.begin(), run.migrations.end(),
        [](const TraceRecord& a, const TraceRecord& b) { return a.start < b.start; });
    return run;
}

std::vector<Span> tracedSpans(const RunRecords& run, int device, std::uint64_t fromNs,
    const std::vector<ChunkRange>& chunks, int streams)
{
    auto ms = [fromNs](std::uint64_t ns) { return (static_cast<double>(ns) - static_cast<double>(fromNs)) / 1e6; };
    const auto streamCount = static_cast<std::size_t>(std::max(1, streams));
    CorrelationMatcher<ApiCall> calls;
    for (const TraceRecord& r : run.calls)
        calls.issued(0, r.correlation, r.call);
    std::vector<Span> spans;
    spans.reserve(run.calls.size() + run.operations.size() + run.migrations.size());
    ChunkMatcher matcher(streamCount);
    for (const TraceRecord& r : run.operations) {
        const ApiCall* call = calls.issuerOf(0, r.correlation);
        const auto [stage, chunk] = matcher.match(r, call ? *call : ApiCall::Other);
        if (chunk >= chunks.size() || r.end < r.start)
            continue;  // beyond the run's chunks, or a record CUPTI could not time: no span
        Span s;
        s.kind = kStageKinds[stage];
        s.device = device;
        s.chunk = static_cast<int>(chunk);
        s.stream = static_cast<int>(chunk % streamCount);
        const std::uint64_t chunkBytes = chunks[chunk].count * sizeof(int);
        s.bytes = stage == 1 ? 2 * chunkBytes : r.kind == SpanKind::Kernel ? chunkBytes : r.bytes;
        s.beginMs = ms(r.start);
        s.endMs = ms(r.end);
        spans.push_back(s);
    }
    for (const TraceRecord& r : run.migrations) {
        if (r.end < r.start)
            continue;
        Span s;
        s.kind = r.kind;
        s.device = device;
        s.bytes = r.bytes;
        s.beginMs = ms(r.start);
        s.endMs = ms(r.end);
        spans.push_back(s);
    }
    for (const TraceRecord& r : run.calls) {
        if (r.end < r.start)
            continue;
        Span s;
        s.kind = SpanKind::Api;
        s.device = device;
        s.call = r.call;
        s.beginMs = ms(r.start);
        s.endMs = ms(r.end);
        spans.push_back(s);
    }
    std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.beginMs < b.beginMs; });
    return spans;
}

std::size_t expectedOperations(const PipelineConfig& config, std::size_t chunks)
{
    return hasCopies(config) && !copiesArePrefetches(config) ? kStages * chunks : chunks;
}

}  // namespace asyncscope
