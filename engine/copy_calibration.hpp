// This host's peak pinned copy bandwidth per device, measured once and cached, and the serial PCIe bound it gives:
// the least time the pipeline's two copies can take one after the other.
#pragma once

#include "engine/device_discovery.hpp"
#include "engine/error.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace asyncscope {

struct CopyPeak {
    double h2dGBps = 0.0;  // decimal GB/s, best of the timed copies
    double d2hGBps = 0.0;
    std::size_t bytes = 0;  // size of each calibration copy
    bool fromCache = false;
};

constexpr std::size_t kCalibrationBytes = std::size_t(256) << 20;

// Times pinned H2D and D2H copies of `bytes` with events on the calling thread (one warm-up, then `repeats`).
Result<CopyPeak> measureCopyPeak(int device, std::size_t bytes = kCalibrationBytes, int repeats = 5);

// $XDG_CACHE_HOME/asyncscope or ~/.cache/asyncscope; empty when neither is known.
std::string defaultCacheDir();

// The cached figure for this device (by UUID) from `cacheDir`/copy-peaks.json, or a fresh measurement that is then
// stored there. A cache that cannot be read or written only costs a new measurement.
Result<CopyPeak> cachedCopyPeak(const DeviceInfo& device, const std::string& cacheDir);

// bytes / H2D peak + bytes / D2H peak, in ms: what the serial pipeline's copies alone need.
double serialBoundMs(std::size_t bytes, const CopyPeak& peak);

}  // namespace asyncscope
