// This host's peak pinned copy bandwidth per device, measured once and cached.
#pragma once

#include "engine/cuda/device_discovery.hpp"
#include "engine/io/copy_peak_cache.hpp"
#include "engine/model/copy_peak.hpp"
#include "engine/model/error.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace asyncscope {

constexpr std::size_t kCalibrationBytes = std::size_t(256) << 20;

// Times pinned H2D and D2H copies of `bytes`, one way and both ways at once, with events on the calling thread (one
// warm-up, then `repeats`; the best of them). Needs two pinned host and two device buffers of `bytes`.
Result<CopyPeak> measureCopyPeak(int device, std::size_t bytes = kCalibrationBytes, int repeats = 5);

// The cached figure for this device (by UUID) from `cacheDir`/copy-peaks.json (engine/io/copy_peak_cache), or a fresh
// measurement that is then stored there. An entry without the bidirectional peak (written by an earlier version) is
// measured again. A cache that cannot be read or written only costs a new measurement.
Result<CopyPeak> cachedCopyPeak(const DeviceInfo& device, const std::string& cacheDir);

}  // namespace asyncscope
