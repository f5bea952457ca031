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

}  // namespace asyncscope
