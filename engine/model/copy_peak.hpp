// This host's peak copy bandwidth for one device, one way and both ways at once, for one way of moving the bytes,
// and the serial PCIe bound it gives: the least time the pipeline's two copies can take one after the other.
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/names.hpp"

#include <cstddef>
#include <optional>

namespace asyncscope {

// The ways the pipeline moves its bytes, each calibrated on its own: copy engines from each host memory kind that
// copies, SM copy kernels through mapped pinned memory (which the zero-copy kernel's bound also comes from), and
// managed memory's prefetches.
enum class CopyPath { Pinned, Pageable, WriteCombined, Registered, Sm, ManagedPrefetch };

template <>
struct EnumNames<CopyPath> {
    static constexpr std::array entries { std::pair { CopyPath::Pinned, "pinned" },
        std::pair { CopyPath::Pageable, "pageable" }, std::pair { CopyPath::WriteCombined, "write-combined" },
        std::pair { CopyPath::Registered, "registered" }, std::pair { CopyPath::Sm, "sm" },
        std::pair { CopyPath::ManagedPrefetch, "managed-prefetch" } };
};

// The calibration a series' bound comes from; empty for managed memory migrating on demand, whose pages move on the
// kernel's faults at a rate no copy calibrates.
inline std::optional<CopyPath> copyPathOf(const PipelineConfig& c)
{
    switch (c.hostMemory) {
    case HostMemory::Mapped: return CopyPath::Sm;
    case HostMemory::Managed:
        return c.managedMigration == ManagedMigration::Prefetch ? std::optional(CopyPath::ManagedPrefetch)
                                                                : std::nullopt;
    default: break;
    }
    if (c.copy == CopyMechanism::Sm)
        return CopyPath::Sm;
    switch (c.hostMemory) {
    case HostMemory::Pageable: return CopyPath::Pageable;
    case HostMemory::WriteCombined: return CopyPath::WriteCombined;
    case HostMemory::Registered: return CopyPath::Registered;
    default: return CopyPath::Pinned;
    }
}

// What each operation costs beyond its bytes, timed with the peaks (operations back to back on one stream): the
// overlap model charges it once per copy and per kernel launch, and once per call the CPU makes submitting a run on
// streams. 0: not measured (an earlier version's cache or report, or a path without that operation).
struct OperationCosts {
    double copyUs = 0.0;      // GPU time a copy of the path takes beyond its bytes at the one-way peak
    double launchUs = 0.0;    // GPU time a launch of the pipeline's kernel takes beyond its work
    double kernelGBps = 0.0;  // the kernel's rate: bytes of the buffer it increments per second, decimal GB/s
    double callUs = 0.0;      // CPU time of one enqueue call (a copy or a launch) on a stream
    // GPU time a chunk's copy in, kernel and copy out take beyond their work when each waits for the one before it on
    // its stream, as a pipeline's do: more than the three back to back (the engines hand over between them). 0: not
    // measured (a path without a kernel's copies, an earlier calibration).
    double chainUs = 0.0;

    bool measured() const { return copyUs > 0.0 || launchUs > 0.0 || kernelGBps > 0.0 || callUs > 0.0; }
};

struct CopyPeak {
    double h2dGBps = 0.0;  // decimal GB/s, best of the timed copies
    double d2hGBps = 0.0;
    std::size_t bytes = 0;  // size of each calibration copy
    bool fromCache = false;
    double bidirectionalGBps = 0.0;  // H2D and D2H running at once, both directions together; 0 when unknown
    CopyPath path = CopyPath::Pinned;  // what was measured
    OperationCosts costs {};
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
