#include "engine/model/overlap_model.hpp"

#include <algorithm>

namespace asyncscope {

double chunkedMs(const StageTimes& whole, int chunks, int streams, const OperationCosts& costs)
{
    if (chunks < 1 || streams < 1)
        return 0.0;
    const double k = chunks;
    const double copyMs = std::max(0.0, costs.copyUs) / 1e3, launchMs = std::max(0.0, costs.launchUs) / 1e3;
    // A stage of the whole iteration holds one operation's fixed cost: a chunk's holds it too, and a share of the rest.
    const auto share = [k](double stage, double fixed) {
        return stage <= 0.0 ? 0.0 : std::min(stage, fixed) + std::max(0.0, stage - fixed) / k;
    };
    const double in = share(whole.h2dMs, copyMs), kernel = share(whole.kernelMs, launchMs),
                 out = share(whole.d2hMs, copyMs);
    double chunk = in + kernel + out;
    if (costs.chainUs > 0.0 && whole.h2dMs > 0.0 && whole.kernelMs > 0.0 && whole.d2hMs > 0.0) {
        // One after the other on a stream, a chunk's three operations cost the chain's fixed cost, measured so: more
        // than the three back to back.
        const auto work = [k](double stage, double fixed) { return std::max(0.0, stage - fixed) / k; };
        chunk = std::max(chunk, work(whole.h2dMs, copyMs) + work(whole.kernelMs, launchMs) +
                work(whole.d2hMs, copyMs) + costs.chainUs / 1e3);
    }
    if (chunks == 1 || streams == 1)
        return k * chunk;
    const double bothWays = whole.bothWaysMs > 0.0 ? (in > 0.0 && out > 0.0 ? copyMs : 0.0) + whole.bothWaysMs / k
                                                   : 0.0;
    const double perStream = chunk / std::min(streams, chunks);
    const double step = std::max({ in, out, kernel, bothWays, perStream });
    return chunk + (k - 1.0) * step;
}

StageTimes iterationStages(const RunResult& run, const CopyPeak* peak)
{
    StageTimes t;
    t.h2dMs = run.totalMs(SpanKind::H2D);
    t.kernelMs = run.totalMs(SpanKind::Kernel);
    t.d2hMs = run.totalMs(SpanKind::D2H);
    if (peak && peak->bidirectionalGBps > 0.0)
        t.bothWaysMs = static_cast<double>(run.totalBytes(SpanKind::H2D) + run.totalBytes(SpanKind::D2H)) /
            (peak->bidirectionalGBps * 1e6);
    return t;
}

StageTimes pipelineStages(std::size_t bytes, const CopyPeak& peak, double kernelMs)
{
    StageTimes t;
    if (peak.h2dGBps <= 0.0 || peak.d2hGBps <= 0.0)
        return t;
    const double b = static_cast<double>(bytes);
    const double copyMs = std::max(0.0, peak.costs.copyUs) / 1e3;
    t.h2dMs = copyMs + b / (peak.h2dGBps * 1e6);
    t.d2hMs = copyMs + b / (peak.d2hGBps * 1e6);
    if (kernelMs > 0.0)
        t.kernelMs = kernelMs;
    else if (peak.costs.kernelGBps > 0.0)
        t.kernelMs = std::max(0.0, peak.costs.launchUs) / 1e3 + b / (peak.costs.kernelGBps * 1e6);
    if (peak.bidirectionalGBps > 0.0)
        t.bothWaysMs = 2.0 * b / (peak.bidirectionalGBps * 1e6);
    return t;
}

double wholeKernelMs(double kernelMs, int chunks, const OperationCosts& costs)
{
    if (kernelMs <= 0.0)
        return 0.0;
    return std::max(kernelMs / std::max(1, chunks), kernelMs - (chunks - 1) * std::max(0.0, costs.launchUs) / 1e3);
}

double overlapBoundMs(std::size_t bytes, int chunks, int streams, const CopyPeak& peak, double kernelMs)
{
    if (peak.h2dGBps <= 0.0 || peak.d2hGBps <= 0.0 || chunks < 1 || streams < 1)
        return 0.0;
    if (chunks > 1 && streams > 1 && peak.bidirectionalGBps <= 0.0)
        return 0.0;
    CopyPeak bandwidthOnly = peak;  // the kernel's calibrated rate stays: it is work, not an operation's fixed cost
    bandwidthOnly.costs = { 0.0, 0.0, peak.costs.kernelGBps, 0.0 };
    return chunkedMs(pipelineStages(bytes, bandwidthOnly, std::max(0.0, kernelMs)), chunks, streams, {});
}

double modelledMs(std::size_t bytes, int chunks, int streams, Submission submission, const CopyPeak& peak,
    double kernelMs)
{
    if (peak.h2dGBps <= 0.0 || peak.d2hGBps <= 0.0 || chunks < 1 || streams < 1)
        return 0.0;
    if (chunks > 1 && streams > 1 && peak.bidirectionalGBps <= 0.0)
        return 0.0;
    const StageTimes stages = pipelineStages(bytes, peak, kernelMs);
    double ms = chunkedMs(stages, chunks, streams, peak.costs);
    if (submission == Submission::Stream && peak.costs.callUs > 0.0) {
        // Three calls a chunk; the last chunk's copy out starts no sooner than its call.
        const double submitMs = 3.0 * chunks * peak.costs.callUs / 1e3;
        const double copyMs = std::max(0.0, peak.costs.copyUs) / 1e3;
        const double lastOut = copyMs + std::max(0.0, stages.d2hMs - copyMs) / chunks;
        ms = std::max(ms, submitMs + lastOut);
    }
    return ms;
}

std::optional<ModelledShape> bestModelledShape(std::size_t bytes, std::size_t elements, Submission submission,
    const CopyPeak& peak, double kernelMs, int maxChunks, int maxStreams)
{
    std::optional<ModelledShape> best;
    for (int k = 1; k <= maxChunks && static_cast<std::size_t>(k) <= elements; k *= 2) {
        for (int s = std::min(k, maxStreams); s >= 1; --s) {
            const double ms = modelledMs(bytes, k, s, submission, peak, kernelMs);
            // A shape with more chunks is taken only where it saves more than 1 %: fewer operations leave less to what
            // the model does not see. Of one chunk count's, the most streams unless fewer save as much: streams the
            // model has alike absorb the engines' uneven pace (measured on the H200: K = 16 over 4 streams 4.7 %
            // faster than over 2, which the model times alike).
            if (ms > 0.0 && (!best || ms < best->ms * 0.99))
                best = ModelledShape { k, s, ms };
        }
    }
    return best;
}

double zeroCopyBoundMs(std::size_t bytes, const CopyPeak& peak)
{
    if (peak.h2dGBps <= 0.0 || peak.d2hGBps <= 0.0)
        return 0.0;
    const double b = static_cast<double>(bytes);
    const double both = peak.bidirectionalGBps > 0.0 ? 2.0 * b / (peak.bidirectionalGBps * 1e6) : 0.0;
    return std::max({ b / (peak.h2dGBps * 1e6), b / (peak.d2hGBps * 1e6), both });
}

double linkBoundMs(const PipelineConfig& c, const CopyPeak& peak)
{
    if (hasCopies(c))
        return serialBoundMs(c.bytes(), peak);
    if (c.hostMemory == HostMemory::Mapped)
        return zeroCopyBoundMs(c.bytes(), peak);
    return 0.0;
}

double modelledBoundMs(const PipelineConfig& c, const CopyPeak& peak, double kernelMs)
{
    if (hasCopies(c))
        return modelledMs(c.bytes(), c.chunks, c.streams, c.submission, peak, kernelMs);
    if (c.hostMemory == HostMemory::Mapped)
        return zeroCopyBoundMs(c.bytes(), peak);
    return 0.0;
}

const char* copyPathLabel(CopyPath path)
{
    switch (path) {
    case CopyPath::Pinned: return "pinned";
    case CopyPath::Pageable: return "pageable";
    case CopyPath::WriteCombined: return "write-combined";
    case CopyPath::Registered: return "registered";
    case CopyPath::Sm: return "SM copies";
    case CopyPath::ManagedPrefetch: return "managed prefetch";
    }
    return "unknown";
}

const char* copyPathMoves(CopyPath path)
{
    switch (path) {
    case CopyPath::Pinned: return "pinned copies";
    case CopyPath::Pageable: return "pageable copies";
    case CopyPath::WriteCombined: return "write-combined copies";
    case CopyPath::Registered: return "registered copies";
    case CopyPath::Sm: return "SM copies through mapped memory";
    case CopyPath::ManagedPrefetch: return "managed memory prefetches";
    }
    return "unknown moves";
}

}  // namespace asyncscope
