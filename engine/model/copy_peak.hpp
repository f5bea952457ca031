// This host's peak pinned copy bandwidth for one device, one way and both ways at once, and the serial PCIe bound it
// gives: the least time the pipeline's two copies can take one after the other.
#pragma once

#include <cstddef>

namespace asyncscope {

struct CopyPeak {
    double h2dGBps = 0.0;  // decimal GB/s, best of the timed copies
    double d2hGBps = 0.0;
    std::size_t bytes = 0;  // size of each calibration copy
    bool fromCache = false;
    double bidirectionalGBps = 0.0;  // H2D and D2H running at once, both directions together; 0 when unknown
};

// bytes / H2D peak + bytes / D2H peak, in ms; 0 when a peak is unknown.
inline double serialBoundMs(std::size_t bytes, const CopyPeak& peak)
{
    if (peak.h2dGBps <= 0.0 || peak.d2hGBps <= 0.0)
        return 0.0;
    const double b = static_cast<double>(bytes);
    return (b / (peak.h2dGBps * 1e9) + b / (peak.d2hGBps * 1e9)) * 1e3;
}

}  // namespace asyncscope
