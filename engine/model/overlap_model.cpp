#include "engine/model/overlap_model.hpp"

#include <algorithm>

namespace asyncscope {

double overlapBoundMs(std::size_t bytes, int chunks, int streams, const CopyPeak& peak, double kernelMs)
{
    if (peak.h2dGBps <= 0.0 || peak.d2hGBps <= 0.0 || chunks < 1 || streams < 1)
        return 0.0;
    const double b = static_cast<double>(bytes);
    const double h2dMs = b / (peak.h2dGBps * 1e6);
    const double d2hMs = b / (peak.d2hGBps * 1e6);
    const double kernel = std::max(0.0, kernelMs);
    if (chunks == 1 || streams == 1)
        return h2dMs + kernel + d2hMs;
    if (peak.bidirectionalGBps <= 0.0)
        return 0.0;
    const double k = chunks;
    const double chunkH2d = h2dMs / k, chunkD2h = d2hMs / k, chunkKernel = kernel / k;
    const double chunkBoth = 2.0 * b / k / (peak.bidirectionalGBps * 1e6);
    const double step = std::max({ chunkH2d, chunkD2h, chunkKernel, chunkBoth });
    return chunkH2d + chunkKernel + chunkD2h + (k - 1.0) * step;
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
        return overlapBoundMs(c.bytes(), c.chunks, c.streams, peak, kernelMs);
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
