#include "engine/model/trace_records.hpp"

#include "engine/model/names.hpp"

#include <algorithm>
#include <array>
#include <tuple>
#include <unordered_set>

namespace asyncscope {

namespace {

bool issuedBefore(const TraceRecord& a, const TraceRecord& b)
{
    return std::tie(a.correlation, a.graphNode, a.start) < std::tie(b.correlation, b.graphNode, b.start);
}

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
    std::unordered_set<std::uint32_t> ids;
    for (const TraceRecord& r : records) {
        if (r.kind == SpanKind::Api && r.thread == window.thread && r.start >= window.fromNs &&
            r.start <= window.toNs) {
            run.calls.push_back(r);
            ids.insert(r.correlation);
        }
    }
    for (const TraceRecord& r : records) {
        if (!onGpu(r.kind) || r.device != window.device)
            continue;
        if (ids.count(r.correlation) != 0)
            run.operations.push_back(r);
        else
            ++run.unmatched;
    }
    std::sort(run.calls.begin(), run.calls.end(), issuedBefore);
    std::sort(run.operations.begin(), run.operations.end(), issuedBefore);
    return run;
}

std::vector<Span> tracedSpans(const RunRecords& run, int device, std::uint64_t fromNs,
    const std::vector<ChunkRange>& chunks, int streams)
{
    auto ms = [fromNs](std::uint64_t ns) { return (static_cast<double>(ns) - static_cast<double>(fromNs)) / 1e6; };
    const auto streamCount = static_cast<std::size_t>(std::max(1, streams));
    std::vector<Span> spans;
    spans.reserve(run.calls.size() + run.operations.size());
    std::array<std::size_t, 3> issued {};  // per GPU kind: how many were matched to chunks so far
    for (const TraceRecord& r : run.operations) {
        const std::size_t stage = r.kind == SpanKind::H2D ? 0 : r.kind == SpanKind::Kernel ? 1 : 2;
        const std::size_t chunk = issued[stage]++;
        if (chunk >= chunks.size() || r.end < r.start)
            continue;  // beyond the run's chunks, or a record CUPTI could not time: no span
        Span s;
        s.kind = r.kind;
        s.device = device;
        s.chunk = static_cast<int>(chunk);
        s.stream = static_cast<int>(chunk % streamCount);
        const std::uint64_t chunkBytes = chunks[chunk].count * sizeof(int);
        s.bytes = r.kind == SpanKind::Kernel ? 2 * chunkBytes : r.bytes;
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

}  // namespace asyncscope
